package io.qatwatch.agent.ship;

import java.time.Instant;

/**
 * How delivery to the collector is going, as {@code /healthz} shows it. Written by the delivery loop,
 * read from anywhere.
 */
public final class DeliveryStatus {

    /** Replaced whole at each change, so a reader never sees a failure's count without its time or retry. */
    private volatile View view = new View(null, null, null, 0, null);

    /** A snapshot for display. */
    public record View(Instant lastDeliveredAt, Instant lastFailureAt, String lastFailure, int consecutiveFailures,
                       Instant nextAttemptAt) {
    }

    synchronized void delivered(Instant at) {
        View v = view;
        view = new View(at, v.lastFailureAt(), v.lastFailure(), 0, null);
    }

    synchronized void failed(Instant at, String reason, Instant retryAt) {
        View v = view;
        view = new View(v.lastDeliveredAt(), at, reason, v.consecutiveFailures() + 1, retryAt);
    }

    public View view() {
        return view;
    }
}
