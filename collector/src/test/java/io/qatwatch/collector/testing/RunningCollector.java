package io.qatwatch.collector.testing;

import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * A collector started for one test on a free loopback port, with its own Vert.x and an HTTP client: the start-up
 * and shutdown every HTTP-level collector test shares. Closing it stops the collector and fails when the stop
 * did.
 */
public final class RunningCollector implements AutoCloseable {

    private final Vertx vertx;
    private final Collector collector;
    private final WebClient http;
    private final Clock clock;
    private final AlertStage stage;

    private RunningCollector(Vertx vertx, Collector collector, Clock clock, AlertStage stage) {
        this.vertx = vertx;
        this.collector = collector;
        this.clock = clock;
        this.stage = stage;
        this.http = WebClient.create(vertx);
    }

    /** The collector without its alert stage (ingest, store, API, status page), on loopback port 0. */
    public static RunningCollector start(Path data, Clock clock) throws Exception {
        return start(CollectorConfig.defaults(), data, clock);
    }

    /** As {@link #start(Path, Clock)} with {@code config}, listening on loopback port 0 whatever it says. */
    public static RunningCollector start(CollectorConfig config, Path data, Clock clock) throws Exception {
        Vertx vertx = Vertx.vertx();
        return started(vertx, Collector.start(vertx, config.withListen("127.0.0.1", 0), data, clock), clock);
    }

    /** As {@link #start(CollectorConfig, Path, Clock)} with views of its own plugged in. */
    public static RunningCollector start(CollectorConfig config, Path data, Clock clock, Collector.Stages stages)
            throws Exception {
        Vertx vertx = Vertx.vertx();
        return started(vertx, Collector.start(vertx, config.withListen("127.0.0.1", 0), data, clock, stages), clock);
    }

    /** The collector with its alert stage, as {@code qatwatch collector} runs it, on loopback port 0. */
    public static RunningCollector withAlertStage(CollectorConfig config, Path data, Clock clock) throws Exception {
        Vertx vertx = Vertx.vertx();
        CollectorConfig local = config.withListen("127.0.0.1", 0);
        AlertStage stage = new AlertStage(vertx, local, clock);
        return started(vertx, stage.startCollector(local, data), clock, stage);
    }

    private static RunningCollector started(Vertx vertx, Future<Collector> starting, Clock clock) throws Exception {
        return started(vertx, starting, clock, null);
    }

    private static RunningCollector started(Vertx vertx, Future<Collector> starting, Clock clock, AlertStage stage)
            throws Exception {
        try {
            return new RunningCollector(vertx, starting.await(30, TimeUnit.SECONDS), clock, stage);
        } catch (Exception e) {
            vertx.close().await(10, TimeUnit.SECONDS);
            throw e;
        }
    }

    public Collector collector() {
        return collector;
    }

    public Vertx vertx() {
        return vertx;
    }

    public WebClient http() {
        return http;
    }

    public int port() {
        return collector.port();
    }

    /**
     * Runs one evaluation of the alert stage now (instead of waiting for its next minute) and waits for it; the
     * stage skips a call while an evaluation runs, so this repeats until one of its own has run.
     */
    public void evaluate() throws Exception {
        if (stage == null) {
            throw new IllegalStateException("started without the alert stage");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (vertx.executeBlocking(() -> 0).compose(x -> stage.evaluate()).await(60, TimeUnit.SECONDS) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the alert stage did not evaluate within 60 s");
            }
            Thread.sleep(100);
        }
    }

    /** A new token of {@code kind} for {@code name}, as {@code token add} would print it. */
    public String token(String name, TokenStore.Kind kind) throws Exception {
        return collector.tokens().add(name, kind, clock.instant());
    }

    /** A request to {@code path} on this collector, with a bearer token unless it is null. */
    public HttpRequest<Buffer> request(io.vertx.core.http.HttpMethod method, String path, String token) {
        HttpRequest<Buffer> r = http.request(method, port(), "127.0.0.1", path);
        if (token != null) {
            r.putHeader("Authorization", "Bearer " + token);
        }
        return r;
    }

    /** {@code GET path}, with a bearer token unless it is null. */
    public HttpResponse<Buffer> get(String path, String token) throws Exception {
        return request(io.vertx.core.http.HttpMethod.GET, path, token).send().await(10, TimeUnit.SECONDS);
    }

    /** {@code POST /api/v1/reports} of {@code body} as JSON; {@code gzip}: the body is already gzip and says so in Content-Encoding. */
    public HttpResponse<Buffer> postReport(String token, byte[] body, boolean gzip) throws Exception {
        HttpRequest<Buffer> r = request(io.vertx.core.http.HttpMethod.POST, "/api/v1/reports", token)
                .putHeader("Content-Type", "application/json");
        if (gzip) {
            r.putHeader("Content-Encoding", "gzip");
        }
        return r.sendBuffer(Buffer.buffer(body)).await(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        try {
            collector.stop().await(10, TimeUnit.SECONDS);
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }
}
