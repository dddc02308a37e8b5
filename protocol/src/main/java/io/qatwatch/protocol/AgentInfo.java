package io.qatwatch.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What the agent says about itself: who it is, how long it has run, and the state of its outbox.
 *
 * <p>{@code name} is informational: the collector identifies the agent by its token, never by this field.
 *
 * @param outboxLostTotal reports the agent made but could not write to its outbox (a full disk, an I/O error), so
 *                        never sent; null from agents before issue 17 and from {@code probe}, which has no outbox
 */
public record AgentInfo(
        String name,
        String version,
        long uptimeSeconds,
        long outboxDepth,
        long outboxDroppedTotal,
        long outboxCorruptTotal,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long outboxLostTotal) {

    /** Without a lost count: {@code probe}, and code written before issue 17. */
    public AgentInfo(String name, String version, long uptimeSeconds, long outboxDepth, long outboxDroppedTotal,
                     long outboxCorruptTotal) {
        this(name, version, uptimeSeconds, outboxDepth, outboxDroppedTotal, outboxCorruptTotal, null);
    }

    /** Reports lost before they reached the outbox, 0 when the agent did not say. */
    @JsonIgnore
    public long lostTotal() {
        return outboxLostTotal == null ? 0 : outboxLostTotal;
    }
}
