package io.qatwatch.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the agent says about itself: who it is, how long it has run, the state of its outbox, and the tags its
 * configuration gives the host.
 *
 * <p>{@code name} is informational: the collector identifies the agent by its token, never by this field.
 *
 * @param outboxLostTotal reports the agent made but could not write to its outbox (a full disk, an I/O error), so
 *                        never sent; null from agents before issue 17 and from {@code probe}, which has no outbox
 * @param tags            key to value from the agent's {@code agent.tags} (e.g. {@code env: prod, site: fra}), which
 *                        the collector's host groups, channels and filters match; null when it has none (added in
 *                        schema version 1 by issue 23: older agents leave it out)
 */
public record AgentInfo(
        String name,
        String version,
        long uptimeSeconds,
        long outboxDepth,
        long outboxDroppedTotal,
        long outboxCorruptTotal,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long outboxLostTotal,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> tags) {

    /** A tag's key: a letter or digit, then letters, digits, '.', '_' or '-', at most 63 characters. */
    public static final Pattern TAG_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}");
    /** The most tags one host carries, and the longest value. */
    public static final int MAX_TAGS = 32;
    public static final int MAX_TAG_VALUE_CHARS = 128;

    public AgentInfo {
        tags = tags == null ? null : new TreeMap<>(tags);
    }

    /** Without a lost count or tags: {@code probe}, and code written before issue 17. */
    public AgentInfo(String name, String version, long uptimeSeconds, long outboxDepth, long outboxDroppedTotal,
                     long outboxCorruptTotal) {
        this(name, version, uptimeSeconds, outboxDepth, outboxDroppedTotal, outboxCorruptTotal, null, null);
    }

    /** Without tags: code written before issue 23. */
    public AgentInfo(String name, String version, long uptimeSeconds, long outboxDepth, long outboxDroppedTotal,
                     long outboxCorruptTotal, Long outboxLostTotal) {
        this(name, version, uptimeSeconds, outboxDepth, outboxDroppedTotal, outboxCorruptTotal, outboxLostTotal, null);
    }

    /** Reports lost before they reached the outbox, 0 when the agent did not say. */
    @JsonIgnore
    public long lostTotal() {
        return outboxLostTotal == null ? 0 : outboxLostTotal;
    }

    /**
     * Why {@code key: value} cannot be a tag, or null when it can: the rule the agent's configuration and the
     * collector's validation share.
     */
    public static String tagProblem(String key, String value) {
        if (key == null || !TAG_KEY.matcher(key).matches()) {
            return "tag key '" + key + "' must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit";
        }
        if (value == null || value.isBlank()) {
            return "tag " + key + " has no value";
        }
        if (value.length() > MAX_TAG_VALUE_CHARS) {
            return "tag " + key + " is longer than " + MAX_TAG_VALUE_CHARS + " characters";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || c == ',') {
                return "tag " + key + " contains a control character or a comma";
            }
        }
        return null;
    }
}
