package io.qatwatch.collector.compression;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One instance's backups as the compression comparison reads them, and no more: per database, kind of backup,
 * target, backup encryption and compression method, the newest {@value #KEPT_PER_SERIES} backups' duration, size,
 * compressed size and CPU (where a poll saw the backup run, issue 30). What the alert stage keeps between evaluations instead of the backups. Not thread-safe.
 */
public final class CompressionSamples {

    /**
     * The most MB/s a backup is believed: a backup reads and writes every byte, and a PCIe 4.0 x16 link moves about
     * 32 GB/s, so a {@code backup_size} over its duration above this is a size in the wrong unit or an estimate, not a
     * measurement (issue 29: a demo full of 5 h at "137,518.2 MB/s").
     */
    public static final double MAX_PLAUSIBLE_MBPS = 30_000;

    /** Backups kept per series: enough for a median and quartiles, few enough to keep for a whole fleet. */
    public static final int KEPT_PER_SERIES = 32;

    /**
     * How many times a packed series was unpacked, over the process: a restart's first comparisons should take none
     * (they read each series' statistics from the summary), a minute only those of the series that changed.
     */
    static final LongAdder UNPACKED = new LongAdder();

    /**
     * How many times {@link #dropBefore} looked at every series, over the process: a minute whose lookback start has not
     * passed any kept backup's start should look at none.
     */
    static final LongAdder WALKED = new LongAdder();

    /** What backups of one series have in common: compared like with like. */
    public record Key(String database, BackupKind kind, String target, boolean backupEncrypted, Method method) {
    }

    /**
     * One backup, to the millisecond (msdb keeps datetime, 1/300 s): {@code compressedBytes} equals {@code bytes} when
     * uncompressed; {@code cpuMillis} the CPU it cost over its whole run ({@link CpuEstimate}), -1 when not observed.
     */
    public record Point(Instant startedAt, long millis, long bytes, long compressedBytes, boolean copyOnly, long cpuMillis) {

        /** A backup whose CPU was not observed. */
        public Point(Instant startedAt, long millis, long bytes, long compressedBytes, boolean copyOnly) {
            this(startedAt, millis, bytes, compressedBytes, copyOnly, -1);
        }

        /** Whether a poll saw it run long enough to tell its CPU. */
        public boolean cpuObserved() {
            return cpuMillis >= 0;
        }

        /** CPU seconds per GB of {@code backup_size} (1 GB = 2^30 bytes); NaN when not observed. */
        public double cpuSecondsPerGb() {
            return cpuObserved() ? Rows.cpuSecondsPerGb(cpuMillis, bytes) : Double.NaN;
        }

        /** How long it took. */
        public double seconds() {
            return Rows.seconds(millis);
        }

        public Instant finishedAt() {
            return startedAt.plusMillis(millis);
        }

        /** MB/s of {@code backup_size}, as SQL Server prints it (1 MB = 2^20 bytes). */
        public double mbps() {
            return Rows.mbps(bytes, millis);
        }

        /** {@code backup_size / compressed_backup_size}; 1.0 uncompressed. */
        public double ratio() {
            return Rows.ratio(bytes, compressedBytes);
        }
    }

    /**
     * One series' backups as its statistics read them, oldest first: each {@link Point}'s numbers, without an object
     * for each backup.
     */
    static final class Rows {
        private final long[] values;
        private final int size;

        private Rows(long[] values, int size) {
            this.values = values;
            this.size = size;
        }

        int size() {
            return size;
        }

        boolean copyOnly(int i) {
            return (values[i * Series.WIDE] & 1) == 1;
        }

        /** The backup's finish, epoch milliseconds. */
        long finishedMillis(int i) {
            return (values[i * Series.WIDE] >> 1) + values[i * Series.WIDE + 1];
        }

        long millis(int i) {
            return values[i * Series.WIDE + 1];
        }

        long bytes(int i) {
            return values[i * Series.WIDE + 2];
        }

        long compressedBytes(int i) {
            return values[i * Series.WIDE + 3];
        }

        /** -1 when not observed. */
        long cpuMillis(int i) {
            return values[i * Series.WIDE + 4];
        }

        static double seconds(long millis) {
            return millis / 1000.0;
        }

        static double mbps(long bytes, long millis) {
            return bytes / 1_048_576.0 / seconds(millis);
        }

        static double ratio(long bytes, long compressedBytes) {
            return compressedBytes <= 0 ? 1.0 : (double) bytes / compressedBytes;
        }

        static double cpuSecondsPerGb(long cpuMillis, long bytes) {
            return cpuMillis / 1000.0 / (bytes / 1_073_741_824.0);
        }
    }

    /**
     * What the comparison reads of one series: its method's statistics and its newest finish of a backup not
     * {@code COPY_ONLY} (epoch milliseconds; {@link Long#MIN_VALUE} when every backup is), which decides the row's current
     * method.
     */
    record Measured(Key key, AlgorithmStats stats, long newestJobFinish) {
    }

    private final int minDurationSeconds;
    private final Map<Key, Series> series = new HashMap<>();
    private int version;
    /**
     * No kept backup started before this (epoch milliseconds; {@link Long#MAX_VALUE} while none is kept): exact after
     * {@link #dropBefore} looked at every series, lower after a series let its oldest go for a newer backup (a bound, not
     * the start).
     */
    private long noStartBefore = Long.MAX_VALUE;
    /** What {@link #memo} was worked out for: the samples' version, the TDE states and the thresholds (null: none yet). */
    private int memoVersion;
    private Map<String, Boolean> memoTde;
    private VerdictThresholds memoThresholds;
    private List<Comparison> memo;

    /** Empty; backups shorter than {@code minDurationSeconds} will not count (their time is mostly fixed cost). */
    public CompressionSamples(int minDurationSeconds) {
        this.minDurationSeconds = Math.max(1, minDurationSeconds);
    }

    /** The samples of {@code backups} (any order), each QAT_DEFLATE backup in the mode {@code modes} had at its start. */
    public static CompressionSamples of(Iterable<BackupRecord> backups, QatModes modes, int minDurationSeconds) {
        CompressionSamples s = new CompressionSamples(minDurationSeconds);
        for (BackupRecord b : backups) {
            s.add(b, modes);
        }
        return s;
    }

    /**
     * Takes one backup: true when it counts (a full or differential, not a snapshot, not shorter than the
     * minimum, not faster than {@link #MAX_PLAUSIBLE_MBPS}, not already taken: the same start, duration and sizes). A series keeps its newest backups by start.
     */
    public boolean add(BackupRecord b, QatModes modes) {
        BackupKind kind = BackupKind.of(b.type());
        if (kind == null || b.startedAt() == null || b.finishedAt() == null || snapshot(b) || b.backupSizeBytes() <= 0) {
            return false;
        }
        long millis = Duration.between(b.startedAt(), b.finishedAt()).toMillis();
        if (millis < minDurationSeconds * 1000L || b.backupSizeBytes() / 1_048_576.0 / (millis / 1000.0) > MAX_PLAUSIBLE_MBPS) {
            return false;
        }
        Method method = Method.of(b, modes.at(b.startedAt()));
        String target = b.target() == null || b.target().isBlank() ? "UNKNOWN" : b.target().trim().toUpperCase(Locale.ROOT);
        Key key = new Key(b.databaseName(), kind, target, backupEncrypted(b.keyAlgorithm()), method);
        long compressed = method.algorithm().equals(Method.NONE) ? b.backupSizeBytes() : b.compressedSizeBytes();
        Long cpu = CpuEstimate.millis(b);
        boolean added = series.computeIfAbsent(key, k -> new Series())
                .add(b.startedAt().toEpochMilli(), millis, b.backupSizeBytes(), compressed, b.copyOnly(), cpu == null ? -1 : cpu);
        if (added) {
            version++;
            noStartBefore = Math.min(noStartBefore, b.startedAt().toEpochMilli());
        }
        return added;
    }

    /**
     * Drops the backups that started before {@code from}: they left the lookback period (which counts a backup by its
     * start, as the store reads it).
     */
    public void dropBefore(Instant from) {
        long cut = from.toEpochMilli();
        if (cut <= noStartBefore) {
            // every minute for every instance, and the lookback start passes a kept backup's start about once a night
            return;
        }
        WALKED.increment();
        boolean dropped = false;
        long oldest = Long.MAX_VALUE;
        for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
            Series s = it.next();
            if (s.dropUpTo(cut)) {
                dropped = true;
                if (s.size == 0) {
                    it.remove();
                    continue;
                }
            }
            if (s.size > 0) {
                oldest = Math.min(oldest, s.firstStart());
            }
        }
        noStartBefore = oldest;
        if (dropped) {
            version++;
        }
    }

    /**
     * Writes every series with its backups and what the comparison reads of it (its statistics and newest job's finish)
     * for the instance's persisted summary (issue 33); {@link #read} takes them back, so a restart's first comparisons
     * need not unpack every series and sort its numbers again.
     */
    public void write(SummaryOutput out) {
        int held = 0;
        for (Series s : series.values()) {
            held += s.size > 0 ? 1 : 0;
        }
        out.writeCount(held);
        series.forEach((k, s) -> {
            if (s.size == 0) {
                // compares as nothing (a series is dropped once empty): not written
                return;
            }
            out.writeString(k.database());
            out.writeString(k.kind().name());
            out.writeString(k.target());
            out.writeBoolean(k.backupEncrypted());
            out.writeString(k.method().algorithm());
            out.writeString(k.method().level());
            out.writeString(k.method().mode());
            // packed as held (the bytes count their backups): a restart takes the bytes back as they are, never unpacked and packed again
            out.writeBytes(s.packedRows());
            writeMeasure(out, s.measure(k));
        });
    }

    /**
     * A series' statistics (its backups counted by its packed bytes) and newest job's finish: the doubles bit for bit,
     * the latest finish in epoch milliseconds (as the series holds it) and the newest job's as its distance from that.
     */
    private static void writeMeasure(SummaryOutput out, Measured m) {
        AlgorithmStats st = m.stats();
        long latest = st.latest().toEpochMilli();
        out.writeCount(st.copyOnlyBackups());
        out.writeLong(latest);
        out.writeCount(m.newestJobFinish() == Long.MIN_VALUE ? 0 : latest - m.newestJobFinish() + 1);
        out.writeCount(st.cpuBackups());
        for (AlgorithmStats.Quartiles q : st.cpuBackups() > 0 ? List.of(st.seconds(), st.mbps(), st.ratio(), st.cpuSecondsPerGb())
                : List.of(st.seconds(), st.mbps(), st.ratio())) {
            out.writeDouble(q.q1());
            out.writeDouble(q.median());
            out.writeDouble(q.q3());
        }
    }

    /** What {@link #writeMeasure} wrote for a series of {@code size} backups of {@code key}. */
    private static Measured readMeasure(SummaryInput in, Key key, int size) {
        long copyOnly = in.readCount();
        long latest = in.readLong();
        long behind = in.readCount();
        long cpuBackups = in.readCount();
        // every backup COPY_ONLY exactly when none is a job's
        if (copyOnly < 0 || copyOnly > size || cpuBackups < 0 || cpuBackups > size || (copyOnly == size) != (behind == 0)) {
            throw new IllegalArgumentException("summary body holds statistics its compression series' backups cannot have");
        }
        AlgorithmStats.Quartiles seconds = quartiles(in);
        AlgorithmStats.Quartiles mbps = quartiles(in);
        AlgorithmStats.Quartiles ratio = quartiles(in);
        AlgorithmStats.Quartiles cpu = cpuBackups > 0 ? quartiles(in) : null;
        AlgorithmStats stats = new AlgorithmStats(key.method(), size, (int) copyOnly, seconds, mbps, ratio,
                Instant.ofEpochMilli(latest), (int) cpuBackups, cpu);
        return new Measured(key, stats, behind == 0 ? Long.MIN_VALUE : latest - (behind - 1));
    }

    private static AlgorithmStats.Quartiles quartiles(SummaryInput in) {
        return new AlgorithmStats.Quartiles(in.readDouble(), in.readDouble(), in.readDouble());
    }

    /** What {@link #write} wrote: the same series holding the same numbers. */
    public static CompressionSamples read(SummaryInput in, int minDurationSeconds) {
        CompressionSamples out = new CompressionSamples(minDurationSeconds);
        for (int n = in.readSize(); n > 0; n--) {
            String database = in.readString();
            BackupKind kind;
            try {
                kind = BackupKind.valueOf(String.valueOf(in.readString()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("summary body names an unknown kind of backup", e);
            }
            Key key = new Key(database, kind, in.readString(), in.readBoolean(),
                    Method.shared(in.readString(), in.readString(), in.readString()));
            byte[] packed = PackedRows.read(in, Series.WIDE, KEPT_PER_SERIES, "compression series' backups");
            int size = PackedRows.rows(packed);
            if (size == 0) {
                throw new IllegalArgumentException("summary body holds a compression series without backups");
            }
            Measured m = readMeasure(in, key, size);
            Series s = new Series(packed, size, m.stats(), m.newestJobFinish());
            out.series.put(key, s);
            out.noStartBefore = Math.min(out.noStartBefore, s.firstStart());
        }
        return out;
    }

    /** Every series with its backups, oldest first, in no particular order of series. */
    public Map<Key, List<Point>> series() {
        Map<Key, List<Point>> out = new LinkedHashMap<>();
        series.forEach((k, s) -> out.put(k, s.points()));
        return out;
    }

    /** How many backups are kept, over all series. */
    public int size() {
        int n = 0;
        for (Series s : series.values()) {
            n += s.size;
        }
        return n;
    }

    /**
     * The comparisons of these samples as of {@code from} (the lookback period's start): worked out again only
     * when a backup was added or dropped, or the databases' TDE states or the thresholds changed, and then from each
     * series' statistics as last worked out (or read from a summary) unless that series changed since.
     *
     * @param tde each database's TDE state by lower-case name (true on, false off; absent: unknown)
     */
    public List<Comparison> comparisons(Instant from, Map<String, Boolean> tde, VerdictThresholds thresholds) {
        dropBefore(from);
        // compared part by part, as a list of the three would be, without making one every minute for every instance
        if (memo == null || memoVersion != version || !tde.equals(memoTde) || !thresholds.equals(memoThresholds)) {
            List<Measured> measured = new ArrayList<>(series.size());
            series.forEach((k, s) -> {
                if (s.size > 0) {
                    measured.add(s.measure(k));
                }
            });
            memo = Collections.unmodifiableList(Comparisons.of(measured, tde, thresholds));
            memoVersion = version;
            memoTde = tde;
            memoThresholds = thresholds;
        }
        // read: packed until a backup is added or dropped
        for (Series s : series.values()) {
            s.pack();
        }
        return memo;
    }

    /**
     * Whether a backup was taken {@code WITH ENCRYPTION}: msdb's {@code key_algorithm} names an algorithm (it says
     * {@code NO_Encryption} otherwise). A TDE database's backup is not, by itself, an encrypted backup.
     */
    static boolean backupEncrypted(String keyAlgorithm) {
        return BackupRecord.encryptedBy(keyAlgorithm);
    }

    /**
     * A snapshot (VSS) backup ({@code backupset.is_snapshot}), whose size is an estimate and whose duration is the
     * freeze: never compared. Unknown (agents before issue 14) counts as not one.
     */
    static boolean snapshot(BackupRecord b) {
        return b.sizeIsEstimate();
    }

    /**
     * One series' backups in start order, at most {@link #KEPT_PER_SERIES}, each five numbers: the start (epoch
     * milliseconds) shifted left once with the copy-only bit, the duration in milliseconds, the two sizes and the CPU
     * milliseconds (-1 when not observed). Open (five longs a backup) while backups are added or dropped, packed
     * ({@link PackedRows}: the start as its change in the nightly step, the compressed size as its distance from what
     * the backup before's ratio makes of this one's size, the rest as their change from the backup before) once an
     * evaluation has read it; either way exactly the numbers added. Its statistics are kept from when they were last
     * worked out (or read back) until a backup is added or dropped.
     */
    private static final class Series {
        private static final int WIDE = 5;
        /** The start grows by about a night each backup: packed as its change in that step. */
        private static final int STEADY = 1;
        /** The compressed size, kept as its distance from the one the ratio before predicts: packed as it is. */
        private static final int PLAIN = 1 << 3;

        /** The backups while they change; null while packed. */
        private long[] open;
        /** The backups while unchanged since an evaluation read them; null while open. */
        private byte[] packed;
        int size;
        /** What the comparison reads of these backups; null when not worked out since the last change. */
        private AlgorithmStats stats;
        /** With {@link #stats}: the newest finish of a backup not {@code COPY_ONLY}, {@link Long#MIN_VALUE} for none. */
        private long newestJobFinish;

        Series() {
            open = new long[2 * WIDE];
        }

        /**
         * {@code size} backups as {@link PackedRows} packed them, with their statistics and newest job's finish (a
         * persisted summary's, read back): packed.
         */
        Series(byte[] packed, int size, AlgorithmStats stats, long newestJobFinish) {
            this.packed = packed;
            this.size = size;
            this.stats = stats;
            this.newestJobFinish = newestJobFinish;
        }

        /** What the comparison reads of the backups (at least one): kept, or worked out from them and kept. */
        Measured measure(Key key) {
            if (stats == null) {
                Rows rows = new Rows(rows(), size);
                long newest = Long.MIN_VALUE;
                for (int i = 0; i < size; i++) {
                    if (!rows.copyOnly(i)) {
                        newest = Math.max(newest, rows.finishedMillis(i));
                    }
                }
                stats = AlgorithmStats.of(key.method(), rows);
                newestJobFinish = newest;
            }
            return new Measured(key, stats, newestJobFinish);
        }

        /** Every backup's five numbers, in order: the open array itself, or the packed ones unpacked (a copy). */
        long[] rows() {
            if (open != null) {
                return open;
            }
            long[] out = new long[size * WIDE];
            unpack(packed, size, out);
            return out;
        }

        /** The backups packed: the packed bytes themselves, or the open ones packed (a copy; the series stays open). */
        byte[] packedRows() {
            return packed != null ? packed : pack(open, size);
        }

        /** Open for a change: unpacked, with room for one more backup. */
        private void openUp() {
            if (open == null) {
                long[] out = new long[Math.min(KEPT_PER_SERIES, size + 1) * WIDE];
                unpack(packed, size, out);
                open = out;
                packed = null;
            }
        }

        /** Packed until the next change. */
        void pack() {
            if (open != null) {
                packed = pack(open, size);
                open = null;
            }
        }

        /**
         * The first {@code size} backups of {@code rows}, packed: a database's compression ratio changes little from one
         * backup to the next where its size may change much (a differential grows through the week), so the compressed
         * size is kept as its distance from the size times the ratio before, which is a few bits where its change is many.
         */
        private static byte[] pack(long[] rows, int size) {
            long[] kept = Arrays.copyOf(rows, size * WIDE);
            for (int r = 1; r < size; r++) {
                kept[r * WIDE + 3] = rows[r * WIDE + 3] - predictedCompressed(rows, r);
            }
            return PackedRows.pack(kept, size, WIDE, STEADY, PLAIN);
        }

        /** What {@link #pack(long[], int)} packed, into {@code into}: the compressed sizes worked out again in order. */
        private static void unpack(byte[] packed, int size, long[] into) {
            UNPACKED.increment();
            PackedRows.unpack(packed, WIDE, STEADY, PLAIN, into);
            for (int r = 1; r < size; r++) {
                into[r * WIDE + 3] += predictedCompressed(into, r);
            }
        }

        /**
         * Backup {@code r}'s size at backup {@code r - 1}'s ratio: the same number packing and unpacking (Java's double
         * arithmetic gives the same bits on every platform since Java 17, and a long's difference is exact whatever it is).
         */
        private static long predictedCompressed(long[] rows, int r) {
            long size = rows[(r - 1) * WIDE + 2];
            long compressed = rows[(r - 1) * WIDE + 3];
            return size == 0 ? compressed : (long) ((double) compressed / size * rows[r * WIDE + 2]);
        }

        boolean add(long startMillis, long millis, long bytes, long compressed, boolean copyOnly, long cpu) {
            openUp();
            long[] v = open;
            long m = startMillis << 1 | (copyOnly ? 1 : 0);
            int at = size;
            while (at > 0 && (v[(at - 1) * WIDE] > m || v[(at - 1) * WIDE] == m && v[(at - 1) * WIDE + 1] >= millis)) {
                int p = (at - 1) * WIDE;
                if (v[p] == m && v[p + 1] == millis && v[p + 2] == bytes && v[p + 3] == compressed) {
                    return false;
                }
                at--;
            }
            if (size == KEPT_PER_SERIES) {
                if (at == 0) {
                    return false;
                }
                dropFirst(1);
                at--;
            }
            if ((size + 1) * WIDE > open.length) {
                open = Arrays.copyOf(open, Math.min(KEPT_PER_SERIES, size + Math.max(2, size / 2)) * WIDE);
            }
            System.arraycopy(open, at * WIDE, open, (at + 1) * WIDE, (size - at) * WIDE);
            stats = null;
            int p = at * WIDE;
            open[p] = m;
            open[p + 1] = millis;
            open[p + 2] = bytes;
            open[p + 3] = compressed;
            open[p + 4] = cpu;
            size++;
            return true;
        }

        /** The oldest backup's start, epoch milliseconds (at least one backup). */
        long firstStart() {
            return (open != null ? open[0] : PackedRows.first(packed)) >> 1;
        }

        /** Drops backups that started before {@code cut} (epoch milliseconds); true when any was. */
        boolean dropUpTo(long cut) {
            // a packed series is opened only when its oldest backup goes
            if (size == 0 || firstStart() >= cut) {
                return false;
            }
            openUp();
            int n = 0;
            while (n < size && open[n * WIDE] >> 1 < cut) {
                n++;
            }
            dropFirst(n);
            return true;
        }

        private void dropFirst(int n) {
            stats = null;
            System.arraycopy(open, n * WIDE, open, 0, (size - n) * WIDE);
            size -= n;
        }

        List<Point> points() {
            long[] v = rows();
            List<Point> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int p = i * WIDE;
                out.add(new Point(Instant.ofEpochMilli(v[p] >> 1), v[p + 1], v[p + 2], v[p + 3], (v[p] & 1) == 1, v[p + 4]));
            }
            return out;
        }
    }
}
