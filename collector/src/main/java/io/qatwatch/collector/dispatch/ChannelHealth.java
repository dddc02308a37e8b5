package io.qatwatch.collector.dispatch;

import java.time.Instant;

/** How one channel's deliveries went since the collector started: counts, the last error and when. Thread-safe. */
public final class ChannelHealth {

    /**
     * A moment's view.
     *
     * @param lastError what the last failed attempt said (the URL redacted), or null
     */
    public record Snapshot(long delivered, long failed, Instant lastDeliveredAt, Instant lastFailedAt, String lastError) {

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

    synchronized Snapshot snapshot() {
        return new Snapshot(delivered, failed, lastDeliveredAt, lastFailedAt, lastError);
    }
}
