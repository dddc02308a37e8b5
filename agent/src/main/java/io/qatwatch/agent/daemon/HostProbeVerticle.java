package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventoryProbe;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the host, QAT and licence probe at start and then on its schedule, off the event loop. */
public final class HostProbeVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(HostProbeVerticle.class);

    private final HostInventoryProbe probe;
    private final ReportPublisher publisher;
    private final Duration every;
    private long timer = -1;
    private boolean running;
    private boolean stopping;
    private Promise<Void> idle;

    public HostProbeVerticle(HostInventoryProbe probe, ReportPublisher publisher, Duration every) {
        this.probe = probe;
        this.publisher = publisher;
        this.every = every;
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
                .compose(publisher::publishHost)
                .onFailure(e -> LOG.error("host probe cycle failed: {}", e.toString()))
                .onComplete(ar -> {
                    running = false;
                    if (idle != null) {
                        idle.tryComplete();
                    }
                });
    }
}
