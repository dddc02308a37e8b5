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
 * @param tag   an agent tag, {@code key=value} (the value may be a pattern) or a bare {@code key}; null for any
 */
public record FleetQuery(String after, int limit, String host, String group, String state, String tag) {

    /** A query without a tag filter. */
    public FleetQuery(String after, int limit, String host, String group, String state) {
        this(after, limit, host, group, state, null);
    }

    /** What a tag filter may hold: a tag key, then optionally '=' (or ':') and a value pattern. */
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}([=:][^,\\p{Cntrl}]{1,128})?");
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
        String tag = blankToNull(params.get("tag"));
        if (tag != null) {
            if (!TAG.matcher(tag).matches()) {
                throw new BadQuery("tag", "tag must be key=value (the value may hold '*' and '?') or a bare key, e.g. "
                        + "env=prod (got '" + tag + "')");
            }
            tag = tag.replaceFirst(":", "=");
        }
        return new FleetQuery(after, limit, host, blankToNull(params.get("group")), state, tag);
    }

    /** True when some filter is set (a pattern, a group, a state or a tag). */
    public boolean filtered() {
        return host != null || group != null || state != null || tag != null;
    }

    /** The same filters and limit, from the first page. */
    public FleetQuery first() {
        return new FleetQuery(null, limit, host, group, state, tag);
    }

    /** The same filters and limit, starting after {@code lastHost}. */
    public FleetQuery next(String lastHost) {
        return new FleetQuery(lastHost, limit, host, group, state, tag);
    }

    /** The same query with another state filter, from the first page. */
    public FleetQuery withState(String newState) {
        return new FleetQuery(null, limit, host, group, newState, tag);
    }

    /** The same query with another tag filter, from the first page. */
    public FleetQuery withTag(String newTag) {
        return new FleetQuery(null, limit, host, group, state, newTag);
    }

    /** The same query with another group filter, from the first page. */
    public FleetQuery withGroup(String newGroup) {
        return new FleetQuery(null, limit, host, newGroup, state, tag);
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
        param(q, "tag", tag);
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
