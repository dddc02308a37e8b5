package io.qatwatch.collector.dispatch;

import java.time.Instant;

/** How one channel's deliveries went since the collector started: counts, the last error and when. Thread-safe. */
public final class ChannelHealth {

    /**
     * A moment's view.
     *
     * @param lastError what the last failed attempt said (the URL redacted), or null
     */
    public record Snapshot(long delivered, long failed, Instant lastDeliveredAt, Instant lastFailedAt, String lastError,
            long dropped) {

        /** True when the latest attempt failed. */
        public boolean failing() {
            return lastFailedAt != null && (lastDeliveredAt == null || lastFailedAt.isAfter(lastDeliveredAt));
        }
    }

    private long delivered;
    private long failed;
    private Instant lastDeliveredAt;
    private Instant lastFailedAt;
    private String lastError;
    private long dropped;
    private String lastDropped;

    synchronized void record(Delivery d, Instant at) {
        if (d.delivered()) {
            delivered++;
            lastDeliveredAt = at;
        } else {
            failed++;
            lastFailedAt = at;
            lastError = d.error();
        }
    }

    /**
     * A notification put off because the channel was retrying its most groups: the count goes with the last error
     * from then on (the status page shows it), since the failures that follow would otherwise hide it.
     */
    synchronized void dropped(Instant at, String why) {
        dropped++;
        lastFailedAt = at;
        lastDropped = why;
    }

    synchronized Snapshot snapshot() {
        String error = dropped == 0 ? lastError : (lastError == null ? "" : lastError + "; ") + lastDropped
                + " (" + dropped + " put off since the start)";
        return new Snapshot(delivered, failed, lastDeliveredAt, lastFailedAt, error, dropped);
    }
}
