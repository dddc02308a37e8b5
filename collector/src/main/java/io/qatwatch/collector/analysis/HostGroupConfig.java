package io.qatwatch.collector.analysis;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Maps hosts and instances to a calendar. A group matches when any of its patterns or tags does; the first
 * matching group wins.
 *
 * @param hosts     host name patterns ({@code *} and {@code ?}, case-insensitive), e.g. {@code sql-fra-*}
 * @param instances {@code host/instance} patterns, e.g. {@code sql-fra-01/PROD}
 * @param tags      agent tags, e.g. {@code emea}
 */
public record HostGroupConfig(String name, String calendar, List<String> hosts, List<String> instances, List<String> tags) {

    public HostGroupConfig {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        instances = instances == null ? List.of() : List.copyOf(instances);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** True when the host, the {@code host/instance} pair (instance may be null) or a tag matches. */
    public boolean matches(String host, String instance, Set<String> hostTags) {
        if (hosts.stream().anyMatch(p -> glob(p, host))) {
            return true;
        }
        if (instance != null && instances.stream().anyMatch(p -> glob(p, host + "/" + instance))) {
            return true;
        }
        return tags.stream().anyMatch(hostTags::contains);
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
