package io.qatwatch.collector.compression;

import io.qatwatch.collector.compression.CompressionSamples.Point;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * How one method's backups of one series did: count, and the median with its spread (the interquartile range,
 * Q1 to Q3) of duration, MB/s of {@code backup_size}, compression ratio and, over the backups whose CPU was observed,
 * CPU seconds per GB of {@code backup_size}.
 *
 * @param copyOnlyBackups how many of them were {@code COPY_ONLY} (a DBA's test)
 * @param latest          the newest one's finish
 * @param cpuBackups      how many had their CPU observed (a poll saw them run)
 * @param cpuSecondsPerGb over those: CPU seconds per GB read; null when none was observed
 */
public record AlgorithmStats(Method method, int backups, int copyOnlyBackups, Quartiles seconds, Quartiles mbps,
                             Quartiles ratio, Instant latest, int cpuBackups, Quartiles cpuSecondsPerGb) {

    /** The lower quartile, median and upper quartile of some values (linear interpolation between ranks). */
    public record Quartiles(double q1, double median, double q3) {

        static Quartiles of(double[] values) {
            double[] v = values.clone();
            Arrays.sort(v);
            return new Quartiles(at(v, 0.25), at(v, 0.5), at(v, 0.75));
        }

        private static double at(double[] sorted, double p) {
            double rank = p * (sorted.length - 1);
            int lo = (int) Math.floor(rank);
            int hi = Math.min(sorted.length - 1, lo + 1);
            return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
        }

        /** True when {@code value} lies within Q1..Q3. */
        public boolean contains(double value) {
            return value >= q1 && value <= q3;
        }
    }

    /** The statistics of {@code points} (at least one). */
    public static AlgorithmStats of(Method method, List<Point> points) {
        int n = points.size();
        double[] seconds = new double[n];
        double[] mbps = new double[n];
        double[] ratio = new double[n];
        int copyOnly = 0;
        Instant latest = Instant.MIN;
        double[] cpu = new double[n];
        int cpuBackups = 0;
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            if (p.cpuObserved()) {
                cpu[cpuBackups++] = p.cpuSecondsPerGb();
            }
            seconds[i] = p.seconds();
            mbps[i] = p.mbps();
            ratio[i] = p.ratio();
            copyOnly += p.copyOnly() ? 1 : 0;
            latest = p.finishedAt().isAfter(latest) ? p.finishedAt() : latest;
        }
        return new AlgorithmStats(method, n, copyOnly, Quartiles.of(seconds), Quartiles.of(mbps), Quartiles.of(ratio), latest,
                cpuBackups, cpuBackups == 0 ? null : Quartiles.of(Arrays.copyOf(cpu, cpuBackups)));
    }

    /** The share of {@code backup_size} compression saved, at the median ratio: {@code 18.8} for a ratio of 1.23. */
    public double savedPercent() {
        return (1 - 1 / ratio.median()) * 100;
    }
}
