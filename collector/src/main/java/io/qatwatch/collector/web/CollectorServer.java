package io.qatwatch.collector.web;

import io.qatwatch.collector.config.CollectorConfig;
import io.qatwatch.collector.ingest.IngestHandler;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.status.StatusPage;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;

/** The collector's HTTP(S) server: ingest, the JSON API, metrics, health and the status page. */
public final class CollectorServer extends VerticleBase {

    private final CollectorConfig config;
    private final TokenStore tokens;
    private final ReportStore store;
    private final Clock clock;
    private final CollectorMetrics metrics;
    private final Consumer<IngestHandler.AcceptedReport> onAccepted;
    private WorkerExecutor storeWorker;
    private HttpServer server;

    public CollectorServer(CollectorConfig config, TokenStore tokens, ReportStore store, Clock clock,
            CollectorMetrics metrics, Consumer<IngestHandler.AcceptedReport> onAccepted) {
        this.config = config;
        this.tokens = tokens;
        this.store = store;
        this.clock = clock;
        this.metrics = metrics;
        this.onAccepted = onAccepted;
    }

    @Override
    public Future<?> start() {
        // one thread for the store: SQLite has one writer, and ordered access keeps it simple
        storeWorker = vertx.createSharedWorkerExecutor("qatwatch-store", 1);
        Router router = Router.router(vertx);
        router.get("/healthz").handler(ctx -> ctx.response().putHeader("Content-Type", "application/json")
                .end("{\"status\":\"ok\"}"));
        router.get("/metrics").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(metrics.render(Map.of())));
        router.post("/api/v1/reports")
                .handler(BodyHandler.create(false).setBodyLimit(config.ingest().maxBodyBytes()))
                .handler(new IngestHandler(vertx, storeWorker, tokens, store, config.ingest().reportsPerMinute(),
                        config.ingest().maxBodyBytes(), clock, metrics, onAccepted));
        ReadAccess readAccess = new ReadAccess(storeWorker, tokens);
        router.get("/api/v1/fleet").handler(ctx -> readAccess.require(ctx, false, () -> fleet(ctx)));
        router.get("/").handler(ctx -> readAccess.require(ctx, true, () -> statusPage(ctx)));

        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.listen().host())
                .setPort(config.listen().port())
                .setCompressionSupported(true);
        if (config.tls().enabled()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(config.tls().certFile().toString())
                    .setKeyPath(config.tls().keyFile().toString()));
        }
        return vertx.createHttpServer(options).requestHandler(router).listen().onSuccess(s -> server = s);
    }

    @Override
    public Future<?> stop() {
        Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
        return closed.eventually(() -> storeWorker == null ? Future.succeededFuture() : storeWorker.close());
    }

    /** The port actually bound (useful when the config said 0). */
    public int port() {
        return server.actualPort();
    }

    private void fleet(RoutingContext ctx) {
        storeWorker.executeBlocking(store::fleet, true)
                .onSuccess(rows -> ctx.response().putHeader("Content-Type", "application/json")
                        .end(ReportJson.toPrettyString(FleetView.of(rows, clock.instant()))))
                .onFailure(ctx::fail);
    }

    private void statusPage(RoutingContext ctx) {
        storeWorker.executeBlocking(store::fleet, true)
                .onSuccess(rows -> ctx.response().putHeader("Content-Type", "text/html; charset=utf-8")
                        .end(StatusPage.render(rows, clock.instant())))
                .onFailure(ctx::fail);
    }
}
