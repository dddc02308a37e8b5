package io.qatwatch.bench;

import java.util.Arrays;

/**
 * Every latency of a run, kept exactly (8 bytes each: a minute at 10,000 reports/s is 4.8 MB), so
 * percentiles are exact nearest-rank values rather than a histogram's approximation. Not thread-safe:
 * record from one thread (the driver records on its event loop).
 */
public final class LatencyRecorder {

    private long[] values = new long[1024];
    private int count;
    private boolean sorted = true;

    public void record(long latencyNanos) {
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("negative latency " + latencyNanos);
        }
        if (count == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[count++] = latencyNanos;
        sorted = false;
    }

    public int count() {
        return count;
    }

    /**
     * The nearest-rank percentile: the smallest recorded value such that at least {@code percent}% of all
     * values are at or below it. {@code percentile(100)} is the maximum; NaN-free: 0 when nothing was recorded.
     */
    public long percentile(double percent) {
        if (percent <= 0 || percent > 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100], was " + percent);
        }
        if (count == 0) {
            return 0;
        }
        sort();
        // the epsilon keeps 99.9 % of 1000 at rank 999 despite 99.9 having no exact binary form
        int rank = (int) Math.ceil(percent * count / 100.0 - 1e-9);
        return values[Math.max(rank, 1) - 1];
    }

    public long max() {
        return count == 0 ? 0 : percentile(100);
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(values, 0, count);
            sorted = true;
        }
    }
}
