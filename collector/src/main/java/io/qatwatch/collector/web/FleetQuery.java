package io.qatwatch.collector.web;

import io.vertx.core.MultiMap;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which part of the fleet a read asks for, from its query string: the hosts after a cursor in host-name
 * order, at most {@code limit} of them, matching a host pattern, a host group and a state (all optional).
 *
 * @param after the last host of the previous page; null for the first page
 * @param host  a shell-style host name pattern ({@code sql-fra-*}), case-insensitive; null for any
 * @param group a host group of the alert configuration, case-insensitive; null for any
 * @param state a {@link HostState} label or {@code problem} (any state but ok); null for any
 */
public record FleetQuery(String after, int limit, String host, String group, String state) {

    /** What a host pattern may hold: host-name characters and the two wildcards. */
    private static final Pattern HOST_PATTERN = Pattern.compile("[A-Za-z0-9._\\-*?]{1,64}");
    /** The {@code state} value that takes every state but ok. */
    public static final String PROBLEM = "problem";

    /** A query parameter that is not valid, with the parameter's name. */
    public static final class BadQuery extends Exception {
        private final String field;

        public BadQuery(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** Reads {@code after}, {@code limit}, {@code host}, {@code group} and {@code state}; a missing limit is {@code defaultLimit}. */
    public static FleetQuery parse(MultiMap params, int defaultLimit, int maxLimit) throws BadQuery {
        int limit = defaultLimit;
        String limitText = blankToNull(params.get("limit"));
        if (limitText != null) {
            try {
                limit = Integer.parseInt(limitText);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > maxLimit) {
                throw new BadQuery("limit", "limit must be a whole number from 1 to " + maxLimit + " (got '" + limitText
                        + "'); page through larger fleets with the next link's 'after'");
            }
        }
        String host = blankToNull(params.get("host"));
        if (host != null && !HOST_PATTERN.matcher(host).matches()) {
            throw new BadQuery("host", "host must be a host name pattern of letters, digits, '.', '_', '-' and the "
                    + "wildcards '*' and '?', e.g. sql-fra-* (got '" + host + "')");
        }
        String state = blankToNull(params.get("state"));
        if (state != null) {
            state = state.toLowerCase(Locale.ROOT);
            if (!state.equals(PROBLEM) && HostState.parse(state) == null) {
                throw new BadQuery("state", "state must be one of " + HostState.labels() + " or " + PROBLEM
                        + " (got '" + params.get("state") + "')");
            }
        }
        String after = blankToNull(params.get("after"));
        if (after != null && after.length() > 200) {
            throw new BadQuery("after", "after must be a host name from the previous page's next link");
        }
        return new FleetQuery(after, limit, host, blankToNull(params.get("group")), state);
    }

    /** True when some filter is set (a pattern, a group or a state). */
    public boolean filtered() {
        return host != null || group != null || state != null;
    }

    /** The same filters and limit, from the first page. */
    public FleetQuery first() {
        return new FleetQuery(null, limit, host, group, state);
    }

    /** The same filters and limit, starting after {@code lastHost}. */
    public FleetQuery next(String lastHost) {
        return new FleetQuery(lastHost, limit, host, group, state);
    }

    /** The same query with another state filter, from the first page. */
    public FleetQuery withState(String newState) {
        return new FleetQuery(null, limit, host, group, newState);
    }

    /** The same query with another group filter, from the first page. */
    public FleetQuery withGroup(String newGroup) {
        return new FleetQuery(null, limit, host, newGroup, state);
    }

    /**
     * This query as a query string ({@code ?after=...&limit=...}), or empty when it holds nothing;
     * {@code defaultLimit} is left out.
     */
    public String queryString(int defaultLimit) {
        StringBuilder q = new StringBuilder();
        param(q, "host", host);
        param(q, "group", group);
        param(q, "state", state);
        param(q, "limit", limit == defaultLimit ? null : Integer.toString(limit));
        param(q, "after", after);
        return q.toString();
    }

    private static void param(StringBuilder q, String name, String value) {
        if (value != null) {
            q.append(q.isEmpty() ? '?' : '&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
