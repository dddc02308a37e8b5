package io.qatwatch.bench;

import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;

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

    /**
     * The run as CSV, one line per {@code stepNanos} of due time from {@code originNanos} (whose wall-clock time is
     * {@code originWall}): the step's start in seconds from the origin and as UTC, the requests due in it and the
     * slowest of them, so that a tail can be laid beside what else the machine logged at that moment.
     */
    String csv(long originNanos, Instant originWall, long stepNanos) {
        StringBuilder out = new StringBuilder("seconds,utc,requests_due,max_latency_ms\n");
        if (count == 0) {
            return out.toString();
        }
        long last = originNanos;
        for (int i = 0; i < count; i++) {
            last = Math.max(last, due[i]);
        }
        int steps = (int) ((last - originNanos) / stepNanos) + 1;
        int[] requests = new int[steps];
        long[] slowest = new long[steps];
        for (int i = 0; i < count; i++) {
            if (due[i] >= originNanos) {
                int step = (int) ((due[i] - originNanos) / stepNanos);
                requests[step]++;
                slowest[step] = Math.max(slowest[step], latency[i]);
            }
        }
        for (int step = 0; step < steps; step++) {
            long offset = step * stepNanos;
            out.append(String.format(Locale.ROOT, "%.1f,%s,%d,%.1f%n", offset / 1e9, originWall.plusNanos(offset),
                    requests[step], IngestBenchmark.ms(slowest[step])));
        }
        return out.toString();
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
