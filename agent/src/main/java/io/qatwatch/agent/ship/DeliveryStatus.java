package io.qatwatch.agent.ship;

import java.time.Instant;

/**
 * How delivery to the collector is going, as {@code /healthz} shows it. Written by the delivery loop,
 * read from anywhere.
 */
public final class DeliveryStatus {

    private volatile Instant lastDeliveredAt;
    private volatile Instant lastFailureAt;
    private volatile String lastFailure;
    private volatile int consecutiveFailures;
    private volatile Instant nextAttemptAt;

    /** A snapshot for display. */
    public record View(Instant lastDeliveredAt, Instant lastFailureAt, String lastFailure, int consecutiveFailures,
                       Instant nextAttemptAt) {
    }

    void delivered(Instant at) {
        lastDeliveredAt = at;
        consecutiveFailures = 0;
        nextAttemptAt = null;
    }

    void failed(Instant at, String reason, Instant retryAt) {
        lastFailureAt = at;
        lastFailure = reason;
        consecutiveFailures++;
        nextAttemptAt = retryAt;
    }

    public View view() {
        return new View(lastDeliveredAt, lastFailureAt, lastFailure, consecutiveFailures, nextAttemptAt);
    }
}
