package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.HostGroupConfig;
import java.time.Instant;

/**
 * Mutes matching alerts on every channel until {@code endsAt}; the alerts stay visible in the API. A null
 * matcher matches anything; matchers are patterns with {@code *} and {@code ?}.
 */
public record Silence(String id, String rule, String host, String instance, String database, String comment,
                      String createdBy, Instant startsAt, Instant endsAt) {

    /** True while the silence is in force at {@code now}. */
    public boolean activeAt(Instant now) {
        return !now.isBefore(startsAt) && now.isBefore(endsAt);
    }

    /** True when every given matcher matches the alert. */
    public boolean matches(Alert a) {
        return m(rule, a.rule()) && m(host, a.host()) && m(instance, a.instance()) && m(database, a.database());
    }

    private static boolean m(String pattern, String value) {
        return pattern == null || pattern.isBlank() || HostGroupConfig.glob(pattern, value == null ? "" : value);
    }
}
