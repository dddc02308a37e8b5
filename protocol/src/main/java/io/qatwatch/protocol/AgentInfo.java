package io.qatwatch.protocol;

/**
 * What the agent says about itself: who it is, how long it has run, and the state of its outbox.
 *
 * <p>{@code name} is informational: the collector identifies the agent by its token, never by this field.
 */
public record AgentInfo(
        String name,
        String version,
        long uptimeSeconds,
        long outboxDepth,
        long outboxDroppedTotal,
        long outboxCorruptTotal) {
}
