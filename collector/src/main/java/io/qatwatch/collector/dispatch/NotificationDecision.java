package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Severity;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
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
        /** An alert's forecast date moved earlier than announced by more than the pipeline's shift. */
        EARLIER,
        /** An alert announced before no longer fires. */
        RESOLVED,
        /** Unchanged, and the repeat interval has elapsed since the last announcement. */
        REPEAT,
        /** Unchanged and announced recently, or every alert of the group is acknowledged or flapping. */
        UNCHANGED,
        /** Nothing fires and nothing was announced. */
        NOTHING
    }

    /**
     * What the notification log holds for one channel and group.
     *
     * @param firing    alert id to severity as last announced; empty after a resolved announcement
     * @param forecasts alert id to the forecast date last announced, for alerts that forecast
     * @param threadId  the chat thread the group's messages go to (Slack {@code ts}, Mattermost post id, Google
     *                  Chat thread key, email Message-ID), or null
     */
    public record LogEntry(Map<String, Severity> firing, Map<String, LocalDate> forecasts, Instant sentAt, String threadId) {

        public LogEntry {
            firing = Map.copyOf(firing);
            forecasts = forecasts == null ? Map.of() : Map.copyOf(forecasts);
        }

        /** An entry without forecasts or thread. */
        public LogEntry(Map<String, Severity> firing, Instant sentAt) {
            this(firing, Map.of(), sentAt, null);
        }
    }

    /**
     * A group as it stands now.
     *
     * @param firing    alert id to severity, for the alerts that fire and are not silenced (and flapping ones held)
     * @param forecasts alert id to forecast date, for firing alerts that forecast
     * @param quiet     ids that do not repeat: acknowledged or flapping
     */
    public record Group(Map<String, Severity> firing, Map<String, LocalDate> forecasts, Set<String> quiet) {
    }

    /** Decides for one channel and group without forecasts or quiet alerts. */
    public static NotificationDecision decide(Map<String, Severity> firing, LogEntry last, Instant now, Duration repeatInterval) {
        return decide(new Group(firing, Map.of(), Set.of()), last, now, repeatInterval, Integer.MAX_VALUE);
    }

    /**
     * Decides for one channel and group. {@code last} is null when the group was never announced there. A forecast
     * earlier than the announced one by more than {@code shiftDays} is news; a later one is not.
     */
    public static NotificationDecision decide(Group now, LogEntry last, Instant at, Duration repeatInterval, int shiftDays) {
        Map<String, Severity> firing = now.firing();
        if (last == null || last.firing().isEmpty()) {
            return firing.isEmpty() ? new NotificationDecision(false, Reason.NOTHING) : new NotificationDecision(true, Reason.FIRST);
        }
        for (Map.Entry<String, Severity> e : firing.entrySet()) {
            if (last.firing().get(e.getKey()) != e.getValue()) {
                return new NotificationDecision(true, Reason.CHANGED);
            }
        }
        for (Map.Entry<String, LocalDate> e : now.forecasts().entrySet()) {
            if (firing.containsKey(e.getKey()) && movedEarlier(last.forecasts().get(e.getKey()), e.getValue(), shiftDays)) {
                return new NotificationDecision(true, Reason.EARLIER);
            }
        }
        Set<String> gone = new HashSet<>(last.firing().keySet());
        gone.removeAll(firing.keySet());
        if (!gone.isEmpty()) {
            return new NotificationDecision(true, Reason.RESOLVED);
        }
        boolean anyLoud = firing.keySet().stream().anyMatch(id -> !now.quiet().contains(id));
        if (anyLoud && !at.isBefore(last.sentAt().plus(repeatInterval))) {
            return new NotificationDecision(true, Reason.REPEAT);
        }
        return new NotificationDecision(false, Reason.UNCHANGED);
    }

    /** True when {@code now} is more than {@code shiftDays} days before {@code was} (both known). */
    public static boolean movedEarlier(LocalDate was, LocalDate now, int shiftDays) {
        return was != null && now != null && now.isBefore(was.minusDays(shiftDays));
    }
}
