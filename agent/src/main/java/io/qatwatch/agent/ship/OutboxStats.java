package io.qatwatch.agent.ship;

/**
 * What the outbox holds and what it lost, for the agent's self-report and {@code /healthz}.
 *
 * @param depth         reports waiting for delivery
 * @param pendingBytes  their size on disk
 * @param droppedTotal  reports dropped because the outbox was full, since the outbox was created
 * @param corruptTotal  torn or corrupt records cut out when the outbox was read, since it was created
 * @param parkedTotal   reports the collector refused (a 4xx that retrying cannot fix), since it was created
 * @param lostTotal     reports that could not be written at all (a full disk, an I/O error), since it was created
 */
public record OutboxStats(long depth, long pendingBytes, long droppedTotal, long corruptTotal, long parkedTotal,
                          long lostTotal) {
}
