package io.qatwatch.demo;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The clock of the simulated SQL Servers and of the agents' SQL Server probes: the demo's own clock, except while the
 * demo replays the polls the agents would have made before it started (see {@link Demo#start}); then the instant of the
 * poll being replayed.
 */
final class ReplayClock extends Clock {

    private final Clock clock;
    private volatile Instant replaying;

    ReplayClock(Clock clock) {
        this.clock = clock;
    }

    /** Reads {@code at} until {@link #live()}. */
    void replay(Instant at) {
        replaying = at;
    }

    /** Back to the demo's clock. */
    void live() {
        replaying = null;
    }

    @Override
    public Instant instant() {
        Instant at = replaying;
        return at != null ? at : clock.instant();
    }

    @Override
    public ZoneId getZone() {
        return clock.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
