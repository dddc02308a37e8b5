package io.qatwatch.collector.dispatch;

import java.time.Duration;

/**
 * How a send went: delivered, or failed and whether trying again could help (429, 5xx, timeouts: yes;
 * other 4xx: no), with the server's Retry-After when it gave one.
 *
 * @param threadId what the channel answered that later messages of the group reply to (Slack {@code ts}, a
 *                 Mattermost post id, ...); null when it threads nothing or the message was a reply
 */
public record Delivery(boolean delivered, boolean retryable, Duration retryAfter, String error, String threadId) {

    /** Delivered. */
    public static Delivery ok() {
        return new Delivery(true, false, null, null, null);
    }

    /** Delivered as the first message of a thread that later messages reply to. */
    public static Delivery ok(String threadId) {
        return new Delivery(true, false, null, null, threadId);
    }

    /** Failed; {@code retryAfter} may be null. */
    public static Delivery failed(boolean retryable, Duration retryAfter, String error) {
        return new Delivery(false, retryable, retryAfter, error, null);
    }
}
