package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventoryProbe;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the host, QAT and licence probe at start and then on its schedule, off the event loop, and reports what it found
 * when {@link HostReportDue} says a report is due (the findings changed, an hour passed, or no SQL Server report says
 * the agent is alive); a run whose findings are unchanged still shows in {@code /healthz}.
 */
public final class HostProbeVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(HostProbeVerticle.class);

    private final HostInventoryProbe probe;
    private final ReportPublisher publisher;
    private final Duration every;
    private final HostReportDue due;
    private final Clock clock;
    private long timer = -1;
    private boolean running;
    private boolean stopping;
    private Promise<Void> idle;

    /** @param sqlInstances whether SQL Server instances are watched, so that unchanged findings may wait (see {@link HostReportDue}) */
    public HostProbeVerticle(HostInventoryProbe probe, ReportPublisher publisher, Duration every, boolean sqlInstances, Clock clock) {
        this.probe = probe;
        this.publisher = publisher;
        this.every = every;
        this.due = new HostReportDue(every, sqlInstances);
        this.clock = clock;
    }

    @Override
    public Future<?> start() {
        runOnce();
        timer = vertx.setPeriodic(every.toMillis(), id -> runOnce());
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        vertx.cancelTimer(timer);
        if (!running) {
            return Future.succeededFuture();
        }
        idle = Promise.promise();
        return idle.future();
    }

    private void runOnce() {
        if (running || stopping) {
            return;
        }
        running = true;
        vertx.executeBlocking(probe::collect, false)
                .compose(found -> {
                    if (!due.due(found, clock.instant())) {
                        publisher.unchanged(found);
                        return Future.<Void>succeededFuture();
                    }
                    return publisher.publishHost(found).onSuccess(report -> due.written(found, report.createdAt())).<Void>mapEmpty();
                })
                .onFailure(e -> LOG.error("host probe cycle failed: {}", e.toString()))
                .onComplete(ar -> {
                    running = false;
                    if (idle != null) {
                        idle.tryComplete();
                    }
                });
    }
}
