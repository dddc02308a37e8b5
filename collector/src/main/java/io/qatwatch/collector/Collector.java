package io.qatwatch.collector;

import io.qatwatch.collector.config.CollectorConfig;
import io.qatwatch.collector.ingest.IngestHandler.AcceptedReport;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqliteReportStore;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.CollectorMetrics;
import io.qatwatch.collector.web.CollectorServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running collector: its store under the data directory and its HTTP server. Start, use, stop. */
public final class Collector {

    private static final Logger LOG = LoggerFactory.getLogger(Collector.class);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    private final Vertx vertx;
    private final CollectorConfig config;
    private final Database db;
    private final TokenStore tokens;
    private final ReportStore store;
    private final Clock clock;
    private final CollectorServer server;
    private String deploymentId;
    private long pruneTimer = -1;

    private Collector(Vertx vertx, CollectorConfig config, Database db, Clock clock) throws Exception {
        this.vertx = vertx;
        this.config = config;
        this.db = db;
        this.clock = clock;
        this.tokens = new TokenStore(db);
        this.store = new SqliteReportStore(db);
        Consumer<AcceptedReport> afterStore = accepted -> { };
        this.server = new CollectorServer(config, tokens, store, clock, new CollectorMetrics(), afterStore);
    }

    /** Opens the store under {@code dataDir} (off the event loop) and starts the server. */
    public static Future<Collector> start(Vertx vertx, CollectorConfig config, Path dataDir, Clock clock) {
        return vertx.executeBlocking(() -> new Collector(vertx, config, Database.open(dataDir), clock))
                .compose(c -> vertx.deployVerticle(c.server).map(id -> {
                    c.deploymentId = id;
                    c.pruneTimer = vertx.setPeriodic(PRUNE_EVERY.toMillis(), t -> c.prune());
                    LOG.info("collector listening on {}://{}:{}, data in {}", config.tls().enabled() ? "https" : "http",
                            config.listen().host(), c.port(), dataDir.toAbsolutePath());
                    return c;
                }));
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

    /** Stops the server and closes the store. */
    public Future<Void> stop() {
        if (pruneTimer >= 0) {
            vertx.cancelTimer(pruneTimer);
        }
        Future<Void> undeployed = deploymentId == null ? Future.succeededFuture() : vertx.undeploy(deploymentId);
        return undeployed.eventually(() -> vertx.executeBlocking(() -> {
            db.close();
            return null;
        }));
    }
}
