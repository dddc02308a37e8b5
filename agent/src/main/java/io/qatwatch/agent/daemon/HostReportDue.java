package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.protocol.ProbeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Whether a host probe's findings need a report of their own. The host's facts rarely change, yet a host probe on a
 * short cycle made a report of them every cycle: writing it to the outbox with an fsync, delivering it and acknowledging
 * it cost more than the probe (docs/benchmarks.md, "Session 10: the agent's host cycle"). A report is due when the
 * facts, QAT, licence or any step's outcome (ok, error, hint; not its duration) differ from the last host report
 * written, when that report is about an hour old ({@link #REFRESH}: the default host schedule, so the collector's
 * {@code qatwatch_host} points and a collector that lost its store still get the facts at least hourly), and always
 * when no SQL Server instance is watched (then the host report is the only one that says the agent is alive).
 */
final class HostReportDue {

    /** The longest a host report is left out for unchanged facts; the default {@code schedule.host}. */
    static final Duration REFRESH = Duration.ofHours(1);

    private final boolean alwaysReport;
    private final Duration halfCycle;
    private Written last;

    /** What the last host report written said, and when. */
    private record Written(HostInventory facts, List<Outcome> outcomes, Instant at) {
    }

    /** A step's outcome without its duration, which differs every run. */
    private record Outcome(String name, boolean ok, String error, String hint) {
        static List<Outcome> of(List<ProbeStatus> statuses) {
            return statuses.stream().map(s -> new Outcome(s.name(), s.ok(), s.error(), s.hint())).toList();
        }
    }

    /**
     * @param every         the host schedule: at {@link #REFRESH} or longer every run is reported
     * @param sqlInstances  whether SQL Server instances are watched (their reports carry the agent's state)
     */
    HostReportDue(Duration every, boolean sqlInstances) {
        this.alwaysReport = !sqlInstances || every.compareTo(REFRESH) >= 0;
        this.halfCycle = every.dividedBy(2);
    }

    /** Whether {@code found} needs a report now. */
    boolean due(HostInventory found, Instant now) {
        Written w = last;
        if (alwaysReport || w == null) {
            return true;
        }
        // the run nearest to the hour reports, so that a timer a little early does not push the refresh a cycle on
        if (!Duration.between(w.at(), now).plus(halfCycle).minus(REFRESH).isNegative()) {
            return true;
        }
        return !Objects.equals(w.facts().host(), found.host()) || !Objects.equals(w.facts().qat(), found.qat())
                || !Objects.equals(w.facts().licence(), found.licence()) || !w.outcomes().equals(Outcome.of(found.probes()));
    }

    /** {@code found} is in the outbox, in a report made at {@code at}: the next runs compare with it. */
    void written(HostInventory found, Instant at) {
        last = new Written(found, Outcome.of(found.probes()), at);
    }
}
