package io.qatwatch.collector;

import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.influx.InfluxConfig;
import io.qatwatch.collector.influx.InfluxPoints;
import io.qatwatch.collector.influx.InfluxSink;
import io.qatwatch.collector.influx.InfluxV1Writer;
import io.qatwatch.collector.influx.InfluxV2Writer;
import io.qatwatch.collector.influx.RestoredBackupPoints;
import io.qatwatch.collector.influx.InfluxWriter;
import io.qatwatch.collector.ingest.IngestHandler.AcceptedReport;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.AlertActions;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.metrics.MetricsSource;
import io.qatwatch.collector.web.server.CollectorServer;
import io.qatwatch.collector.web.WindowsView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.status.WindowCharts;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running collector: its store (SQLite under the data directory, or the PostgreSQL database {@code store:} names),
 * its InfluxDB sink and its HTTP server. Start, use, stop.
 */
public final class Collector {

    private static final Logger LOG = LoggerFactory.getLogger(Collector.class);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    /**
     * What the analysis and alert stages plug in; each part may be left out.
     *
     * @param groupOf     a host's group (the {@code group} tag), or null when it has none
     * @param alerts      {@code GET /api/v1/alerts}; null answers 503 "not configured"
     * @param windows     {@code GET /api/v1/instances/{host}/{instance}/windows}; null answers 503
     * @param afterStore  called on the event loop for each report stored (not for duplicates); must not block
     * @param charts      the status page's per-instance window charts; null shows none
     * @param silences    {@code /api/v1/silences}; null answers 503
     * @param actions     {@code /api/v1/alerts/{id}} with acknowledgements and notes; null answers 503
     * @param tagsOf      a host's tags ({@code key=value}) for the fleet's tag filter
     * @param compression {@code /api/v1/compression} and the status page's verdicts; null answers 503
     */
    public record Stages(Function<String, String> groupOf, AlertsView alerts, WindowsView windows,
            Consumer<AcceptedReport> afterStore, WindowCharts charts, SilencesApi silences, AlertActions actions,
            Function<String, Set<String>> tagsOf, CompressionView compression) {

        public Stages(Function<String, String> groupOf, AlertsView alerts, WindowsView windows,
                Consumer<AcceptedReport> afterStore) {
            this(groupOf, alerts, windows, afterStore, null, null, null, host -> Set.of(), null);
        }

        public static Stages none() {
            return new Stages(host -> null, null, null, accepted -> { });
        }
    }

    private final Vertx vertx;
    private final CollectorConfig config;
    private final Database db;
    private final TokenStore tokens;
    private final ReportStore store;
    private final Clock clock;
    private final InfluxSink sink;
    private final CollectorMetrics metrics = new CollectorMetrics();
    private final CollectorServer server;
    private String deploymentId;
    private long pruneTimer = -1;
    private final List<Runnable> onStop = new CopyOnWriteArrayList<>();
    private final List<java.util.concurrent.Callable<?>> beforeClose = new CopyOnWriteArrayList<>();
    /** This running collector among others on one store: host, port and a random part, unique per start. */
    private String instanceId;

    private Collector(Vertx vertx, CollectorConfig config, Database db, Path dataDir, Clock clock, Stages stages)
            throws Exception {
        this.vertx = vertx;
        this.config = config;
        this.db = db;
        this.clock = clock;
        this.tokens = new TokenStore(db);
        this.store = new SqlReportStore(db);
        this.sink = config.influx().enabled() ? new InfluxSink(writer(config.influx()), dataDir.resolve("influx-spool"),
                config.influx().queueReports(), config.influx().spoolMaxBytes(), config.influx().batchPoints(),
                Duration.ofSeconds(config.influx().retryMaxSeconds())).start() : null;
        Consumer<AcceptedReport> afterStore = accepted -> {
            // duplicates too: the points of a report whose 202 was lost in a crash may never have been written;
            // rewriting them is harmless (same measurement, tags and time overwrite)
            if (sink != null) {
                Instant receivedAt = clock.instant();
                String group = stages.groupOf().apply(accepted.host());
                sink.submit(() -> InfluxPoints.lines(accepted.host(), group, accepted.report(), receivedAt));
                if (RestoredBackupPoints.mayMatch(accepted.report())) {
                    // the restore or its restorehistory row may complete a match: read it back off the event loop
                    vertx.executeBlocking(() -> RestoredBackupPoints.lines(store, accepted.host(), group, accepted.report()),
                            false).onSuccess(lines -> {
                                if (!lines.isEmpty()) {
                                    sink.submit(lines);
                                }
                            }).onFailure(e -> LOG.warn("influx: could not read the restores of {} matched to their backups: {}",
                                    accepted.host(), e.toString()));
                }
            }
            if (!accepted.stored().duplicate()) {
                metrics.agentOutbox(accepted.host(), accepted.report().agent().outboxDepth());
                stages.afterStore().accept(accepted);
            }
        };
        this.server = new CollectorServer(new CollectorServer.Settings(config.listen(), config.tls(), config.ingest(),
                config.alerts().rules().agentSilent().silentMinutes(), config.statusPage(),
                config.alerts().analysis().windows().lookbackDays()), tokens, store, db.condition(), clock, metrics,
                afterStore, stages.alerts(), stages.windows(), stages.charts(), stages.groupOf(), stages.silences(),
                stages.actions(), stages.tagsOf(), stages.compression(), sink == null ? MetricsSource.NONE : sink::writeMetrics);
    }

    private static InfluxWriter writer(InfluxConfig influx) {
        Duration timeout = Duration.ofSeconds(influx.timeoutSeconds());
        if (influx.v1()) {
            char[] password = influx.user() == null ? null
                    : Secrets.fromEnvironment().read(influx.passwordFile(), "QATWATCH_INFLUX_PASSWORD", "influx.passwordFile");
            return new InfluxV1Writer(influx.url(), influx.database(), influx.retentionPolicy(), influx.user(), password,
                    timeout);
        }
        char[] token = Secrets.fromEnvironment().read(influx.tokenFile(), "QATWATCH_INFLUX_TOKEN", "influx.tokenFile");
        return new InfluxV2Writer(influx.url(), influx.org(), influx.bucket(), token, timeout);
    }

    /** Opens the store under {@code dataDir} (off the event loop) and starts the server, with no analysis stages. */
    public static Future<Collector> start(Vertx vertx, CollectorConfig config, Path dataDir, Clock clock) {
        return start(vertx, config, dataDir, clock, Stages.none());
    }

    /** Opens the store under {@code dataDir} (off the event loop), starts the InfluxDB sink and the server. */
    public static Future<Collector> start(Vertx vertx, CollectorConfig config, Path dataDir, Clock clock, Stages stages) {
        return vertx.executeBlocking(() -> {
                    Database db = Database.open(config.store(), dataDir, Secrets.fromEnvironment());
                    try {
                        return new Collector(vertx, config, db, dataDir, clock, stages);
                    } catch (Exception | Error e) {
                        db.close();
                        throw e;
                    }
                })
                .compose(c -> vertx.deployVerticle(c.server).map(id -> {
                    c.deploymentId = id;
                    c.instanceId = hostName() + ":" + c.port() + "/" + java.util.UUID.randomUUID().toString().substring(0, 8);
                    c.pruneTimer = vertx.setPeriodic(PRUNE_EVERY.toMillis(), t -> c.prune());
                    LOG.info("collector listening on {}://{}:{}, data in {}{}", config.tls().enabled() ? "https" : "http",
                            config.listen().host(), c.port(), c.db.where(),
                            c.sink == null ? "" : ", InfluxDB sink on");
                    return c;
                }).recover(e -> vertx.executeBlocking(() -> {
                    c.closeStoreAndSink();
                    return null;
                }).transform(closed -> Future.<Collector>failedFuture(e))));
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "collector";
        }
    }

    private void closeStoreAndSink() throws Exception {
        if (sink != null) {
            sink.close();
        }
        db.close();
    }

    public int port() {
        return server.port();
    }

    public TokenStore tokens() {
        return tokens;
    }

    public ReportStore store() {
        return store;
    }

    public Database database() {
        return db;
    }

    /** The counters {@code /metrics} serves; the alert stage adds its deliveries per channel. */
    public CollectorMetrics metrics() {
        return metrics;
    }

    /** The InfluxDB sink, when {@code influx.url} is set: the alert stages submit window, trend and alert points to it. */
    public Optional<InfluxSink> influx() {
        return Optional.ofNullable(sink);
    }

    private void prune() {
        var now = clock.instant();
        vertx.executeBlocking(() -> store.prune(now.minus(Duration.ofDays(config.retention().backupDays())),
                        now.minus(Duration.ofDays(config.retention().reportIdDays()))))
                .onSuccess(n -> {
                    if (n > 0) {
                        LOG.info("retention: pruned {} rows", n);
                    }
                })
                .onFailure(e -> LOG.warn("retention pruning failed: {}", e.toString()));
    }

    /** This collector's name among the collectors sharing its store (its leases carry it): host:port/random. */
    public String instanceId() {
        return instanceId;
    }

    /** Runs blocking {@code action} while stopping, after the server stopped and before the store closes. */
    public void beforeClose(java.util.concurrent.Callable<?> action) {
        beforeClose.add(action);
    }

    /** Runs {@code action} first when the collector stops (stages cancel their timers). */
    public void onStop(Runnable action) {
        onStop.add(action);
    }

    /** Stops the server, spools what the sink still holds, and closes the store. */
    public Future<Void> stop() {
        onStop.forEach(Runnable::run);
        if (pruneTimer >= 0) {
            vertx.cancelTimer(pruneTimer);
        }
        Future<Void> undeployed = deploymentId == null ? Future.succeededFuture() : vertx.undeploy(deploymentId);
        return undeployed.eventually(() -> vertx.executeBlocking(() -> {
            for (var action : beforeClose) {
                try {
                    action.call();
                } catch (Exception e) {
                    LOG.warn("stopping: {}", e.toString());
                }
            }
            closeStoreAndSink();
            return null;
        }));
    }
}
