package io.qatwatch.bench;

import java.util.Arrays;

/**
 * Each accepted request's due time ({@link System#nanoTime}) and latency, in the order they completed, so a run's
 * percentiles can be taken over the requests due within a stretch of it (e.g. while the alert stage evaluated). Not
 * thread-safe: the load driver records on its event loop; read it after the run.
 */
final class Timeline {

    private long[] due = new long[1024];
    private long[] latency = new long[1024];
    private int count;

    void record(long dueNanos, long latencyNanos) {
        if (count == due.length) {
            due = Arrays.copyOf(due, count * 2);
            latency = Arrays.copyOf(latency, count * 2);
        }
        due[count] = dueNanos;
        latency[count++] = latencyNanos;
    }

    /** The latencies of the requests due in [{@code from}, {@code to}). */
    LatencyRecorder between(long from, long to) {
        return into(from, to, new LatencyRecorder());
    }

    /** Adds the latencies of the requests due in [{@code from}, {@code to}) to {@code out}; returns it. */
    LatencyRecorder into(long from, long to, LatencyRecorder out) {
        for (int i = 0; i < count; i++) {
            if (due[i] >= from && due[i] < to) {
                out.record(latency[i]);
            }
        }
        return out;
    }
}
