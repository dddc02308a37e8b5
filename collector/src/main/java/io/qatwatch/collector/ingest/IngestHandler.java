package io.qatwatch.collector.ingest;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportSections;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.store.TokenStore.TokenInfo;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportFormatException;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/reports}: authenticates the agent by its token, limits its rate, reads the (optionally
 * gzip) body within the size limit, validates it and stores it once per report id. The host a report is
 * stored under is the token's name, never a field of the body.
 */
public final class IngestHandler implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(IngestHandler.class);

    private final Vertx vertx;
    private final WorkerExecutor storeWorker;
    private final TokenStore tokens;
    private final GroupCommitter committer;
    private final RateLimiter rateLimiter;
    private final long maxBodyBytes;
    private final Clock clock;
    private final CollectorMetrics metrics;
    private final Consumer<AcceptedReport> onAccepted;

    /**
     * A report that was accepted, for the stages after the store (InfluxDB sink, alerts). Duplicates are passed
     * on too ({@code stored().duplicate()}): a redelivery after a lost answer may be the only chance to write
     * its points.
     */
    public record AcceptedReport(String host, AgentReport report, ReportStore.Stored stored) {
    }

    public IngestHandler(Vertx vertx, WorkerExecutor storeWorker, TokenStore tokens, ReportStore store,
            int reportsPerMinute, long maxBodyBytes, Clock clock, CollectorMetrics metrics,
            Consumer<AcceptedReport> onAccepted) {
        this.vertx = vertx;
        this.storeWorker = storeWorker;
        this.tokens = tokens;
        // up to 256 reports a transaction: large enough to amortise the commit, small enough to keep latency low
        this.committer = new GroupCommitter(vertx, storeWorker, store, 256);
        this.rateLimiter = new RateLimiter(reportsPerMinute);
        this.maxBodyBytes = maxBodyBytes;
        this.clock = clock;
        this.metrics = metrics;
        this.onAccepted = onAccepted;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long started = System.nanoTime();
        String bearer = bearer(ctx.request().getHeader("Authorization"));
        if (bearer == null) {
            unauthorized(ctx, "missing bearer token: send 'Authorization: Bearer <agent token>'");
            return;
        }
        String contentType = ctx.request().getHeader("Content-Type");
        if (contentType == null || !contentType.toLowerCase().startsWith("application/json")) {
            reject(ctx, 415, "unsupported_media_type", "$", "send the report as Content-Type: application/json");
            return;
        }
        String encoding = ctx.request().getHeader("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        if (encoding != null && !gzip && !encoding.trim().equalsIgnoreCase("identity")) {
            reject(ctx, 415, "unsupported_media_type", "$", "Content-Encoding must be gzip or identity, was " + encoding);
            return;
        }
        Buffer body = ctx.body().buffer();
        Optional<Optional<TokenInfo>> known = tokens.authenticateCached(bearer, System.nanoTime());
        if (known.isPresent()) {
            afterAuthentication(ctx, known.get(), body, gzip, started);
            return;
        }
        // not on the store worker: its one thread belongs to the writer
        vertx.executeBlocking(() -> tokens.authenticate(bearer), false)
                .onFailure(e -> serverError(ctx, "token lookup failed", e))
                .onSuccess(found -> afterAuthentication(ctx, found, body, gzip, started));
    }

    private void afterAuthentication(RoutingContext ctx, Optional<TokenInfo> token, Buffer body, boolean gzip, long started) {
        if (token.isEmpty()) {
            unauthorized(ctx, "unknown or revoked token: enroll the agent with 'qatwatch collector token add <host>'");
            return;
        }
        if (token.get().kind() != TokenStore.Kind.AGENT) {
            reject(ctx, 403, "forbidden", "$", "this is a read token; reports need an agent token");
            return;
        }
        String host = token.get().name();
        long waitSeconds = rateLimiter.acquire(host, System.nanoTime());
        if (waitSeconds > 0) {
            metrics.rejected("rate_limited");
            ctx.response().setStatusCode(429).putHeader("Retry-After", Long.toString(waitSeconds))
                    .putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("error", "too many reports from " + host + "; retry after "
                            + waitSeconds + " s").put("field", "$").encode());
            return;
        }
        if (body == null || body.length() == 0) {
            reject(ctx, 400, "invalid", "$", "empty body: expected a JSON report");
            return;
        }
        // parsing, validation and serialising the sections for the store run on the worker pool, in parallel;
        // the store's one writer thread then only compares and writes
        Future<Incoming> parsed = vertx.executeBlocking(() -> {
            AgentReport report = parse(body, gzip);
            return new Incoming(host, report, clock.instant(), ReportSections.of(report));
        }, false);
        parsed.compose(incoming -> committer.store(incoming)
                        .map(stored -> new AcceptedReport(host, incoming.report(), stored)))
                .onSuccess(accepted -> {
                    metrics.accepted(accepted.stored().newBackups(), accepted.stored().duplicate());
                    metrics.ingestLatency(System.nanoTime() - started);
                    ctx.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                            .end(new JsonObject().put("reportId", accepted.stored().reportId())
                                    .put("duplicate", accepted.stored().duplicate()).encode());
                    onAccepted.accept(accepted);
                })
                .onFailure(e -> {
                    if (e instanceof ReportFormatException bad) {
                        reject(ctx, 400, "invalid", bad.field(), bad.getMessage());
                    } else if (e instanceof BodyTooLargeException) {
                        reject(ctx, 413, "too_large", "$", e.getMessage());
                    } else {
                        serverError(ctx, "storing a report from " + host + " failed", e);
                    }
                });
    }

    private AgentReport parse(Buffer body, boolean gzip) throws IOException {
        AgentReport report;
        if (gzip) {
            try (InputStream in = new BoundedInputStream(
                    new GZIPInputStream(new ByteArrayInputStream(body.getBytes())), maxBodyBytes)) {
                report = ReportJson.parse(in);
            } catch (ZipException | EOFException e) {
                throw new ReportFormatException("$", "body is not valid gzip (" + e.getMessage()
                        + "); send it whole, or without Content-Encoding: gzip");
            }
        } else {
            report = ReportJson.parse(body.getBytes());
        }
        ReportValidator.check(report, clock.instant());
        return report;
    }

    private static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String value = header.substring(7).trim();
        return value.isEmpty() ? null : value;
    }

    private void unauthorized(RoutingContext ctx, String message) {
        metrics.rejected("unauthorized");
        ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"")
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", "Authorization").encode());
    }

    private void reject(RoutingContext ctx, int status, String reason, String field, String message) {
        metrics.rejected(reason);
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).encode());
    }

    private void serverError(RoutingContext ctx, String what, Throwable e) {
        if (Database.unavailable(e)) {
            // the database is away (PostgreSQL restarting, the network): the agent keeps the report and retries
            metrics.rejected("store_unavailable");
            LOG.warn("{}: the store is unavailable: {}", what, e.toString());
            if (!ctx.response().ended()) {
                ctx.response().setStatusCode(503).putHeader("Retry-After", "5").putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", "the collector's store is unavailable; retry later")
                                .put("field", "$").encode());
            }
            return;
        }
        metrics.rejected("server_error");
        LOG.error("{}: {}", what, e.toString(), e);
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(500).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("error", what + "; see the collector log").put("field", "$").encode());
        }
    }

    /** A decompressed body over the limit: a gzip bomb or a report far too large. */
    static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(long limit) {
            super("decompressed body exceeds " + limit + " bytes");
        }
    }

    /** Stops reading past {@code limit} bytes so a small gzip body cannot inflate without bound. */
    static final class BoundedInputStream extends InputStream {
        private final InputStream in;
        private final long limit;
        private long read;

        BoundedInputStream(InputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && ++read > limit) {
                throw new BodyTooLargeException(limit);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) {
                read += n;
                if (read > limit) {
                    throw new BodyTooLargeException(limit);
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
