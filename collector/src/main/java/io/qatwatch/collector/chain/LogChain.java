package io.qatwatch.collector.chain;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One replica's backups of one database as far as its restore plan needs them, taken in store order: its newest full and
 * newest copy-only full, its newest differential, and its log backups as {@link ChainLink}s, consecutive ones merged, so
 * that a healthy database costs a few objects however many log backups it has. Links that end before the full the logs
 * name as theirs ({@code database_backup_lsn}) are dropped. With {@code everyLog}, each log stays a link of its own (the
 * restore plan API lists every file). Not thread-safe.
 */
public final class LogChain {

    private final boolean everyLog;
    /** {@code host/instance} of the replica, from its first backup. */
    private String scope;
    /**
     * The database's own schedule: the gaps in seconds between the starts of its last {@link #GAPS} fulls (copy-only ones
     * too), then of its last differentials, then how many of each were taken; null until the second. Logs need none:
     * their links tell it.
     */
    private int[] gaps;
    private ChainBackup full;
    private ChainBackup copyOnlyFull;
    private ChainBackup differential;
    private final List<ChainLink> links = new ArrayList<>();
    private BigInteger base;
    /** A full or differential came since the last log: the next log starts a link of its own, where plans start. */
    private boolean sealed;
    private long version;
    private Object memoKey;
    private Object memo;
    private long memoVersion = -1;

    public LogChain() {
        this(false);
    }

    public LogChain(boolean everyLog) {
        this.everyLog = everyLog;
    }

    /** Takes {@code b}, the replica's next backup of the database in store order. */
    public void add(ChainBackup b) {
        version++;
        if (scope == null) {
            scope = b.scope();
        }
        switch (b.kind()) {
            case ChainBackup.FULL -> {
                if (b.discarded()) {
                    return;
                }
                gap(0, full == null ? copyOnlyFull : copyOnlyFull == null || full.startedAt().isAfter(copyOnlyFull.startedAt())
                        ? full : copyOnlyFull, b);
                if (b.copyOnly()) {
                    copyOnlyFull = b;
                } else {
                    full = b;
                }
                sealed = true;
            }
            case ChainBackup.DIFFERENTIAL -> {
                if (!b.discarded()) {
                    gap(1, differential, b);
                    differential = b;
                    sealed = true;
                }
            }
            default -> addLog(b);
        }
    }

    private void addLog(ChainBackup log) {
        BigInteger named = log.databaseBackupLsn();
        if (named != null && named.signum() > 0 && (base == null || named.compareTo(base) > 0)) {
            base = named;
            // what ends before the full these logs are based on is not needed to restore from it or from a later one
            links.removeIf(l -> l.lastLsn().compareTo(named) < 0);
        }
        int n = links.size();
        ChainLink tail = n == 0 ? null : links.get(n - 1);
        // a plan starts after a full or differential: where one came (here, or on another replica, which the logs' new
        // database_backup_lsn shows) a link ends, so that a plan counts its logs exactly
        if (!everyLog && !sealed && tail != null && tail.broken() == null && !log.discarded()
                && tail.lastLsn().equals(log.firstLsn()) && tail.last().place().equals(log.place())
                && java.util.Objects.equals(tail.last().databaseBackupLsn(), log.databaseBackupLsn())
                // one algorithm a link, so that a restore estimate takes each log at its own algorithm's speed
                && java.util.Objects.equals(tail.last().algorithm(), log.algorithm())) {
            links.set(n - 1, tail.extend(log));
        } else {
            links.add(ChainLink.of(log));
            n++;
        }
        sealed = false;
        // one log elsewhere between two that went to the same place: another tool took it
        if (n >= 3) {
            ChainLink before = links.get(n - 3);
            ChainLink between = links.get(n - 2);
            ChainLink after = links.get(n - 1);
            if (between.broken() == null && before.broken() == null && after.broken() == null && between.logs() == 1
                    && before.lastLsn().equals(between.firstLsn()) && between.lastLsn().equals(after.firstLsn())
                    && before.last().place().equals(after.first().place())
                    && !between.first().place().equals(before.last().place())) {
                links.set(n - 2, between.brokenBy(ChainLink.OTHER_TOOL));
            }
        }
    }

    /** Writes what it holds for the instance's persisted summary (issue 33); {@link #read} takes it back. */
    public void write(SummaryOutput out) {
        out.writeBoolean(everyLog);
        out.writeString(scope);
        out.writeCount(gaps == null ? 0 : gaps.length + 1L);
        if (gaps != null) {
            for (int g : gaps) {
                out.writeInt(g);
            }
        }
        writeBackup(out, full);
        writeBackup(out, copyOnlyFull);
        writeBackup(out, differential);
        out.writeCount(links.size());
        for (ChainLink l : links) {
            writeBackup(out, l.first());
            // a link of one log is most links between two fulls' worth of healthy logs: its last is its first
            out.writeBoolean(l.last() == l.first());
            if (l.last() != l.first()) {
                writeBackup(out, l.last());
            }
            out.writeInt(l.logs());
            out.writeLong(l.bytes());
            out.writeLong(l.dataBytes());
            out.writeString(l.broken());
        }
        out.writeBigInteger(base);
        out.writeBoolean(sealed);
    }

    /** What {@link #write} wrote: a chain that plans and answers as the one written. */
    public static LogChain read(SummaryInput in) {
        LogChain c = new LogChain(in.readBoolean());
        c.scope = in.readString();
        int gaps = in.readSize();
        if (gaps > 0) {
            if (gaps - 1 != 2 * GAPS + 2) {
                throw new IllegalArgumentException("summary body holds " + (gaps - 1) + " gaps, not " + (2 * GAPS + 2));
            }
            c.gaps = new int[gaps - 1];
            for (int g = 0; g < c.gaps.length; g++) {
                c.gaps[g] = in.readInt();
            }
        }
        c.full = readBackup(in);
        c.copyOnlyFull = readBackup(in);
        c.differential = readBackup(in);
        for (int n = in.readSize(); n > 0; n--) {
            ChainBackup first = readBackup(in);
            ChainBackup last = in.readBoolean() ? first : readBackup(in);
            if (first == null || last == null) {
                throw new IllegalArgumentException("summary body holds a log link without its backups");
            }
            c.links.add(new ChainLink(first, last, in.readInt(), in.readLong(), in.readLong(), in.readString()));
        }
        c.base = in.readBigInteger();
        c.sealed = in.readBoolean();
        return c;
    }

    private static void writeBackup(SummaryOutput out, ChainBackup b) {
        out.writeBoolean(b != null);
        if (b == null) {
            return;
        }
        out.writeString(b.scope());
        out.writeLong(b.backupSetId());
        out.writeCount(b.kind());
        out.writeBoolean(b.copyOnly());
        out.writeInstant(b.startedAt());
        out.writeInstant(b.finishedAt());
        out.writeLong(b.sizeBytes());
        out.writeString(b.target());
        out.writeString(b.deviceType());
        out.writeString(b.file());
        out.writeString(b.recoveryModel());
        out.writeBoolean(b.beginsLogChain());
        out.writeBigInteger(b.firstLsn());
        out.writeBigInteger(b.lastLsn());
        out.writeBigInteger(b.checkpointLsn());
        out.writeBigInteger(b.databaseBackupLsn());
        out.writeBigInteger(b.differentialBaseLsn());
        out.writeString(b.backupSetUuid());
        out.writeString(b.differentialBaseGuid());
        out.writeString(b.algorithm());
        out.writeLong(b.dataBytes());
    }

    private static ChainBackup readBackup(SummaryInput in) {
        if (!in.readBoolean()) {
            return null;
        }
        String scope = in.readString();
        long setId = in.readLong();
        long kind = in.readCount();
        if (kind != ChainBackup.FULL && kind != ChainBackup.DIFFERENTIAL && kind != ChainBackup.LOG) {
            throw new IllegalArgumentException("summary body holds a chain backup of kind " + kind);
        }
        return new ChainBackup(scope, setId, (char) kind, in.readBoolean(), in.readInstant(), in.readInstant(), in.readLong(),
                in.readString(), in.readString(), in.readString(), in.readString(), in.readBoolean(), in.readBigInteger(),
                in.readBigInteger(), in.readBigInteger(), in.readBigInteger(), in.readBigInteger(), in.readString(),
                in.readString(), in.readString(), in.readLong());
    }

    public ChainBackup full() {
        return full;
    }

    /** {@code host/instance} of the replica whose backups these are; null while empty. */
    public String scope() {
        return scope;
    }

    /** Gaps kept per kind: the median of three shrugs off one backup taken by hand between two scheduled ones. */
    static final int GAPS = 3;

    /** Records the gap from {@code previous}'s start (of kind {@code k}: 0 full, 1 differential) to {@code b}'s. */
    private void gap(int k, ChainBackup previous, ChainBackup b) {
        if (previous == null || !b.startedAt().isAfter(previous.startedAt())) {
            return;
        }
        if (gaps == null) {
            gaps = new int[2 * GAPS + 2];
        }
        long seconds = Math.min(Integer.MAX_VALUE, Duration.between(previous.startedAt(), b.startedAt()).toSeconds());
        gaps[k * GAPS + gaps[2 * GAPS + k] % GAPS] = (int) seconds;
        gaps[2 * GAPS + k]++;
    }

    /**
     * How often this replica backs the database up with backups of {@code kind} ({@link ChainBackup#FULL}, copy-only
     * fulls too; {@link ChainBackup#DIFFERENTIAL}; {@link ChainBackup#LOG}): the median gap between their starts, of the
     * last {@link #GAPS} for fulls and differentials, of the logs it holds for logs (a run of {@code n} consecutive logs
     * gives its mean gap {@code n - 1} times, two runs one after the other the gap between them). Null when fewer than two
     * backups of the kind were seen.
     */
    public Duration usualGap(char kind) {
        if (kind != ChainBackup.LOG) {
            int k = kind == ChainBackup.FULL ? 0 : 1;
            int n = gaps == null ? 0 : Math.min(gaps[2 * GAPS + k], GAPS);
            if (n == 0) {
                return null;
            }
            long[] g = new long[n];
            for (int i = 0; i < n; i++) {
                g[i] = gaps[k * GAPS + i];
            }
            return Duration.ofSeconds(median(g, null));
        }
        int n = links.size();
        long[] values = new long[2 * n];
        long[] weights = new long[2 * n];
        int m = 0;
        ChainLink previous = null;
        for (ChainLink l : links) {
            if (l.logs() >= 2) {
                values[m] = Duration.between(l.first().startedAt(), l.last().startedAt()).toSeconds() / (l.logs() - 1);
                weights[m++] = l.logs() - 1;
            }
            if (previous != null && l.first().startedAt().isAfter(previous.last().startedAt())) {
                values[m] = Duration.between(previous.last().startedAt(), l.first().startedAt()).toSeconds();
                weights[m++] = 1;
            }
            previous = l;
        }
        return m == 0 ? null : Duration.ofSeconds(median(java.util.Arrays.copyOf(values, m), java.util.Arrays.copyOf(weights, m)));
    }

    /** The (weighted) median of {@code values}, the lower of the two middle ones on an even count; unweighted when null. */
    private static long median(long[] values, long[] weights) {
        Integer[] order = new Integer[values.length];
        long total = 0;
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            total += weights == null ? 1 : weights[i];
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(values[a], values[b]));
        long seen = 0;
        for (int i : order) {
            seen += weights == null ? 1 : weights[i];
            if (2 * seen >= total) {
                return values[i];
            }
        }
        return values[order[order.length - 1]];
    }

    public ChainBackup copyOnlyFull() {
        return copyOnlyFull;
    }

    public ChainBackup differential() {
        return differential;
    }

    /** The log links, in the order taken. */
    public List<ChainLink> links() {
        return links;
    }

    /** Whether it holds anything a plan can start from or chain with. */
    public boolean isEmpty() {
        return full == null && copyOnlyFull == null && differential == null && links.isEmpty();
    }

    /**
     * What {@code compute} gives for {@code key}, computed again only when a backup was added since or the key changed:
     * a database with one copy keeps its verdict while its backups stay the same.
     */
    @SuppressWarnings("unchecked")
    public <T> T memo(Object key, Supplier<T> compute) {
        if (memoVersion != version || !key.equals(memoKey)) {
            memo = compute.get();
            memoKey = key;
            memoVersion = version;
        }
        return (T) memo;
    }
}
