package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.ship.DeliveryVerticle;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxStats;
import io.qatwatch.agent.ship.WireJson;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportTidy;
import io.qatwatch.protocol.ReportValidator;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what a probe found into a report that says who sent it and how the agent is doing (version,
 * uptime, outbox depth and losses), appends it to the outbox and wakes the delivery loop. The returned
 * future completes once the report is durably in the outbox. A report that could not be written is counted by the
 * outbox as lost, and the next report that is written carries the count to the collector.
 */
public final class ReportPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(ReportPublisher.class);

    private final Vertx vertx;
    private final Outbox outbox;
    private final Clock clock;
    private final String agentName;
    private final String version;
    private final Instant startedAt;
    private final AgentHealth health;
    private final Map<String, String> tags;

    public ReportPublisher(Vertx vertx, Outbox outbox, Clock clock, String agentName, String version, Instant startedAt,
                           AgentHealth health) {
        this(vertx, outbox, clock, agentName, version, startedAt, health, Map.of());
    }

    /** As above, sending the host's {@code tags} (agent.tags) in every report. */
    public ReportPublisher(Vertx vertx, Outbox outbox, Clock clock, String agentName, String version, Instant startedAt,
                           AgentHealth health, Map<String, String> tags) {
        this.tags = Map.copyOf(tags);
        this.vertx = vertx;
        this.outbox = outbox;
        this.clock = clock;
        this.agentName = agentName;
        this.version = version;
        this.startedAt = startedAt;
        this.health = health;
    }

    /** Reports waiting in the outbox for delivery; never blocks. */
    long outboxDepth() {
        return outbox.stats().depth();
    }

    /** A report of the host probes: machine, QAT, licence. */
    public Future<AgentReport> publishHost(HostInventory inventory) {
        return publish(inventory.host(), inventory.qat(), inventory.licence(), List.of(), inventory.probes());
    }

    /** A host probe's run whose findings need no report (see {@link HostReportDue}): only {@code /healthz} shows it. */
    void unchanged(HostInventory inventory) {
        health.probesRan(inventory.probes(), clock.instant());
    }

    /** A report of one SQL Server instance. */
    public Future<AgentReport> publishInstance(SqlInstanceSnapshot snapshot, List<ProbeStatus> probes) {
        return publish(null, null, null, snapshot == null ? List.of() : List.of(snapshot), probes);
    }

    private Future<AgentReport> publish(io.qatwatch.protocol.HostFacts host, io.qatwatch.protocol.QatFacts qat,
                                        io.qatwatch.protocol.LicenceFacts licence, List<SqlInstanceSnapshot> instances,
                                        List<ProbeStatus> probes) {
        health.probesRan(probes, clock.instant());
        return vertx.executeBlocking(() -> {
            AgentReport report = build(host, qat, licence, instances, probes);
            outbox.append(report.reportId(), wire(report));
            return report;
        }).onSuccess(r -> {
            health.appended(null);
            vertx.eventBus().publish(DeliveryVerticle.WAKE_ADDRESS, null);
        }).onFailure(health::appended);
    }

    /**
     * The report as it goes on the wire, checked against the rules the collector holds it to: text the agent read
     * (a control character in a registry value, an over-long server message) is made to fit rather than have the
     * collector refuse the whole report for good.
     */
    byte[] wire(AgentReport report) {
        byte[] json = WireJson.report(report);
        Optional<ReportValidator.Violation> problem = ReportValidator.validate(json, clock.instant());
        if (problem.isEmpty()) {
            return json;
        }
        byte[] tidied = ReportTidy.tidy(json);
        Optional<ReportValidator.Violation> left = ReportValidator.validate(tidied, clock.instant());
        LOG.warn("report {}: {} {}; {}", report.reportId(), problem.get().field(), problem.get().error(), left.isEmpty()
                ? "control characters replaced by spaces and over-long text cut, so that the collector accepts it"
                : "the collector will refuse it (" + left.get().field() + " " + left.get().error() + "): please report this");
        return tidied;
    }

    AgentReport build(io.qatwatch.protocol.HostFacts host, io.qatwatch.protocol.QatFacts qat,
                      io.qatwatch.protocol.LicenceFacts licence, List<SqlInstanceSnapshot> instances, List<ProbeStatus> probes) {
        Instant now = clock.instant();
        OutboxStats stats = outbox.stats();
        AgentInfo agent = new AgentInfo(agentName, version, uptime(now).toSeconds(),
                stats.depth(), stats.droppedTotal(), stats.corruptTotal(), stats.lostTotal(), tags.isEmpty() ? null : tags);
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), now, agent,
                host, qat, licence, instances, probes);
    }

    Duration uptime(Instant now) {
        Duration d = Duration.between(startedAt, now);
        return d.isNegative() ? Duration.ZERO : d;
    }
}
