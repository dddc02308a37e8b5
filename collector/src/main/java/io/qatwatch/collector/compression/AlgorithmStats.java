package io.qatwatch.collector.compression;

import io.qatwatch.collector.compression.CompressionSamples.Rows;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * How one method's backups of one series did: count, and the median with its spread (the interquartile range,
 * Q1 to Q3) of duration, MB/s of {@code backup_size}, compression ratio and, over the backups whose CPU was observed,
 * CPU seconds per GB of {@code backup_size}. A record's parts, equality and printing, with the four quartiles held as
 * numbers rather than objects (the first three in fields of their own), and the newest finish as numbers too (the alert stage holds a fleet's comparisons between
 * evaluations).
 */
public final class AlgorithmStats {

    private final Method method;
    private final int backups;
    private final int copyOnlyBackups;
    /** The newest finish as epoch seconds and nanoseconds (-1 for none), not an {@code Instant} of its own. */
    private final long latestSecond;
    private final int latestNano;
    private final int cpuBackups;
    /** Which of the four quartiles were given (bit 0 seconds .. bit 3 CPU): a null one stays null. */
    private final int present;
    /**
     * Q1, median and Q3 of seconds, MB/s and ratio (0 when not given), as fields: every row has them, and an array would
     * add its header and a reference to each of a fleet's ~33 rows an instance.
     */
    private final double secondsQ1;
    private final double secondsMedian;
    private final double secondsQ3;
    private final double mbpsQ1;
    private final double mbpsMedian;
    private final double mbpsQ3;
    private final double ratioQ1;
    private final double ratioMedian;
    private final double ratioQ3;
    /** Q1, median and Q3 of CPU seconds per GB; null when not given (most rows: CPU is seldom observed). */
    private final double[] cpu;

    /**
     * @param copyOnlyBackups how many of them were {@code COPY_ONLY} (a DBA's test)
     * @param latest          the newest one's finish
     * @param cpuBackups      how many had their CPU observed (a poll saw them run)
     * @param cpuSecondsPerGb over those: CPU seconds per GB read; null when none was observed
     */
    public AlgorithmStats(Method method, int backups, int copyOnlyBackups, Quartiles seconds, Quartiles mbps,
                          Quartiles ratio, Instant latest, int cpuBackups, Quartiles cpuSecondsPerGb) {
        this.method = method;
        this.backups = backups;
        this.copyOnlyBackups = copyOnlyBackups;
        this.latestSecond = latest == null ? 0 : latest.getEpochSecond();
        this.latestNano = latest == null ? -1 : latest.getNano();
        this.cpuBackups = cpuBackups;
        this.present = (seconds != null ? 1 : 0) | (mbps != null ? 2 : 0) | (ratio != null ? 4 : 0)
                | (cpuSecondsPerGb != null ? 8 : 0);
        this.secondsQ1 = seconds == null ? 0 : seconds.q1();
        this.secondsMedian = seconds == null ? 0 : seconds.median();
        this.secondsQ3 = seconds == null ? 0 : seconds.q3();
        this.mbpsQ1 = mbps == null ? 0 : mbps.q1();
        this.mbpsMedian = mbps == null ? 0 : mbps.median();
        this.mbpsQ3 = mbps == null ? 0 : mbps.q3();
        this.ratioQ1 = ratio == null ? 0 : ratio.q1();
        this.ratioMedian = ratio == null ? 0 : ratio.median();
        this.ratioQ3 = ratio == null ? 0 : ratio.q3();
        this.cpu = cpuSecondsPerGb == null ? null
                : new double[] {cpuSecondsPerGb.q1(), cpuSecondsPerGb.median(), cpuSecondsPerGb.q3()};
    }

    public Method method() {
        return method;
    }

    public int backups() {
        return backups;
    }

    public int copyOnlyBackups() {
        return copyOnlyBackups;
    }

    public Quartiles seconds() {
        return quartiles(0);
    }

    public Quartiles mbps() {
        return quartiles(1);
    }

    public Quartiles ratio() {
        return quartiles(2);
    }

    public Instant latest() {
        return latestNano < 0 ? null : Instant.ofEpochSecond(latestSecond, latestNano);
    }

    public int cpuBackups() {
        return cpuBackups;
    }

    public Quartiles cpuSecondsPerGb() {
        return quartiles(3);
    }

    /** Quartiles {@code n} (0 seconds, 1 MB/s, 2 ratio, 3 CPU), null when not given. */
    private Quartiles quartiles(int n) {
        if ((present & 1 << n) == 0) {
            return null;
        }
        return switch (n) {
            case 0 -> new Quartiles(secondsQ1, secondsMedian, secondsQ3);
            case 1 -> new Quartiles(mbpsQ1, mbpsMedian, mbpsQ3);
            case 2 -> new Quartiles(ratioQ1, ratioMedian, ratioQ3);
            default -> new Quartiles(cpu[0], cpu[1], cpu[2]);
        };
    }

    /** The nine quartiles held as fields, in order, as {@code Arrays.equals} compares them (bit for bit). */
    private boolean sameQuartiles(AlgorithmStats s) {
        return same(secondsQ1, s.secondsQ1) && same(secondsMedian, s.secondsMedian) && same(secondsQ3, s.secondsQ3)
                && same(mbpsQ1, s.mbpsQ1) && same(mbpsMedian, s.mbpsMedian) && same(mbpsQ3, s.mbpsQ3)
                && same(ratioQ1, s.ratioQ1) && same(ratioMedian, s.ratioMedian) && same(ratioQ3, s.ratioQ3)
                && Arrays.equals(cpu, s.cpu);
    }

    private static boolean same(double a, double b) {
        return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
    }

    /** Equal when every part is, as a record's (quartiles compared as {@link Double#compare} does). */
    @Override
    public boolean equals(Object o) {
        return o instanceof AlgorithmStats s && backups == s.backups && copyOnlyBackups == s.copyOnlyBackups
                && cpuBackups == s.cpuBackups && present == s.present && Objects.equals(method, s.method)
                && latestSecond == s.latestSecond && latestNano == s.latestNano && sameQuartiles(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, backups, copyOnlyBackups, seconds(), mbps(), ratio(), latest(), cpuBackups, cpuSecondsPerGb());
    }

    /** As a record prints itself. */
    @Override
    public String toString() {
        return "AlgorithmStats[method=" + method + ", backups=" + backups + ", copyOnlyBackups=" + copyOnlyBackups
                + ", seconds=" + seconds() + ", mbps=" + mbps() + ", ratio=" + ratio() + ", latest=" + latest()
                + ", cpuBackups=" + cpuBackups + ", cpuSecondsPerGb=" + cpuSecondsPerGb() + "]";
    }

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

    /** The statistics of a series' backups {@code rows} (at least one). */
    static AlgorithmStats of(Method method, Rows rows) {
        int n = rows.size();
        double[] seconds = new double[n];
        double[] mbps = new double[n];
        double[] ratio = new double[n];
        int copyOnly = 0;
        long latest = Long.MIN_VALUE;
        double[] cpu = new double[n];
        int cpuBackups = 0;
        for (int i = 0; i < n; i++) {
            long millis = rows.millis(i);
            long bytes = rows.bytes(i);
            if (rows.cpuMillis(i) >= 0) {
                cpu[cpuBackups++] = Rows.cpuSecondsPerGb(rows.cpuMillis(i), bytes);
            }
            seconds[i] = Rows.seconds(millis);
            mbps[i] = Rows.mbps(bytes, millis);
            ratio[i] = Rows.ratio(bytes, rows.compressedBytes(i));
            copyOnly += rows.copyOnly(i) ? 1 : 0;
            latest = Math.max(latest, rows.finishedMillis(i));
        }
        return new AlgorithmStats(method, n, copyOnly, Quartiles.of(seconds), Quartiles.of(mbps), Quartiles.of(ratio),
                Instant.ofEpochMilli(latest), cpuBackups, cpuBackups == 0 ? null : Quartiles.of(Arrays.copyOf(cpu, cpuBackups)));
    }

    /** The share of {@code backup_size} compression saved, at the median ratio: {@code 18.8} for a ratio of 1.23. */
    public double savedPercent() {
        return (1 - 1 / ratio().median()) * 100;
    }
}
