package io.qatwatch.agent.ship;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: the n-th consecutive failure waits between half and all of
 * {@code initial * 2^(n-1)}, capped at {@code max}, so that a fleet of agents does not retry in step
 * after a collector outage. The random source is passed in.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier random;
    private int failures;

    public Backoff(Duration initial, Duration max, DoubleSupplier random) {
        if (initial.isZero() || initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= max");
        }
        this.initial = initial;
        this.max = max;
        this.random = random;
    }

    /** Counts a failure and returns how long to wait before the next try. */
    public Duration next() {
        failures++;
        long ceiling = ceilingMillis(failures);
        long half = ceiling / 2;
        return Duration.ofMillis(half + (long) (random.getAsDouble() * (ceiling - half)));
    }

    /** The longest wait: for failures that retrying soon will not fix (a wrong token, a wrong URL). */
    public Duration longest() {
        failures++;
        return max;
    }

    public void reset() {
        failures = 0;
    }

    public int failures() {
        return failures;
    }

    private long ceilingMillis(int n) {
        long ceiling = initial.toMillis();
        for (int i = 1; i < n && ceiling < max.toMillis(); i++) {
            ceiling *= 2;
        }
        return Math.min(ceiling, max.toMillis());
    }
}
