package io.qatwatch.collector.ingest;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportSections;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoreCondition;
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
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/reports}: authenticates the agent by its token from the headers before a byte of the body is
 * read, checks the content type and encoding, limits its rate and the bodies received at once, reads the
 * (optionally gzip) body within the size limit and the body timeouts, validates it and stores it once per report
 * id. The host a report is stored under is the token's name, never a field of the body.
 *
 * <p>A request refused before its body was read is answered at once with {@code Connection: close}; what the client
 * still sends is read and thrown away, not kept, for at most {@link #LINGER} (so that it can read the answer instead
 * of a reset connection), then the connection is closed. A body that stalls is answered 408 and its connection closed.
 */
public final class IngestHandler implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(IngestHandler.class);
    /**
     * How long a refused request's body is read and dropped before its connection is closed: long enough for a
     * client that sent its whole body to read the answer instead of a reset connection, short enough that a stalled
     * client is gone in seconds.
     */
    public static final Duration LINGER = Duration.ofSeconds(2);
    /**
     * How much of an unauthenticated body is dropped at most before the connection is closed: what an agent with a
     * revoked token sends, not what an attacker pushes (reading and dropping costs garbage, and garbage grows the
     * heap). An agent's refusals (403, 413, 429, 503) drop up to twice {@code ingest.maxBodyBytes}.
     */
    static final long UNAUTHENTICATED_LINGER_BYTES = 256 * 1024;
    /** RFC 6750 token68: what a bearer token may be made of. A NUL, a space or any other byte is a malformed token. */
    private static final Pattern TOKEN68 = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    private final Vertx vertx;
    private final TokenStore tokens;
    private final GroupCommitter committer;
    private final RateLimiter rateLimiter;
    private final IngestConfig limits;
    private final Clock clock;
    private final CollectorMetrics metrics;
    private final Consumer<AcceptedReport> onAccepted;
    private final AtomicInteger receiving = new AtomicInteger();
    private final StoreCondition condition;
    /** How long an agent is asked to wait when the store's disk is full, and when the store is damaged. */
    static final int FULL_RETRY_SECONDS = 60;
    static final int DAMAGED_RETRY_SECONDS = 300;

    /**
     * A report that was accepted, for the stages after the store (InfluxDB sink, alerts). Duplicates are passed
     * on too ({@code stored().duplicate()}): a redelivery after a lost answer may be the only chance to write
     * its points.
     */
    public record AcceptedReport(String host, AgentReport report, ReportStore.Stored stored) {
    }

    public IngestHandler(Vertx vertx, WorkerExecutor storeWorker, TokenStore tokens, ReportStore store,
            StoreCondition condition, IngestConfig limits, Clock clock, CollectorMetrics metrics,
            Consumer<AcceptedReport> onAccepted) {
        this.vertx = vertx;
        this.condition = condition;
        this.tokens = tokens;
        // up to 256 reports a transaction: large enough to amortise the commit, small enough to keep latency low
        this.committer = new GroupCommitter(vertx, storeWorker, store, 256);
        this.rateLimiter = new RateLimiter(limits.reportsPerMinute());
        this.limits = limits;
        this.clock = clock;
        this.metrics = metrics;
        this.onAccepted = onAccepted;
    }

    /** Bodies being received now, over every connection. */
    public int receiving() {
        return receiving.get();
    }

    @Override
    public void handle(RoutingContext ctx) {
        // nothing of the body is read (or held) before the token has been checked
        ctx.request().pause();
        long started = System.nanoTime();
        String header = ctx.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.substring(7).isBlank()) {
            unauthorized(ctx, "missing bearer token: send 'Authorization: Bearer <agent token>'");
            return;
        }
        String bearer = header.substring(7).trim();
        if (!TOKEN68.matcher(bearer).matches()) {
            unauthorized(ctx, "malformed bearer token: a token is letters, digits and - . _ ~ + / = only "
                    + "(as 'qatwatch collector token add' printed it)");
            return;
        }
        String contentType = ctx.request().getHeader("Content-Type");
        if (!MediaType.isJson(contentType)) {
            refuse(ctx, 415, "unsupported_media_type", "$", "send the report as Content-Type: application/json "
                    + "(a charset parameter, if any, must be utf-8); was " + MediaType.shown(contentType));
            return;
        }
        String encoding = ctx.request().getHeader("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        if (encoding != null && !gzip && !encoding.trim().equalsIgnoreCase("identity")) {
            refuse(ctx, 415, "unsupported_media_type", "$", "Content-Encoding must be gzip or identity, was "
                    + MediaType.shown(encoding));
            return;
        }
        if (declaredLength(ctx) > limits.maxBodyBytes()) {
            refuse(ctx, 413, "too_large", "$", "body larger than ingest.maxBodyBytes (" + limits.maxBodyBytes()
                    + " bytes); send fewer backups per report");
            return;
        }
        Optional<Optional<TokenInfo>> known = tokens.authenticateCached(bearer, System.nanoTime());
        if (known.isPresent()) {
            afterAuthentication(ctx, known.get(), gzip, started);
            return;
        }
        // not on the store worker: its one thread belongs to the writer
        vertx.executeBlocking(() -> tokens.authenticate(bearer), false)
                .onFailure(e -> serverError(ctx, "token lookup failed", e))
                .onSuccess(found -> afterAuthentication(ctx, found, gzip, started));
    }

    private void afterAuthentication(RoutingContext ctx, Optional<TokenInfo> token, boolean gzip, long started) {
        if (token.isEmpty()) {
            unauthorized(ctx, "unknown or revoked token: enroll the agent with 'qatwatch collector token add <host>'");
            return;
        }
        if (token.get().kind() != TokenStore.Kind.AGENT) {
            refuse(ctx, 403, "forbidden", "$", "this is " + (token.get().kind() == TokenStore.Kind.ADMIN ? "an " : "a ")
                    + token.get().kind().label() + " token; reports need an agent token");
            return;
        }
        String host = token.get().name();
        long waitSeconds = rateLimiter.acquire(host, System.nanoTime());
        if (waitSeconds > 0) {
            ctx.response().putHeader("Retry-After", Long.toString(waitSeconds));
            refuse(ctx, 429, "rate_limited", "$", "too many reports from " + host + "; retry after " + waitSeconds + " s");
            return;
        }
        if (condition.damaged()) {
            // nothing more is written to a damaged store; the agent keeps the report until it is restored
            storeProblem(ctx, StoreCondition.Problem.CORRUPT);
            return;
        }
        if (receiving.incrementAndGet() > limits.maxConcurrentBodies()) {
            receiving.decrementAndGet();
            ctx.response().putHeader("Retry-After", "5");
            refuse(ctx, 503, "busy", "$", "the collector is receiving ingest.maxConcurrentBodies ("
                    + limits.maxConcurrentBodies() + ") reports already; retry after 5 s");
            return;
        }
        if ("100-continue".equalsIgnoreCase(ctx.request().getHeader("Expect"))) {
            ctx.response().writeContinue();
        }
        BodyReader.read(vertx, ctx.request(), limits.maxBodyBytes(), limits.bodyIdleTimeout(), limits.bodyTimeout())
                .onComplete(read -> {
                    receiving.decrementAndGet();
                    if (read.succeeded()) {
                        received(ctx, host, read.result(), gzip, started);
                    } else if (read.cause() instanceof BodyReader.Refused refused) {
                        if (refused.status() == 408) {
                            LOG.info("report from {} ({}) stalled: {}; connection closed", host,
                                    ctx.request().remoteAddress(), refused.getMessage());
                        }
                        refuse(ctx, refused.status(), refused.reason(), "$", refused.getMessage());
                    } else {
                        metrics.rejected("client_gone");
                    }
                });
    }

    private void received(RoutingContext ctx, String host, Buffer body, boolean gzip, long started) {
        if (body.length() == 0) {
            refuse(ctx, 400, "invalid", "$", "empty body: expected a JSON report");
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
                    condition.stored();
                    metrics.accepted(accepted.stored().newBackups(), accepted.stored().duplicate());
                    metrics.ingestLatency(System.nanoTime() - started);
                    ctx.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                            .end(new JsonObject().put("reportId", accepted.stored().reportId())
                                    .put("duplicate", accepted.stored().duplicate()).encode());
                    onAccepted.accept(accepted);
                })
                .onFailure(e -> {
                    if (e instanceof ReportFormatException bad) {
                        refuse(ctx, 400, "invalid", bad.field(), bad.getMessage());
                    } else if (e instanceof BodyTooLargeException) {
                        refuse(ctx, 413, "too_large", "$", e.getMessage());
                    } else {
                        serverError(ctx, "storing a report from " + host + " failed", e);
                    }
                });
    }

    private AgentReport parse(Buffer body, boolean gzip) throws IOException {
        byte[] json;
        if (gzip) {
            try (InputStream in = new BoundedInputStream(
                    new GZIPInputStream(new ByteArrayInputStream(body.getBytes())), limits.maxBodyBytes())) {
                json = in.readAllBytes();
            } catch (ZipException | EOFException e) {
                throw new ReportFormatException("$", "body is not valid gzip (" + e.getMessage()
                        + "); send it whole, or without Content-Encoding: gzip");
            }
        } else {
            json = body.getBytes();
        }
        // the schema's rules on the bytes as they came (UTF-8, types, every string), then the records
        ReportValidator.check(json, clock.instant());
        return ReportJson.parse(json);
    }

    private static long declaredLength(RoutingContext ctx) {
        String length = ctx.request().getHeader("Content-Length");
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void unauthorized(RoutingContext ctx, String message) {
        ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"");
        refuse(ctx, 401, "unauthorized", "Authorization", message);
    }

    /**
     * Answers a refusal. When the body has not been read, the answer says {@code Connection: close} and the connection
     * is closed after what the client still sends has been dropped (at most {@link #LINGER}); a stalled body's
     * connection is closed at once.
     */
    private void refuse(RoutingContext ctx, int status, String reason, String field, String message) {
        metrics.rejected(reason);
        HttpServerRequest request = ctx.request();
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        boolean unread = !request.isEnded();
        if (unread) {
            ctx.response().putHeader("Connection", "close");
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).encode());
        if (unread) {
            if (status == 408) {
                request.connection().close();
            } else {
                dropRestThenClose(request, status == 401 ? UNAUTHENTICATED_LINGER_BYTES : 2 * limits.maxBodyBytes());
            }
        }
    }

    private void dropRestThenClose(HttpServerRequest request, long maxBytes) {
        HttpConnection connection = request.connection();
        long[] left = {maxBytes};
        long timer = vertx.setTimer(LINGER.toMillis(), id -> connection.close());
        request.handler(chunk -> {
            left[0] -= chunk.length();
            if (left[0] < 0) {
                vertx.cancelTimer(timer);
                connection.close();
            }
        });
        request.endHandler(v -> {
            vertx.cancelTimer(timer);
            connection.close();
        });
        request.exceptionHandler(e -> vertx.cancelTimer(timer));
        request.resume();
    }

    private void serverError(RoutingContext ctx, String what, Throwable e) {
        Optional<StoreCondition.Problem> problem = condition.failed(e);
        if (problem.isPresent()) {
            LOG.warn("{}: {}", what, e.toString());
            storeProblem(ctx, problem.get());
            return;
        }
        if (Database.unavailable(e)) {
            // the database is away (PostgreSQL restarting, the network): the agent keeps the report and retries
            LOG.warn("{}: the store is unavailable: {}", what, e.toString());
            if (!ctx.response().ended()) {
                ctx.response().putHeader("Retry-After", "5");
            }
            refuse(ctx, 503, "store_unavailable", "$", "the collector's store is unavailable; retry later");
            return;
        }
        LOG.error("{}: {}", what, e.toString(), e);
        refuse(ctx, 500, "server_error", "$", what + "; see the collector log");
    }

    /** 503 for a store whose disk is full or that is damaged: the agent keeps the report and sends it again. */
    private void storeProblem(RoutingContext ctx, StoreCondition.Problem problem) {
        boolean full = problem == StoreCondition.Problem.FULL;
        if (!ctx.response().ended()) {
            ctx.response().putHeader("Retry-After", Integer.toString(full ? FULL_RETRY_SECONDS : DAMAGED_RETRY_SECONDS));
        }
        refuse(ctx, 503, problem.label(), "$", full
                ? "the collector's disk is full; it keeps nothing now; retry later (the agent keeps the report)"
                : "the collector's store is damaged and takes no more writes; retry later (the agent keeps the report)");
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
