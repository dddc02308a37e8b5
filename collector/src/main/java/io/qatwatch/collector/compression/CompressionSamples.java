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

    /** Backups kept per series: enough for a median and quartiles, few enough to keep for a whole fleet. */
    public static final int KEPT_PER_SERIES = 32;

    /** What backups of one series have in common: compared like with like. */
    public record Key(String database, BackupKind kind, String target, boolean backupEncrypted, Method method) {
    }

    /** One backup. {@code seconds} is at least 1; {@code compressedBytes} equals {@code bytes} when uncompressed. */
    public record Point(long backupSetId, Instant startedAt, long seconds, long bytes, long compressedBytes, boolean copyOnly) {

        /** The start plus the whole seconds it took. */
        public Instant finishedAt() {
            return startedAt.plusSeconds(seconds);
        }

        /** MB/s of {@code backup_size}, as SQL Server prints it (1 MB = 2^20 bytes). */
        public double mbps() {
            return bytes / 1_048_576.0 / seconds;
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
     * minimum, not already taken). A series keeps its newest backups by start.
     */
    public boolean add(BackupRecord b, QatModes modes) {
        BackupKind kind = BackupKind.of(b.type());
        if (kind == null || b.startedAt() == null || b.finishedAt() == null || snapshot(b) || b.backupSizeBytes() <= 0) {
            return false;
        }
        long seconds = Duration.between(b.startedAt(), b.finishedAt()).getSeconds();
        if (seconds < minDurationSeconds) {
            return false;
        }
        Method method = Method.of(b, modes.at(b.startedAt()));
        String target = b.target() == null || b.target().isBlank() ? "UNKNOWN" : b.target().trim().toUpperCase(Locale.ROOT);
        Key key = new Key(b.databaseName(), kind, target, backupEncrypted(b.keyAlgorithm()), method);
        long compressed = method.algorithm().equals(Method.NONE) ? b.backupSizeBytes() : b.compressedSizeBytes();
        boolean added = series.computeIfAbsent(key, k -> new Series())
                .add(b.backupSetId(), b.startedAt().toEpochMilli(), seconds, b.backupSizeBytes(), compressed, b.copyOnly());
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
     * One series' backups in start order (then backup_set_id), at most {@link #KEPT_PER_SERIES}: per backup its id,
     * one long for start (epoch milliseconds, 42 bits: until 2109), copy-only and duration (21 bits: a backup longer
     * than 24 days counts as 24 days), and the two sizes.
     */
    private static final class Series {
        private static final int SECONDS_BITS = 21;
        private static final long SECONDS_MASK = (1L << SECONDS_BITS) - 1;

        long[] ids = new long[4];
        long[] meta = new long[4];
        long[] bytes = new long[4];
        long[] compressed = new long[4];
        int size;

        boolean add(long id, long startMillis, long seconds, long size, long compressedSize, boolean copyOnly) {
            for (int i = 0; i < this.size; i++) {
                if (ids[i] == id) {
                    return false;
                }
            }
            long m = startMillis << (SECONDS_BITS + 1) | (copyOnly ? 1L << SECONDS_BITS : 0) | Math.min(seconds, SECONDS_MASK);
            int at = this.size;
            while (at > 0 && (startOf(meta[at - 1]) > startMillis || startOf(meta[at - 1]) == startMillis && ids[at - 1] > id)) {
                at--;
            }
            if (this.size == KEPT_PER_SERIES) {
                if (at == 0) {
                    return false;
                }
                shiftLeft();
                at--;
            }
            grow();
            System.arraycopy(ids, at, ids, at + 1, this.size - at);
            System.arraycopy(meta, at, meta, at + 1, this.size - at);
            System.arraycopy(bytes, at, bytes, at + 1, this.size - at);
            System.arraycopy(compressed, at, compressed, at + 1, this.size - at);
            ids[at] = id;
            meta[at] = m;
            bytes[at] = size;
            compressed[at] = compressedSize;
            this.size++;
            return true;
        }

        /** Drops backups that started before {@code cut} (epoch milliseconds); true when any was. */
        boolean dropUpTo(long cut) {
            int n = 0;
            while (n < size && startOf(meta[n]) < cut) {
                n++;
            }
            for (int i = 0; i < n; i++) {
                shiftLeft();
            }
            return n > 0;
        }

        private void shiftLeft() {
            System.arraycopy(ids, 1, ids, 0, size - 1);
            System.arraycopy(meta, 1, meta, 0, size - 1);
            System.arraycopy(bytes, 1, bytes, 0, size - 1);
            System.arraycopy(compressed, 1, compressed, 0, size - 1);
            size--;
        }

        private void grow() {
            if (size == ids.length) {
                int n = Math.min(KEPT_PER_SERIES, ids.length * 2);
                ids = Arrays.copyOf(ids, n);
                meta = Arrays.copyOf(meta, n);
                bytes = Arrays.copyOf(bytes, n);
                compressed = Arrays.copyOf(compressed, n);
            }
        }

        private static long startOf(long m) {
            return m >> (SECONDS_BITS + 1);
        }

        List<Point> points() {
            List<Point> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                out.add(new Point(ids[i], Instant.ofEpochMilli(startOf(meta[i])), meta[i] & SECONDS_MASK, bytes[i],
                        compressed[i], (meta[i] >> SECONDS_BITS & 1) == 1));
            }
            return out;
        }
    }
}
