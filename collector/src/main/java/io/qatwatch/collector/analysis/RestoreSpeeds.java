package io.qatwatch.collector.analysis;

import io.qatwatch.collector.compression.Method;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How fast each host restores (issue 30): the median MB/s of its observed restores per algorithm and target of the
 * backup restored, with how many restores it rests on. MB/s of the backup's {@code backup_size}, as backup speeds are
 * measured, so the two compare. Only restores whose backup set is known and whose run the polls mostly saw count
 * ({@link RestoreObservation#mbps()}). Pure and immutable.
 */
public final class RestoreSpeeds {

    /** No restore observed. */
    public static final RestoreSpeeds NONE = new RestoreSpeeds(List.of());

    /** A median and the restores behind it. */
    public record Speed(double medianMbps, int restores) {
    }

    private final Map<String, Speed> speeds = new HashMap<>();

    private RestoreSpeeds(List<RestoreObservation> restores) {
        Map<String, List<Double>> samples = new HashMap<>();
        for (RestoreObservation r : restores) {
            Double mbps = r.mbps();
            if (mbps == null) {
                continue;
            }
            String algorithm = algorithm(r.restoredBackup().backup());
            String target = target(r.restoredBackup().backup().target());
            samples.computeIfAbsent(key(r.host(), algorithm, target), k -> new ArrayList<>()).add(mbps);
            samples.computeIfAbsent(key(r.host(), algorithm, null), k -> new ArrayList<>()).add(mbps);
        }
        samples.forEach((k, v) -> speeds.put(k, new Speed(median(v), v.size())));
    }

    /** The speeds of {@code restores}. */
    public static RestoreSpeeds of(List<RestoreObservation> restores) {
        return restores.isEmpty() ? NONE : new RestoreSpeeds(restores);
    }

    /**
     * How fast {@code host} restored backups of {@code algorithm} (as {@link #algorithm} names it) from {@code target};
     * a null target pools every target. Empty when no such restore was observed.
     */
    public Optional<Speed> of(String host, String algorithm, String target) {
        return Optional.ofNullable(speeds.get(key(host, algorithm, target)));
    }

    /** {@code NONE}, {@code MS_XPRESS}, {@code QAT_DEFLATE}, {@code ZSTD}: the backup's method without level or mode. */
    public static String algorithm(BackupRecord b) {
        return Method.of(b, null).algorithm();
    }

    /** A backup's target kind, upper-cased as the compression comparison has it; {@code UNKNOWN} when not given. */
    public static String target(String target) {
        return target == null || target.isBlank() ? "UNKNOWN" : target.trim().toUpperCase(Locale.ROOT);
    }

    private static String key(String host, String algorithm, String target) {
        return host.toLowerCase(Locale.ROOT) + '\n' + algorithm + '\n' + (target == null ? "*" : target);
    }

    /** The median of {@code values} (not empty). */
    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
