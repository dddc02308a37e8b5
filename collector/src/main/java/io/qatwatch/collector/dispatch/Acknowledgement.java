package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Severity;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Someone on call took an alert: it stays visible and firing but stops repeating in chat until it resolves,
 * expires, or gets worse (severity above {@code severity}, or a forecast earlier than {@code forecast}).
 *
 * @param expiresAt when the acknowledgement ends by itself; null: when the alert resolves or gets worse
 * @param severity  the alert's severity when it was acknowledged
 * @param forecast  the alert's forecast date when it was acknowledged, or null
 */
public record Acknowledgement(String alertId, String by, Instant at, String note, Instant expiresAt, Severity severity,
                              LocalDate forecast) {

    /** True while it holds at {@code now} (not expired). */
    public boolean activeAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }
}
