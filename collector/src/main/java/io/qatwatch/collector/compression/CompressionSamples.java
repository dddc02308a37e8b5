package io.qatwatch.collector.compression;

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

/**
 * One instance's backups as the compression comparison reads them, and no more: per database, kind of backup,
 * target, backup encryption and compression method, the newest {@value #KEPT_PER_SERIES} backups' duration, size
 * and compressed size. What the alert stage keeps between evaluations instead of the backups. Not thread-safe.
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

    /** What backups of one series have in common: compared like with like. */
    public record Key(String database, BackupKind kind, String target, boolean backupEncrypted, Method method) {
    }

    /**
     * One backup, to the millisecond (msdb keeps datetime, 1/300 s): {@code compressedBytes} equals {@code bytes} when
     * uncompressed.
     */
    public record Point(Instant startedAt, long millis, long bytes, long compressedBytes, boolean copyOnly) {

        /** How long it took. */
        public double seconds() {
            return millis / 1000.0;
        }

        public Instant finishedAt() {
            return startedAt.plusMillis(millis);
        }

        /** MB/s of {@code backup_size}, as SQL Server prints it (1 MB = 2^20 bytes). */
        public double mbps() {
            return bytes / 1_048_576.0 / seconds();
        }

        /** {@code backup_size / compressed_backup_size}; 1.0 uncompressed. */
        public double ratio() {
            return compressedBytes <= 0 ? 1.0 : (double) bytes / compressedBytes;
        }
    }

    private final int minDurationSeconds;
    private final Map<Key, Series> series = new HashMap<>();
    private int version;
    private Object memoKey;
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
        boolean added = series.computeIfAbsent(key, k -> new Series())
                .add(b.startedAt().toEpochMilli(), millis, b.backupSizeBytes(), compressed, b.copyOnly());
        if (added) {
            version++;
        }
        return added;
    }

    /**
     * Drops the backups that started before {@code from}: they left the lookback period (which counts a backup by its
     * start, as the store reads it).
     */
    public void dropBefore(Instant from) {
        long cut = from.toEpochMilli();
        boolean dropped = false;
        for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
            Series s = it.next();
            if (s.dropUpTo(cut)) {
                dropped = true;
                if (s.size == 0) {
                    it.remove();
                }
            }
        }
        if (dropped) {
            version++;
        }
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
     * when a backup was added or dropped, or the databases' TDE states or the thresholds changed.
     *
     * @param tde each database's TDE state by lower-case name (true on, false off; absent: unknown)
     */
    public List<Comparison> comparisons(Instant from, Map<String, Boolean> tde, VerdictThresholds thresholds) {
        dropBefore(from);
        List<Object> key = List.of(version, tde, thresholds);
        if (!key.equals(memoKey)) {
            memo = Collections.unmodifiableList(Comparisons.of(series(), tde, thresholds));
            memoKey = key;
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
     * One series' backups in start order, at most {@link #KEPT_PER_SERIES}, four longs each (32 bytes): the start
     * (epoch milliseconds) shifted left once with the copy-only bit, the duration in milliseconds, and the two sizes.
     */
    private static final class Series {
        private static final int STRIDE = 4;

        long[] data = new long[2 * STRIDE];
        int size;

        boolean add(long startMillis, long millis, long bytes, long compressed, boolean copyOnly) {
            long m = startMillis << 1 | (copyOnly ? 1 : 0);
            int at = size;
            while (at > 0 && (data[(at - 1) * STRIDE] > m || data[(at - 1) * STRIDE] == m && data[(at - 1) * STRIDE + 1] >= millis)) {
                int p = (at - 1) * STRIDE;
                if (data[p] == m && data[p + 1] == millis && data[p + 2] == bytes && data[p + 3] == compressed) {
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
            if ((size + 1) * STRIDE > data.length) {
                data = Arrays.copyOf(data, Math.min(KEPT_PER_SERIES, size + Math.max(2, size / 2)) * STRIDE);
            }
            System.arraycopy(data, at * STRIDE, data, (at + 1) * STRIDE, (size - at) * STRIDE);
            data[at * STRIDE] = m;
            data[at * STRIDE + 1] = millis;
            data[at * STRIDE + 2] = bytes;
            data[at * STRIDE + 3] = compressed;
            size++;
            return true;
        }

        /** Drops backups that started before {@code cut} (epoch milliseconds); true when any was. */
        boolean dropUpTo(long cut) {
            int n = 0;
            while (n < size && data[n * STRIDE] >> 1 < cut) {
                n++;
            }
            dropFirst(n);
            return n > 0;
        }

        private void dropFirst(int n) {
            if (n > 0) {
                System.arraycopy(data, n * STRIDE, data, 0, (size - n) * STRIDE);
                size -= n;
            }
        }

        List<Point> points() {
            List<Point> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int p = i * STRIDE;
                out.add(new Point(Instant.ofEpochMilli(data[p] >> 1), data[p + 1], data[p + 2], data[p + 3], (data[p] & 1) == 1));
            }
            return out;
        }
    }
}
