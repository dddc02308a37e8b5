package io.qatwatch.agent.ship;

/**
 * Limits of the outbox on disk.
 *
 * @param maxBytes     reports waiting for delivery may take this much; beyond it the oldest are dropped and counted
 * @param segmentBytes a segment file is closed and a new one begun once it would grow past this
 * @param fsync        force every append and acknowledgement to the device before it counts as done
 * @param parkedKept   how many reports the collector refused are kept in {@code parked/} for a person to read
 */
public record OutboxSettings(long maxBytes, long segmentBytes, boolean fsync, int parkedKept) {

    public OutboxSettings {
        if (maxBytes <= 0 || segmentBytes <= 0 || parkedKept < 0) {
            throw new IllegalArgumentException("outbox limits must be positive");
        }
    }
}
