package io.qatwatch.agent.daemon;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.sqlserver.HighWaterMarks;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.Backoff;
import io.qatwatch.agent.ship.CollectorClient;
import io.qatwatch.agent.ship.DeliveryStatus;
import io.qatwatch.agent.ship.DeliveryVerticle;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.protocol.Version;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: opens the outbox in the data folder, then deploys the delivery loop, the probes
 * (host once plus one verticle per SQL Server instance) and {@code /healthz}. {@link #stop()} stops the
 * probes first (waiting for a report being written), then delivery, then closes the outbox.
 */
public final class AgentDaemon {

    private static final Logger LOG = LoggerFactory.getLogger(AgentDaemon.class);
    /** Under {@code <data>/state/}: the backup high-water mark of each SQL Server instance. */
    public static final String HIGH_WATER_MARKS = "backup-high-water-marks";

    private final Vertx vertx;
    private final Outbox outbox;
    private final AgentHealth health;
    private final List<String> probeDeployments = new ArrayList<>();
    private final List<String> otherDeployments = new ArrayList<>();
    private HealthVerticle healthVerticle;
    private MessageConsumer<Object> heapRelease;

    private AgentDaemon(Vertx vertx, Outbox outbox, AgentHealth health) {
        this.vertx = vertx;
        this.outbox = outbox;
        this.health = health;
    }

    /** What the daemon needs from outside: the probes (live or test ones) and the clock. */
    public record Probes(HostInventoryProbe host, Function<SqlInstanceSettings, SqlInstanceProbe> sqlServer) {
    }

    /**
     * Starts the agent.
     *
     * @param dataDir the agent's own folder: {@code outbox/} and {@code state/} live there
     * @param token   the collector token (read by {@link io.qatwatch.agent.config.Secrets})
     */
    public static Future<AgentDaemon> start(Vertx vertx, AgentConfig config, Path dataDir, String token, Probes probes,
                                            Clock clock) {
        Instant startedAt = clock.instant();
        String version = Version.current();
        DeliveryStatus delivery = new DeliveryStatus();
        AgentHealth health = new AgentHealth(clock, startedAt, version, delivery);
        record Opened(Outbox outbox, String name, HighWaterMarks marks) {
        }
        return vertx.executeBlocking(() -> new Opened(Outbox.open(dataDir.resolve("outbox"), config.outbox()),
                config.name().isEmpty() ? hostName() : config.name(),
                new HighWaterMarks(dataDir.resolve("state").resolve(HIGH_WATER_MARKS)))).compose(opened -> {
            Outbox outbox = opened.outbox();
            String name = opened.name();
            health.watch(outbox);
            AgentDaemon daemon = new AgentDaemon(vertx, outbox, health);
            HeapRelease heapRelease = new HeapRelease(vertx, () -> outbox.stats().depth(), AgentDaemon::releaseHeap);
            daemon.heapRelease = heapRelease.listen();
            ReportPublisher publisher = new ReportPublisher(vertx, outbox, clock, name, version, startedAt, health,
                    config.tags());
            AgentConfig.Collector c = config.collector();
            CollectorClient client = new CollectorClient(vertx, c.url(), token, c.caFile(), c.connectTimeout(), c.requestTimeout());
            SecureRandom random = new SecureRandom();
            Backoff backoff = new Backoff(c.initialBackoff(), c.maxBackoff(), random::nextDouble);
            return daemon.deploy(new DeliveryVerticle(outbox, client, backoff, clock, c.gzip(), delivery), daemon.otherDeployments)
                    .compose(v -> config.healthPort() == 0 ? Future.succeededFuture() : daemon.deployHealth(config.healthPort(), health))
                    .compose(v -> daemon.deploy(new HostProbeVerticle(probes.host(), publisher, config.schedule().host(),
                            !config.sqlInstances().isEmpty(), clock),
                            daemon.probeDeployments))
                    .compose(v -> {
                        Future<Void> all = Future.succeededFuture();
                        for (SqlInstanceSettings instance : config.sqlInstances()) {
                            all = all.compose(x -> daemon.deploy(new SqlInstanceVerticle(instance.name(),
                                    probes.sqlServer().apply(instance), publisher, opened.marks(), config.schedule(), clock,
                                    heapRelease::caughtUp),
                                    daemon.probeDeployments));
                        }
                        return all;
                    })
                    .map(v -> {
                        QuietEventLoops.apply(vertx, daemon.healthVerticle != null);
                        LOG.info("qatwatch agent {} started as '{}': {} SQL Server instance(s), collector {}, outbox {} ({} waiting){}",
                                version, name, config.sqlInstances().size(), client.reportsUri(), outbox.directory(),
                                outbox.stats().depth(), daemon.healthVerticle == null ? ""
                                        : ", health on http://127.0.0.1:" + daemon.healthVerticle.actualPort() + "/healthz");
                        return daemon;
                    })
                    .recover(e -> daemon.stop().transform(x -> Future.failedFuture(e)));
        });
    }

    /** {@code /healthz} is for the service manager; a port in use costs the endpoint, not the reports. */
    private Future<Void> deployHealth(int port, AgentHealth health) {
        HealthVerticle verticle = new HealthVerticle(port, health);
        return deploy(verticle, otherDeployments)
                .onSuccess(v -> healthVerticle = verticle)
                .recover(e -> {
                    LOG.error("cannot serve /healthz on 127.0.0.1:{} ({}); the agent runs without it. "
                            + "Set health.port to a free port, or 0 to disable it", port, e.getMessage());
                    return Future.succeededFuture();
                });
    }

    private Future<Void> deploy(io.vertx.core.Deployable verticle, List<String> into) {
        return vertx.deployVerticle(verticle).map(id -> {
            into.add(id);
            return null;
        });
    }

    /** Stops the probes (a report being written is finished), then delivery and health, then closes the outbox. */
    public Future<Void> stop() {
        if (heapRelease != null) {
            // not waited for: its future belongs to the consumer's event-loop context, which closing Vert.x ends
            heapRelease.unregister();
        }
        return undeployAll(probeDeployments)
                .compose(v -> undeployAll(otherDeployments))
                .compose(v -> vertx.executeBlocking(() -> {
                    outbox.close();
                    return null;
                }))
                .onSuccess(v -> LOG.info("qatwatch agent stopped; {} report(s) wait in the outbox for the next start",
                        outbox.stats().depth()))
                .mapEmpty();
    }

    private Future<Void> undeployAll(List<String> ids) {
        List<Future<Void>> all = new ArrayList<>();
        for (String id : ids) {
            all.add(vertx.undeploy(id));
        }
        ids.clear();
        return Future.join(all).mapEmpty();
    }

    public AgentHealth health() {
        return health;
    }

    public Outbox outbox() {
        return outbox;
    }

    /** The port {@code /healthz} listens on, or 0 when it is disabled. */
    public int healthPort() {
        return healthVerticle == null ? 0 : healthVerticle.actualPort();
    }

    /**
     * Gives back the heap that reading a large backlog grew (pages of 5,000 rows and their ~2 MB reports): a full
     * collection, after which the serial collector returns what is free beyond 10 % (see {@link HeapRelease}).
     */
    static void releaseHeap() {
        System.gc();
    }

    static String hostName() {
        String env = System.getenv("COMPUTERNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }
}
