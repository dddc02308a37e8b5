package io.qatwatch.collector.window;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * One night's backup window of one scope (an instance, or an availability group across its replicas):
 * from the first start to the last finish of the backups that started in that night, and its margin to
 * the next business start. Plain data for the status page and the InfluxDB sink: a record's parts, equality and
 * printing, held in fewer bytes than a record of two {@code Instant}s more would take.
 */
public final class NightlyWindow {

    private final String scope;
    private final LocalDate morning;
    private final NightKind kind;
    private final Instant businessEnd;
    private final Instant businessStart;
    /**
     * The first start and the last finish as seconds and nanoseconds (-1 for none), not two {@code Instant}s: the alert
     * stage keeps every night of the lookback period of every instance, and the calendar's instants are shared while
     * these are each night's own.
     */
    private final long firstStartSecond;
    private final int firstStartNano;
    private final long lastFinishSecond;
    private final int lastFinishNano;
    private final long marginSeconds;
    private final List<DatabaseBackup> backups;
    private final int backupCount;

    /**
     * @param scope           {@code host/instance} or {@code ag:<name>}
     * @param morning         the local date business starts again after this night; names the night
     * @param marginSeconds   business start minus window end; negative when the window ran into business hours
     * @param backups         every backup of the window, or in a {@link #summary()} only the last to finish
     * @param backupCount     how many backups the window had
     */
    public NightlyWindow(String scope, LocalDate morning, NightKind kind, Instant businessEnd, Instant businessStart,
                         Instant firstStart, Instant lastFinish, long marginSeconds, List<DatabaseBackup> backups,
                         int backupCount) {
        this.scope = scope;
        this.morning = morning;
        this.kind = kind;
        this.businessEnd = businessEnd;
        this.businessStart = businessStart;
        this.firstStartSecond = firstStart == null ? 0 : firstStart.getEpochSecond();
        this.firstStartNano = firstStart == null ? -1 : firstStart.getNano();
        this.lastFinishSecond = lastFinish == null ? 0 : lastFinish.getEpochSecond();
        this.lastFinishNano = lastFinish == null ? -1 : lastFinish.getNano();
        this.marginSeconds = marginSeconds;
        this.backups = List.copyOf(backups);
        this.backupCount = backupCount;
    }

    /** A window of all these backups. */
    public NightlyWindow(String scope, LocalDate morning, NightKind kind, Instant businessEnd, Instant businessStart,
                         Instant firstStart, Instant lastFinish, long marginSeconds, List<DatabaseBackup> backups) {
        this(scope, morning, kind, businessEnd, businessStart, firstStart, lastFinish, marginSeconds, backups, backups.size());
    }

    /**
     * The same window keeping of its backups only the last to finish (the first of them on a tie): what the
     * alert stage holds between evaluations, since a finished night's backups are read again only when it changes.
     */
    public NightlyWindow summary() {
        DatabaseBackup last = null;
        for (DatabaseBackup b : backups) {
            if (last == null || b.finishedAfter(last)) {
                last = b;
            }
        }
        return new NightlyWindow(scope, morning, kind, businessEnd, businessStart, firstStart(), lastFinish(), marginSeconds,
                last == null ? List.of() : List.of(last), backupCount);
    }

    /** The same window without its backups (their count stays). */
    public NightlyWindow withoutBackups() {
        return new NightlyWindow(scope, morning, kind, businessEnd, businessStart, firstStart(), lastFinish(), marginSeconds,
                List.of(), backupCount);
    }

    /** Margin in minutes, for messages and trends. */
    public double marginMinutes() {
        return marginSeconds / 60.0;
    }

    /** True when the window ended inside (or after the start of) business hours. */
    public boolean breached() {
        return marginSeconds < 0;
    }

    /** Window length, first start to last finish. */
    public long durationSeconds() {
        if (firstStartNano < 0 || lastFinishNano < 0) {
            return Duration.between(firstStart(), lastFinish()).getSeconds();
        }
        // Duration.between(..).getSeconds() without the Instants and the Duration
        return lastFinishSecond - firstStartSecond - (lastFinishNano < firstStartNano ? 1 : 0);
    }

    public String scope() {
        return scope;
    }

    public LocalDate morning() {
        return morning;
    }

    public NightKind kind() {
        return kind;
    }

    public Instant businessEnd() {
        return businessEnd;
    }

    public Instant businessStart() {
        return businessStart;
    }

    public Instant firstStart() {
        return firstStartNano < 0 ? null : Instant.ofEpochSecond(firstStartSecond, firstStartNano);
    }

    public Instant lastFinish() {
        return lastFinishNano < 0 ? null : Instant.ofEpochSecond(lastFinishSecond, lastFinishNano);
    }

    public long marginSeconds() {
        return marginSeconds;
    }

    public List<DatabaseBackup> backups() {
        return backups;
    }

    public int backupCount() {
        return backupCount;
    }

    /** Equal when every part is, as a record's. */
    @Override
    public boolean equals(Object o) {
        return o instanceof NightlyWindow w && firstStartSecond == w.firstStartSecond && firstStartNano == w.firstStartNano
                && lastFinishSecond == w.lastFinishSecond && lastFinishNano == w.lastFinishNano
                && marginSeconds == w.marginSeconds && backupCount == w.backupCount && kind == w.kind
                && Objects.equals(scope, w.scope) && Objects.equals(morning, w.morning)
                && Objects.equals(businessEnd, w.businessEnd) && Objects.equals(businessStart, w.businessStart)
                && backups.equals(w.backups);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scope, morning, kind, businessEnd, businessStart, firstStart(), lastFinish(), marginSeconds,
                backups, backupCount);
    }

    /** As a record prints itself. */
    @Override
    public String toString() {
        return "NightlyWindow[scope=" + scope + ", morning=" + morning + ", kind=" + kind + ", businessEnd=" + businessEnd
                + ", businessStart=" + businessStart + ", firstStart=" + firstStart() + ", lastFinish=" + lastFinish()
                + ", marginSeconds=" + marginSeconds + ", backups=" + backups + ", backupCount=" + backupCount + "]";
    }

    /** The same window with another kind (kinds are decided once all nights are known). */
    NightlyWindow withKind(NightKind k) {
        return new NightlyWindow(scope, morning, k, businessEnd, businessStart, firstStart(), lastFinish(), marginSeconds,
                backups, backupCount);
    }

    /**
     * One backup inside a window, with a record's parts, equality, hash and printing, its times and sizes held as numbers:
     * the alert stage holds one in every finished night of every instance and one for each backup of the digest the
     * rules read, and a record of two {@code Instant}s and a boxed size took 136 bytes where this takes 80. Any part a
     * record would take as null may be null. {@link #startedAt} and {@link #finishedAt} make their {@code Instant}
     * when called: what runs every minute compares with {@link #finishedAfter(DatabaseBackup)} and the like instead.
     */
    public static final class DatabaseBackup {

        /** Bits of {@link #flags}. */
        private static final int COPY_ONLY = 1;
        private static final int ON_SECONDARY = 2;
        private static final int SNAPSHOT = 4;
        private static final int COMPRESSED_SIZE = 8;

        private final String instance;
        private final String database;
        private final String databaseKey;
        private final String type;
        private final String compressionAlgorithm;
        private final String target;
        /** The start and the finish as an {@code Instant}'s epoch second and nanosecond; a nanosecond of -1 is null. */
        private final long startSecond;
        private final long finishSecond;
        private final int startNano;
        private final int finishNano;
        private final long sizeBytes;
        /** Meaningful when {@link #flags} has {@link #COMPRESSED_SIZE}, else null. */
        private final long compressedSizeBytes;
        private final byte flags;

        /**
         * @param type         D full, I differential, L log (msdb letters)
         * @param instance     {@code host/instance} where it ran, which matters for an availability group
         * @param databaseKey  which database it is across the fleet: an availability database's group identity, else its
         *                     database_guid (see {@code analysis.DatabaseIdentities}); null when unknown (then the name)
         * @param onSecondary  the database is an availability-group secondary on the instance where it ran
         * @param snapshot     a snapshot (VSS) backup: its size is an estimate, so it has no throughput or ratio
         */
        public DatabaseBackup(String instance, String database, String databaseKey, String type, boolean copyOnly,
                              Instant startedAt, Instant finishedAt, long sizeBytes, Long compressedSizeBytes,
                              String compressionAlgorithm, String target, boolean onSecondary, boolean snapshot) {
            this.instance = instance;
            this.database = database;
            this.databaseKey = databaseKey;
            this.type = type;
            this.compressionAlgorithm = compressionAlgorithm;
            this.target = target;
            this.startSecond = startedAt == null ? 0 : startedAt.getEpochSecond();
            this.startNano = startedAt == null ? -1 : startedAt.getNano();
            this.finishSecond = finishedAt == null ? 0 : finishedAt.getEpochSecond();
            this.finishNano = finishedAt == null ? -1 : finishedAt.getNano();
            this.sizeBytes = sizeBytes;
            this.compressedSizeBytes = compressedSizeBytes == null ? 0 : compressedSizeBytes;
            this.flags = (byte) ((copyOnly ? COPY_ONLY : 0) | (onSecondary ? ON_SECONDARY : 0) | (snapshot ? SNAPSHOT : 0)
                    | (compressedSizeBytes != null ? COMPRESSED_SIZE : 0));
        }

        public String instance() {
            return instance;
        }

        public String database() {
            return database;
        }

        public String databaseKey() {
            return databaseKey;
        }

        public String type() {
            return type;
        }

        public boolean copyOnly() {
            return (flags & COPY_ONLY) != 0;
        }

        public Instant startedAt() {
            return startNano < 0 ? null : Instant.ofEpochSecond(startSecond, startNano);
        }

        public Instant finishedAt() {
            return finishNano < 0 ? null : Instant.ofEpochSecond(finishSecond, finishNano);
        }

        public long sizeBytes() {
            return sizeBytes;
        }

        public Long compressedSizeBytes() {
            return (flags & COMPRESSED_SIZE) != 0 ? Long.valueOf(compressedSizeBytes) : null;
        }

        public String compressionAlgorithm() {
            return compressionAlgorithm;
        }

        public String target() {
            return target;
        }

        public boolean onSecondary() {
            return (flags & ON_SECONDARY) != 0;
        }

        public boolean snapshot() {
            return (flags & SNAPSHOT) != 0;
        }

        /** {@code finishedAt().isAfter(other.finishedAt())} without the two {@code Instant}s. */
        public boolean finishedAfter(DatabaseBackup other) {
            if (finishNano < 0 || other.finishNano < 0) {
                return finishedAt().isAfter(other.finishedAt());
            }
            return compare(finishSecond, finishNano, other.finishSecond, other.finishNano) > 0;
        }

        /** {@code finishedAt().isAfter(t)} without making the finish's {@code Instant}. */
        public boolean finishedAfter(Instant t) {
            return finishNano < 0 ? finishedAt().isAfter(t) : compare(finishSecond, finishNano, t.getEpochSecond(), t.getNano()) > 0;
        }

        /** {@code finishedAt().isBefore(t)} without making the finish's {@code Instant}. */
        public boolean finishedBefore(Instant t) {
            return finishNano < 0 ? finishedAt().isBefore(t) : compare(finishSecond, finishNano, t.getEpochSecond(), t.getNano()) < 0;
        }

        /** {@code startedAt().isAfter(t)} without making the start's {@code Instant}. */
        public boolean startedAfter(Instant t) {
            return startNano < 0 ? startedAt().isAfter(t) : compare(startSecond, startNano, t.getEpochSecond(), t.getNano()) > 0;
        }

        private static int compare(long second, int nano, long otherSecond, int otherNano) {
            int c = Long.compare(second, otherSecond);
            return c != 0 ? c : Integer.compare(nano, otherNano);
        }

        /** How long it ran. */
        public long durationSeconds() {
            if (startNano < 0 || finishNano < 0) {
                throw new NullPointerException("a backup without a start or a finish has no duration");
            }
            // Duration.between(..).getSeconds() without the Duration: the rules read it for every backup every minute
            long seconds = finishSecond - startSecond - (finishNano < startNano ? 1 : 0);
            return Math.max(0, seconds);
        }

        /**
         * Throughput in MB/s as SQL Server prints it (1 MB = 1,048,576 bytes); 0 for instant backups. Meaningless for a
         * {@link #snapshot} backup, whose size is an estimate: comparisons leave those out.
         */
        public double throughputMbps() {
            long s = durationSeconds();
            return s == 0 ? 0 : sizeBytes / 1_048_576.0 / s;
        }

        /** True for a full (database, file or partial) backup. */
        public boolean isFull() {
            return "D".equals(type) || "F".equals(type) || "P".equals(type);
        }

        /** Equal when every part is, as a record's. */
        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof DatabaseBackup b && startSecond == b.startSecond && startNano == b.startNano
                    && finishSecond == b.finishSecond && finishNano == b.finishNano && sizeBytes == b.sizeBytes
                    && compressedSizeBytes == b.compressedSizeBytes && flags == b.flags
                    && Objects.equals(instance, b.instance) && Objects.equals(database, b.database)
                    && Objects.equals(databaseKey, b.databaseKey) && Objects.equals(type, b.type)
                    && Objects.equals(compressionAlgorithm, b.compressionAlgorithm) && Objects.equals(target, b.target);
        }

        /**
         * The hash the record gave (31 times the parts so far plus the next part's hash, an {@code Instant}'s and a
         * {@code Long}'s as their own classes hash them), worked out from the numbers: maps keyed or ordered by backups
         * keep their order.
         */
        @Override
        public int hashCode() {
            int h = Objects.hashCode(instance);
            h = 31 * h + Objects.hashCode(database);
            h = 31 * h + Objects.hashCode(databaseKey);
            h = 31 * h + Objects.hashCode(type);
            h = 31 * h + Boolean.hashCode(copyOnly());
            h = 31 * h + instantHash(startSecond, startNano);
            h = 31 * h + instantHash(finishSecond, finishNano);
            h = 31 * h + Long.hashCode(sizeBytes);
            h = 31 * h + ((flags & COMPRESSED_SIZE) != 0 ? Long.hashCode(compressedSizeBytes) : 0);
            h = 31 * h + Objects.hashCode(compressionAlgorithm);
            h = 31 * h + Objects.hashCode(target);
            h = 31 * h + Boolean.hashCode(onSecondary());
            return 31 * h + Boolean.hashCode(snapshot());
        }

        /** {@code Instant.hashCode()} of the instant these numbers are, 0 for none (as {@code Objects.hashCode(null)}). */
        private static int instantHash(long second, int nano) {
            return nano < 0 ? 0 : (int) (second ^ (second >>> 32)) + 51 * nano;
        }

        /** As a record prints itself. */
        @Override
        public String toString() {
            return "DatabaseBackup[instance=" + instance + ", database=" + database + ", databaseKey=" + databaseKey
                    + ", type=" + type + ", copyOnly=" + copyOnly() + ", startedAt=" + startedAt() + ", finishedAt="
                    + finishedAt() + ", sizeBytes=" + sizeBytes + ", compressedSizeBytes=" + compressedSizeBytes()
                    + ", compressionAlgorithm=" + compressionAlgorithm + ", target=" + target + ", onSecondary="
                    + onSecondary() + ", snapshot=" + snapshot() + "]";
        }
    }
}
