package io.qatwatch.collector.analysis;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Maps hosts and instances to a calendar. A group matches when any of its patterns or tags does; the first
 * matching group wins.
 *
 * @param hosts     host name patterns ({@code *} and {@code ?}, case-insensitive), e.g. {@code sql-fra-*}
 * @param instances {@code host/instance} patterns, e.g. {@code sql-fra-01/PROD}
 * @param tags      agent tags ({@code agent.tags} in agent.yaml): {@code env=prod} (the value may be a pattern),
 *                  or a bare key such as {@code pci} for any value
 * @param rtoMinutes the group's restore-time goal: restore-time-over-goal fires when a database's restore estimate passes
 *                   it (issue 30); null for none
 */
public record HostGroupConfig(String name, String calendar, List<String> hosts, List<String> instances, List<String> tags,
                              Integer rtoMinutes) {

    public HostGroupConfig {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        instances = instances == null ? List.of() : List.copyOf(instances);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** A group without a restore-time goal. */
    public HostGroupConfig(String name, String calendar, List<String> hosts, List<String> instances, List<String> tags) {
        this(name, calendar, hosts, instances, tags, null);
    }

    /** True when the host, the {@code host/instance} pair (instance may be null) or a tag matches. */
    public boolean matches(String host, String instance, Set<String> hostTags) {
        if (hosts.stream().anyMatch(p -> glob(p, host))) {
            return true;
        }
        if (instance != null && instances.stream().anyMatch(p -> glob(p, host + "/" + instance))) {
            return true;
        }
        return tags.stream().anyMatch(t -> tagMatches(t, hostTags));
    }

    /**
     * True when one of {@code hostTags} fits {@code wanted}: {@code key=value} (the value a pattern with {@code *}
     * and {@code ?}, case-insensitive) needs that key with a fitting value; a bare {@code key} needs the key, with any
     * value, or a bare tag of that name.
     */
    public static boolean tagMatches(String wanted, Set<String> hostTags) {
        int eq = wanted.indexOf('=');
        String key = (eq < 0 ? wanted : wanted.substring(0, eq)).trim();
        for (String t : hostTags) {
            int teq = t.indexOf('=');
            String tkey = teq < 0 ? t : t.substring(0, teq);
            if (!tkey.equalsIgnoreCase(key)) {
                continue;
            }
            if (eq < 0 || (teq >= 0 && glob(wanted.substring(eq + 1).trim(), t.substring(teq + 1)))) {
                return true;
            }
        }
        return false;
    }

    /** An agent's tags as the set host groups match: {@code key=value} each; empty for none. */
    public static Set<String> tagSet(Map<String, String> tags) {
        if (tags == null || tags.isEmpty()) {
            return Set.of();
        }
        Set<String> out = new java.util.TreeSet<>();
        tags.forEach((k, v) -> out.add(k + "=" + v));
        return out;
    }

    /** Shell-style match: {@code *} any run, {@code ?} one character, case-insensitive. */
    public static boolean glob(String pattern, String value) {
        if (value == null) {
            return false;
        }
        StringBuilder re = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
                .matcher(value.toLowerCase(Locale.ROOT)).matches();
    }
}
