package io.qatwatch.collector.dispatch;

import java.time.Instant;
import java.util.Locale;

/**
 * One line of an alert's history: it fired, resolved, changed severity, was acknowledged, got a note, started or
 * stopped flapping, or was announced on a channel. Kept in the store (table {@code alert_event}) for
 * {@link AlertService#KEEP_HISTORY}, beyond the alert itself.
 *
 * @param by   who did it (a token's name), or null for what the collector did
 * @param text the particulars in words (the severity change, the note, the channel and reason)
 */
public record AlertEvent(String alertId, Instant at, Kind kind, String by, String text) {

    /** What happened. */
    public enum Kind {
        FIRED, RESOLVED, SEVERITY, ACKNOWLEDGED, UNACKNOWLEDGED, ACKNOWLEDGEMENT_LIFTED, ACKNOWLEDGEMENT_EXPIRED, NOTE,
        FLAPPING, STEADY, NOTIFIED;

        /** The API spelling: {@code fired}, {@code acknowledgement-lifted}, ... */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
