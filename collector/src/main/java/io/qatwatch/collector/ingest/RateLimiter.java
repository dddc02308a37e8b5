package io.qatwatch.collector.ingest;

import java.util.HashMap;
import java.util.Map;

/**
 * Per-agent token bucket: {@code perMinute} reports a minute with a burst of the same size. Confined to
 * the verticle's event-loop thread; time is passed in.
 */
public final class RateLimiter {

    private final double perNano;
    private final double capacity;
    private final Map<String, double[]> buckets = new HashMap<>();

    public RateLimiter(int perMinute) {
        this.capacity = perMinute;
        this.perNano = perMinute / 60e9;
    }

    /** Takes one token for {@code agent}; returns 0 when allowed, else the seconds to wait before retrying. */
    public long acquire(String agent, long nowNanos) {
        double[] b = buckets.computeIfAbsent(agent, a -> new double[] {capacity, nowNanos});
        b[0] = Math.min(capacity, b[0] + (nowNanos - b[1]) * perNano);
        b[1] = nowNanos;
        if (b[0] >= 1) {
            b[0] -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - b[0]) / perNano / 1e9));
    }
}
