package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.HostGroupConfig;
import java.time.Instant;

/**
 * Mutes matching alerts on every channel until {@code endsAt}; the alerts stay visible in the API. A null
 * matcher matches anything; matchers are patterns with {@code *} and {@code ?}.
 *
 * @param group a host group name (case-insensitive): the alert's host must be in it; null for any
 * @param tag   an agent tag, {@code key=value} (the value a pattern) or a bare key; null for any
 */
public record Silence(String id, String rule, String host, String instance, String database, String comment,
                      String createdBy, Instant startsAt, Instant endsAt, String group, String tag) {

    /** A silence that matches by rule and place only. */
    public Silence(String id, String rule, String host, String instance, String database, String comment,
            String createdBy, Instant startsAt, Instant endsAt) {
        this(id, rule, host, instance, database, comment, createdBy, startsAt, endsAt, null, null);
    }

    /** True while the silence is in force at {@code now}. */
    public boolean activeAt(Instant now) {
        return !now.isBefore(startsAt) && now.isBefore(endsAt);
    }

    /** True when every given matcher matches the alert (a group or tag matcher never matches without {@code hosts}). */
    public boolean matches(Alert a) {
        return matches(a, HostDirectory.NONE);
    }

    /** True when every given matcher matches the alert, its host's group and tags looked up in {@code hosts}. */
    public boolean matches(Alert a, HostDirectory hosts) {
        if (!(m(rule, a.rule()) && m(host, a.host()) && m(instance, a.instance()) && m(database, a.database()))) {
            return false;
        }
        if (group != null && !group.isBlank() && (a.host() == null || !group.equalsIgnoreCase(hosts.group(a.host())))) {
            return false;
        }
        return tag == null || tag.isBlank() || (a.host() != null && HostGroupConfig.tagMatches(tag, hosts.tags(a.host())));
    }

    private static boolean m(String pattern, String value) {
        return pattern == null || pattern.isBlank() || HostGroupConfig.glob(pattern, value == null ? "" : value);
    }
}
