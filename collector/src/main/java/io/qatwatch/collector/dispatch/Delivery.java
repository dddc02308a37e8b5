package io.qatwatch.collector.dispatch;

import java.time.Duration;

/**
 * How a send went: delivered, or failed and whether trying again could help (429, 5xx, timeouts: yes;
 * other 4xx: no), with the server's Retry-After when it gave one.
 */
public record Delivery(boolean delivered, boolean retryable, Duration retryAfter, String error) {

    /** Delivered. */
    public static Delivery ok() {
        return new Delivery(true, false, null, null);
    }

    /** Failed; {@code retryAfter} may be null. */
    public static Delivery failed(boolean retryable, Duration retryAfter, String error) {
        return new Delivery(false, retryable, retryAfter, error);
    }
}
