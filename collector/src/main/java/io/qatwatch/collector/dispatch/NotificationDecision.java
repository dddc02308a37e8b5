package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Severity;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The dedup stage: whether a group is announced on a channel now, and why. One pure function over what
 * fires now and what the notification log says was last sent.
 */
public record NotificationDecision(boolean send, Reason reason) {

    /** Why a group is (or is not) sent. */
    public enum Reason {
        /** Firing, never announced on this channel. */
        FIRST,
        /** An alert joined the group, or one's severity changed. */
        CHANGED,
        /** An alert announced before no longer fires. */
        RESOLVED,
        /** Unchanged, and the repeat interval has elapsed since the last announcement. */
        REPEAT,
        /** Unchanged and announced recently. */
        UNCHANGED,
        /** Nothing fires and nothing was announced. */
        NOTHING
    }

    /**
     * What the notification log holds for one channel and group.
     *
     * @param firing alert id to severity as last announced; empty after a resolved announcement
     */
    public record LogEntry(Map<String, Severity> firing, Instant sentAt) {
    }

    /** Decides for one channel and group. {@code last} is null when the group was never announced there. */
    public static NotificationDecision decide(Map<String, Severity> firing, LogEntry last, Instant now, Duration repeatInterval) {
        if (last == null || last.firing().isEmpty()) {
            return firing.isEmpty() ? new NotificationDecision(false, Reason.NOTHING) : new NotificationDecision(true, Reason.FIRST);
        }
        for (Map.Entry<String, Severity> e : firing.entrySet()) {
            if (last.firing().get(e.getKey()) != e.getValue()) {
                return new NotificationDecision(true, Reason.CHANGED);
            }
        }
        Set<String> gone = new java.util.HashSet<>(last.firing().keySet());
        gone.removeAll(firing.keySet());
        if (!gone.isEmpty()) {
            return new NotificationDecision(true, Reason.RESOLVED);
        }
        if (!now.isBefore(last.sentAt().plus(repeatInterval))) {
            return new NotificationDecision(true, Reason.REPEAT);
        }
        return new NotificationDecision(false, Reason.UNCHANGED);
    }
}
