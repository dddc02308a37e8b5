package io.qatwatch.agent.probe.sqlserver;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A clock the test sets before each read of a scenario whose answers change from read to read (its {@code polls}): the
 * probe takes the read's time from it. In Europe/Berlin, as {@link SqlScenarios#CLOCK}, so the host-zone fallback shows.
 */
final class ReadClock extends Clock {

    /** The time of the next read; the test sets it. Volatile: a daemon's probe reads it on a worker thread. */
    volatile Instant now;

    ReadClock(Instant start) {
        this.now = start;
    }

    @Override
    public ZoneId getZone() {
        return ZoneId.of("Europe/Berlin");
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
