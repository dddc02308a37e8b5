package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One database's full backups on one instance that backup-throughput-drop's baseline compares, kept as compact points
 * instead of {@link BackupRecord}s (a fleet's weekly fulls were most of what the alert stage held): of each path (the
 * compression algorithm and target, as the rule groups them) the newest {@code kept} fulls by finish, each in four
 * longs (finish in epoch milliseconds, size in bytes, duration in milliseconds with the path's number, backup_set_id),
 * in store order (start, then backup_set_id), as the rule reads the backups. The four are held in five ints (20
 * bytes: the finish from the first one's, the size in units of 1,024, the remainders and path packed into one int)
 * while every number fits, else as four longs (32 bytes); either way exactly the numbers taken. A full counts when it is a database
 * full ({@code D}), not a snapshot, and runs at least {@code minSeconds}. Times are kept to the millisecond (the store
 * keeps no finer). Not thread-safe.
 */
public final class BaselineFulls {

    private static final int STRIDE = 4;
    private static final int NARROW = 5;
    private static final int PATH_BITS = 16;
    private static final int UNIT_BITS = 10;
    private static final long UNIT_MASK = (1L << UNIT_BITS) - 1;
    /** Paths the narrow form holds: 12 bits beside the two remainders. */
    private static final int NARROW_PATHS = 1 << 12;
    private static final String[] NO_PATHS = new String[0];

    private final String scope;
    private String[] paths = NO_PATHS;
    /** Four longs a full, once a number did not fit {@link #narrow}; null before. */
    private long[] data;
    private int[] narrow = new int[0];
    /** The first finish taken: the narrow form holds finishes from it. */
    private long base = Long.MIN_VALUE;
    private int size;
    /** The earliest finish kept: nothing to drop before it. */
    private long minFinish = Long.MAX_VALUE;
    /** A verdict over these fulls alone, and what it was worked out for: forgotten when the fulls change. */
    private Object memoKey;
    private Object memo;

    /** Empty, for the instance {@code scope} ({@code host/instance}). */
    public BaselineFulls(String scope) {
        this.scope = scope;
    }

    /**
     * Each database's fulls among {@code backups} (started by now and inside the lookback period), by the database's
     * identity ({@code ids}).
     */
    static Map<String, BaselineFulls> of(String scope, List<BackupRecord> backups, DatabaseIdentities ids,
                                         AnalysisConfig config) {
        Map<String, BaselineFulls> out = new HashMap<>();
        for (BackupRecord b : backups) {
            if (counts(b, config.baselineMinSeconds())) {
                out.computeIfAbsent(ids.key(b), k -> new BaselineFulls(scope))
                        .add(b, config.baselineFulls(), config.baselineMinSeconds(), UnaryOperator.identity());
            }
        }
        return out;
    }

    /** Whether {@code b} is a full the baseline compares. */
    static boolean counts(BackupRecord b, long minSeconds) {
        return "D".equals(b.type()) && !b.sizeIsEstimate() && b.startedAt() != null && b.finishedAt() != null
                && Math.max(0, Math.floorDiv(b.finishedAt().toEpochMilli() - b.startedAt().toEpochMilli(), 1000)) >= minSeconds;
    }

    /**
     * Takes {@code b} when it {@link #counts}; a backup already kept (the same backup_set_id and start) is not taken
     * twice. Then keeps of its path only the newest {@code kept} by finish (and any that finished with the last of them).
     *
     * @param canon shares the path's string with the rest of the fleet
     */
    void add(BackupRecord b, int kept, long minSeconds, UnaryOperator<String> canon) {
        if (!counts(b, minSeconds)) {
            return;
        }
        long start = b.startedAt().toEpochMilli();
        long finish = b.finishedAt().toEpochMilli();
        int path = pathIndex(canon.apply(path(b.compressionAlgorithm(), b.target())));
        int at = size;
        while (at > 0 && compare(start(at - 1), setId(at - 1), start, b.backupSetId()) > 0) {
            at--;
        }
        if (at > 0 && start(at - 1) == start && setId(at - 1) == b.backupSetId()) {
            return;
        }
        put(at, finish, b.backupSizeBytes(), (finish - start) << PATH_BITS | path, b.backupSetId());
        size++;
        minFinish = Math.min(minFinish, finish);
        memoKey = null;
        memo = null;
        trim(path, kept);
    }

    private static int compare(long startA, long idA, long startB, long idB) {
        int c = Long.compare(startA, startB);
        return c != 0 ? c : Long.compare(idA, idB);
    }

    private int pathIndex(String path) {
        for (int n = 0; n < paths.length; n++) {
            if (paths[n].equals(path)) {
                return n;
            }
        }
        if (paths.length == (1 << PATH_BITS) - 1) {
            throw new IllegalStateException("more than " + paths.length + " algorithm and target paths for one database");
        }
        paths = Arrays.copyOf(paths, paths.length + 1);
        paths[paths.length - 1] = path;
        return paths.length - 1;
    }

    /** Keeps of {@code path} the newest {@code kept} by finish, and those that finished with the last of them. */
    private void trim(int path, int kept) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            n += pathOf(i) == path ? 1 : 0;
        }
        if (n <= kept) {
            return;
        }
        long[] finishes = new long[n];
        n = 0;
        for (int i = 0; i < size; i++) {
            if (pathOf(i) == path) {
                finishes[n++] = finishMillis(i);
            }
        }
        Arrays.sort(finishes);
        long cut = finishes[n - kept];
        removeIf(i -> pathOf(i) == path && finishMillis(i) < cut);
    }

    /**
     * Drops the fulls that finished at or before {@code from}, or started before it: they left the lookback period, and a
     * read of it from the store (which takes the backups started since {@code from}) would not have them either.
     */
    void dropUpTo(Instant from) {
        long cut = from.toEpochMilli();
        if (size == 0 || cut < minFinish && start(0) >= cut) {
            return;
        }
        removeIf(i -> finishMillis(i) <= cut || start(i) < cut);
    }

    private void removeIf(java.util.function.IntPredicate gone) {
        int out = 0;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            if (!gone.test(i)) {
                if (out != i) {
                    int stride = data != null ? STRIDE : NARROW;
                    Object array = data != null ? data : narrow;
                    System.arraycopy(array, i * stride, array, out * stride, stride);
                }
                min = Math.min(min, raw(out, 0));
                out++;
            }
        }
        if (out != size) {
            memoKey = null;
            memo = null;
        }
        size = out;
        minFinish = min;
    }

    /**
     * What {@code compute} gives for these fulls and {@code key}, worked out again only when the fulls changed or the
     * key differs: a rule judging a database with no other replica reads it every minute while nothing changed.
     */
    @SuppressWarnings("unchecked")
    public <T> T memo(Object key, java.util.function.Supplier<T> compute) {
        if (memoKey == null || !memoKey.equals(key)) {
            memo = compute.get();
            memoKey = key;
        }
        return (T) memo;
    }

    /**
     * The key {@link #memo} last worked out its value for; null when none was, or the fulls changed since. A caller whose
     * key compares by identity hands this one back while it still applies, so the check costs no key and no equals.
     */
    public Object memoKey() {
        return memoKey;
    }

    /** Writes its paths and fulls for the instance's persisted summary (issue 33); {@link #read} takes them back. */
    void write(SummaryOutput out) {
        out.writeCount(paths.length);
        for (String p : paths) {
            out.writeString(p);
        }
        out.writeCount(size);
        long finish = 0;
        for (int i = 0; i < size; i++) {
            // each finish from the one before: fulls a week apart cost four bytes, not six
            out.writeLong(raw(i, 0) - finish);
            finish = raw(i, 0);
            for (int f = 1; f < STRIDE; f++) {
                out.writeLong(raw(i, f));
            }
        }
    }

    /** What {@link #write} wrote, for the instance {@code scope}: the same fulls in the same order. */
    static BaselineFulls read(SummaryInput in, String scope) {
        BaselineFulls out = new BaselineFulls(scope);
        out.paths = new String[in.readSize()];
        for (int n = 0; n < out.paths.length; n++) {
            out.paths[n] = in.readString();
        }
        long finish = 0;
        int fulls = in.readSize();
        // sized once: grown a few fulls at a time, the copies were most of reading them back
        out.narrow = new int[fulls * NARROW];
        for (int n = fulls; n > 0; n--) {
            finish += in.readLong();
            long sizeBytes = in.readLong();
            long durationAndPath = in.readLong();
            long setId = in.readLong();
            if ((durationAndPath & ((1 << PATH_BITS) - 1)) >= out.paths.length) {
                throw new IllegalArgumentException("summary body names path " + (durationAndPath & ((1 << PATH_BITS) - 1))
                        + " of " + out.paths.length);
            }
            out.put(out.size, finish, sizeBytes, durationAndPath, setId);
            out.size++;
            out.minFinish = Math.min(out.minFinish, finish);
        }
        return out;
    }

    /** {@code host/instance} of the instance that took them. */
    public String scope() {
        return scope;
    }

    /** How many fulls are kept. */
    public int size() {
        return size;
    }

    public long finishMillis(int i) {
        return raw(i, 0);
    }

    public Instant finishedAt(int i) {
        return Instant.ofEpochMilli(finishMillis(i));
    }

    public long sizeBytes(int i) {
        return raw(i, 1);
    }

    /** Whole seconds it ran, as {@code NightlyWindow.DatabaseBackup#durationSeconds()} counts them. */
    public long durationSeconds(int i) {
        return Math.max(0, Math.floorDiv(raw(i, 2) >> PATH_BITS, 1000));
    }

    /** MB/s (1 MB = 1,048,576 bytes) as {@code NightlyWindow.DatabaseBackup#throughputMbps()}: 0 for an instant one. */
    public double throughputMbps(int i) {
        long s = durationSeconds(i);
        return s == 0 ? 0 : sizeBytes(i) / 1_048_576.0 / s;
    }

    /** The number of its path, the same for the same path within this database. */
    public int pathOf(int i) {
        return (int) (raw(i, 2) & ((1 << PATH_BITS) - 1));
    }

    /** Its path: "algorithm|target" ("uncompressed" and "UNKNOWN" for none). */
    public String path(int i) {
        return paths[pathOf(i)];
    }

    private long start(int i) {
        return raw(i, 0) - (raw(i, 2) >> PATH_BITS);
    }

    private long setId(int i) {
        return raw(i, 3);
    }

    /**
     * Number {@code f} of full {@code i}: 0 its finish in epoch milliseconds, 1 its size in bytes, 2 its duration in
     * milliseconds shifted left by {@link #PATH_BITS} with its path's number, 3 its backup_set_id.
     */
    private long raw(int i, int f) {
        if (data != null) {
            return data[i * STRIDE + f];
        }
        int p = i * NARROW;
        int rest = narrow[p + 4];
        return switch (f) {
            case 0 -> base + ((long) narrow[p] << UNIT_BITS | rest & UNIT_MASK);
            case 1 -> (narrow[p + 1] & 0xFFFF_FFFFL) << UNIT_BITS | rest >>> UNIT_BITS & UNIT_MASK;
            case 2 -> (long) narrow[p + 2] << PATH_BITS | rest >>> 2 * UNIT_BITS;
            default -> narrow[p + 3];
        };
    }

    /** Places a full at {@code at}, the later ones moved up; in longs from now on when one of its numbers does not fit ints. */
    private void put(int at, long finish, long sizeBytes, long durationAndPath, long setId) {
        if (base == Long.MIN_VALUE) {
            base = finish;
        }
        long from = (finish - base) >> UNIT_BITS;
        long millis = durationAndPath >> PATH_BITS;
        long path = durationAndPath & ((1 << PATH_BITS) - 1);
        if (data == null && (from != (int) from || sizeBytes < 0 || sizeBytes >>> UNIT_BITS > 0xFFFF_FFFFL
                || millis != (int) millis || path >= NARROW_PATHS || setId != (int) setId)) {
            long[] wide = new long[Math.max(2, size + 1) * STRIDE];
            for (int i = 0; i < size; i++) {
                for (int f = 0; f < STRIDE; f++) {
                    wide[i * STRIDE + f] = raw(i, f);
                }
            }
            data = wide;
            narrow = null;
        }
        if (data != null) {
            if ((size + 1) * STRIDE > data.length) {
                data = Arrays.copyOf(data, Math.max(2, size + Math.max(2, size / 2)) * STRIDE);
            }
            System.arraycopy(data, at * STRIDE, data, (at + 1) * STRIDE, (size - at) * STRIDE);
            int p = at * STRIDE;
            data[p] = finish;
            data[p + 1] = sizeBytes;
            data[p + 2] = durationAndPath;
            data[p + 3] = setId;
            return;
        }
        if ((size + 1) * NARROW > narrow.length) {
            narrow = Arrays.copyOf(narrow, Math.max(2, size + Math.max(2, size / 2)) * NARROW);
        }
        System.arraycopy(narrow, at * NARROW, narrow, (at + 1) * NARROW, (size - at) * NARROW);
        int p = at * NARROW;
        narrow[p] = (int) from;
        narrow[p + 1] = (int) (sizeBytes >>> UNIT_BITS);
        narrow[p + 2] = (int) millis;
        narrow[p + 3] = (int) setId;
        narrow[p + 4] = (int) ((finish - base) & UNIT_MASK | (sizeBytes & UNIT_MASK) << UNIT_BITS | path << 2 * UNIT_BITS);
    }

    /** The comparison class of a backup: its compression algorithm and its target kind. */
    public static String path(String algorithm, String target) {
        return (algorithm == null ? "uncompressed" : algorithm) + "|" + (target == null ? "UNKNOWN" : target);
    }
}
