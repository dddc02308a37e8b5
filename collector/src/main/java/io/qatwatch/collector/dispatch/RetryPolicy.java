package io.qatwatch.collector.dispatch;

import java.time.Duration;

/**
 * The retry stage's backoff: exponential from {@code initial}, capped at {@code max}, with full jitter in
 * the upper half so that channels recovering together are not hit at once; a server's Retry-After wins
 * when it asks for longer.
 */
public record RetryPolicy(Duration initial, Duration max) {

    /** Delay before attempt {@code attempt} (1 = first retry); {@code random} in [0, 1). */
    public Duration delay(int attempt, Duration retryAfter, double random) {
        double base = initial.toMillis() * Math.pow(2, Math.max(0, attempt - 1));
        double capped = Math.min(base, max.toMillis());
        long jittered = (long) (capped / 2 + capped / 2 * random);
        long ms = Math.max(1, jittered);
        if (retryAfter != null && retryAfter.toMillis() > ms) {
            ms = Math.min(retryAfter.toMillis(), Math.max(max.toMillis(), ms));
        }
        return Duration.ofMillis(ms);
    }
}
