package io.qatwatch.collector.web.server;

import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.ingest.IngestHandler;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.metrics.JvmMetrics;
import io.qatwatch.collector.metrics.MetricsSource;
import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoreCondition;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.RestoreEstimates;
import io.qatwatch.collector.analysis.RestorePlans;
import io.qatwatch.collector.analysis.RestoreSpeeds;
import io.qatwatch.collector.web.AcceleratorTimeline;
import io.qatwatch.collector.web.AlertActions;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionQuery;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.web.FleetRoster;
import io.qatwatch.collector.web.FleetPage;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.collector.web.FleetView;
import io.qatwatch.collector.web.HostState;
import io.qatwatch.collector.web.ListenConfig;
import io.qatwatch.collector.web.RestorePlanJson;
import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.StatusPageConfig;
import io.qatwatch.collector.web.TlsConfig;
import io.qatwatch.collector.web.WindowsView;
import io.qatwatch.collector.web.status.DatabasePage;
import io.qatwatch.collector.web.status.DrillDownViews;
import io.qatwatch.collector.web.status.FormAnswerPage;
import io.qatwatch.collector.web.status.HostPage;
import io.qatwatch.collector.web.status.HostView;
import io.qatwatch.collector.web.status.StatusPage;
import io.qatwatch.collector.web.status.StatusViews;
import io.qatwatch.collector.web.status.WindowCharts;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.vertx.core.json.JsonObject;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The collector's HTTP(S) server: ingest, the JSON API, metrics, health and the status page. */
public final class CollectorServer extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(CollectorServer.class);

    private final Settings settings;
    private final TokenStore tokens;
    private final ReportStore store;
    /** Every host's last report for the fleet's counts, kept between pages (the status page, the metrics). */
    private final FleetRoster roster;
    private final StoreCondition condition;
    private final Clock clock;
    private final CollectorMetrics metrics;
    private final Consumer<IngestHandler.AcceptedReport> onAccepted;
    private final AlertsView alerts;
    private final WindowsView windows;
    private final MetricsSource influxMetrics;
    private final WindowCharts charts;
    private final SilencesApi silences;
    private final AlertActions actions;
    private final Function<String, Set<String>> tagsOf;
    private final CompressionView compression;
    private final Function<String, String> groupOf;
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    /** Hosts per {@code /api/v1/fleet} page when the request names no limit, and the most it may name. */
    static final int FLEET_LIMIT = 1000;
    static final int FLEET_MAX_LIMIT = 5000;
    /** Hosts per status page when the request names no limit, and the most it may name. */
    static final int STATUS_LIMIT = 50;
    static final int STATUS_MAX_LIMIT = 500;
    private WorkerExecutor storeWorker;
    private WorkerExecutor readWorker;
    private HttpServer server;
    private ConnectionLimits connections;

    /**
     * What the server takes from the configuration: where it listens, TLS, ingest limits, and the minutes after
     * which an agent counts as silent (the fleet's state column).
     */
    /** @param lookbackDays days of backup history the analysis reads: what a restore plan is read from */
    public record Settings(ListenConfig listen, TlsConfig tls, IngestConfig ingest, int agentSilentMinutes,
            StatusPageConfig statusPage, int lookbackDays) {
    }

    /**
     * @param alerts      the alert pipeline's view, or null until it is wired ({@code /api/v1/alerts} answers 503)
     * @param windows     the window analysis's view, or null until it is wired (503)
     * @param actions     one alert with its history, acknowledgements and notes, or null until it is wired (503)
     * @param tagsOf      a host's tags ({@code key=value}) for the {@code tag} filter
     * @param compression the compression comparison's view, or null until it is wired (503)
     * @param influxMetrics the InfluxDB sink's families for {@code /metrics}, read per scrape ({@link MetricsSource#NONE} without one)
     */
    public CollectorServer(Settings settings, TokenStore tokens, ReportStore store, StoreCondition condition, Clock clock,
            CollectorMetrics metrics, Consumer<IngestHandler.AcceptedReport> onAccepted, AlertsView alerts,
            WindowsView windows, WindowCharts charts, Function<String, String> groupOf, SilencesApi silences,
            AlertActions actions, Function<String, Set<String>> tagsOf, CompressionView compression,
            MetricsSource influxMetrics) {
        this.tagsOf = tagsOf;
        this.silences = silences;
        this.actions = actions;
        this.compression = compression;
        this.charts = charts;
        this.groupOf = groupOf;
        this.settings = settings;
        this.tokens = tokens;
        this.store = store;
        this.roster = new FleetRoster(store);
        this.condition = condition;
        this.clock = clock;
        this.metrics = metrics;
        this.onAccepted = onAccepted;
        this.alerts = alerts;
        this.windows = windows;
        this.influxMetrics = influxMetrics;
    }

    @Override
    public Future<?> start() {
        // one thread for the store: SQLite has one writer, and ordered access keeps it simple
        // named per server: a shared executor of the same name would be closed by another collector's stop
        int instance = INSTANCES.incrementAndGet();
        storeWorker = vertx.createSharedWorkerExecutor("qatwatch-store-" + instance, 1);
        // reads (API, status page, read tokens) on threads of their own: the store's reads use a read connection,
        // so a long one (the whole fleet) does not hold up the writer's thread and with it every report
        readWorker = vertx.createSharedWorkerExecutor("qatwatch-read-" + instance, 2);
        Router router = Router.router(vertx);
        HeaderDeadline deadline = new HeaderDeadline(vertx, settings.ingest().headerTimeoutSeconds() * 1000L);
        AmbiguousLength ambiguous = new AmbiguousLength();
        router.route().handler(ctx -> {
            // no answer is sniffed into something else: a 400 that repeats a filter stays text
            ctx.response().putHeader("X-Content-Type-Options", "nosniff");
            if (ambiguous.refused(ctx.request())) {
                metrics.rejected("invalid");
                return;
            }
            deadline.requestStarted(ctx);
            ctx.next();
        });
        router.get("/healthz").handler(ctx -> StoreHealth.answer(ctx, condition));
        router.get("/metrics").handler(this::metrics);
        // no BodyHandler: the ingest handler checks the token before it reads a byte of the body, then reads it
        // within the size limit and the body timeouts
        router.post("/api/v1/reports")
                .handler(new IngestHandler(vertx, storeWorker, tokens, store, condition, settings.ingest(), clock, metrics, onAccepted));
        Sessions sessions = new Sessions(Duration.ofMinutes(settings.statusPage().sessionMinutes()));
        ReadAccess readAccess = new ReadAccess(readWorker, tokens, sessions, clock, settings.statusPage().openOnLoopback());
        SignIn signIn = new SignIn(readWorker, tokens, sessions, clock, settings.tls().enabled(), settings.statusPage().notice());
        router.get("/login").handler(signIn::page);
        BodyLimit.SIGN_IN.answerOversized(router.post("/login").handler(BodyLimit.SIGN_IN.reader()).handler(signIn::signIn), metrics);
        BodyLimit.SIGN_OUT.answerOversized(router.post("/logout").handler(BodyLimit.SIGN_OUT.reader()).handler(signIn::signOut), metrics);
        router.get("/api/v1/fleet").handler(ctx -> readAccess.require(ctx, false, () -> fleet(ctx)));
        router.get("/api/v1/alerts").handler(ctx -> readAccess.require(ctx, false, () -> alerts(ctx)));
        AlertRequests alertRequests = new AlertRequests(() -> actions, clock);
        router.get("/api/v1/alerts/:id").handler(ctx -> readAccess.require(ctx, false, () -> alertRequests.show(ctx)));
        changeWithBody(router, readAccess, "/api/v1/alerts/:id/acknowledge", Kind.OPERATOR, BodyLimit.ACKNOWLEDGE, alertRequests::acknowledge);
        router.delete("/api/v1/alerts/:id/acknowledge")
                .handler(ctx -> readAccess.requireToChange(ctx, Kind.OPERATOR, () -> alertRequests.unacknowledge(ctx)));
        changeWithBody(router, readAccess, "/api/v1/alerts/:id/notes", Kind.OPERATOR, BodyLimit.NOTES, alertRequests::note);
        router.get("/api/v1/instances/:host/:instance/windows")
                .handler(ctx -> readAccess.require(ctx, false, () -> windows(ctx)));
        router.get("/api/v1/databases/:host/:instance/:database/restore-plan")
                .handler(ctx -> readAccess.require(ctx, false, () -> restorePlan(ctx)));
        router.get("/api/v1/instances/:host/:instance/database-events")
                .handler(ctx -> readAccess.require(ctx, false, () -> databaseEvents(ctx, null)));
        router.get("/api/v1/databases/:host/:instance/:database/events")
                .handler(ctx -> readAccess.require(ctx, false, () -> databaseEvents(ctx, ctx.pathParam("database"))));
        router.get("/api/v1/instances/:host/:instance/accelerator")
                .handler(ctx -> readAccess.require(ctx, false, () -> accelerator(ctx)));
        router.get("/api/v1/compression").handler(ctx -> readAccess.require(ctx, false, () -> compression(ctx)));
        router.get("/api/v1/silences").handler(ctx -> readAccess.require(ctx, false, () -> silences(ctx)));
        changeWithBody(router, readAccess, "/api/v1/silences", Kind.OPERATOR, BodyLimit.SILENCES, this::createSilence);
        router.delete("/api/v1/silences/:id")
                .handler(ctx -> readAccess.requireToChange(ctx, Kind.OPERATOR, () -> expireSilence(ctx)));
        TokenApi tokenApi = new TokenApi(storeWorker, tokens, clock);
        router.get("/api/v1/tokens").handler(ctx -> readAccess.require(ctx, Kind.ADMIN, false, () -> tokenApi.list(ctx)));
        changeWithBody(router, readAccess, "/api/v1/tokens", Kind.ADMIN, BodyLimit.TOKENS, tokenApi::add);
        router.delete("/api/v1/tokens/:name")
                .handler(ctx -> readAccess.requireToChange(ctx, Kind.ADMIN, () -> tokenApi.revoke(ctx)));
        router.get("/").handler(ctx -> readAccess.require(ctx, true, () -> statusPage(ctx)));
        router.get("/hosts/:host").handler(ctx -> readAccess.require(ctx, true, () -> hostPage(ctx)));
        router.get("/hosts/:host/:instance/:database").handler(ctx -> readAccess.require(ctx, true, () -> databasePage(ctx)));
        new PageForms(() -> actions, silences, clock, this::chrome).mount(router, readAccess, metrics);
        // every route with a body answers its own 413 (reports in the ingest handler, the others by BodyLimit): this
        // is only a fallback, and it counts no report as refused
        router.errorHandler(413, ctx -> json(ctx, 413, new JsonObject().put("error", "body larger than "
                + ctx.request().path() + " accepts (see docs/collector.md, \"Request bodies\")").put("field", "$")));
        router.errorHandler(404, ctx -> json(ctx, 404, new JsonObject().put("error", "no such path: "
                + ctx.request().path() + " (see docs/collector.md for the API)")));
        router.errorHandler(405, ctx -> json(ctx, 405, new JsonObject().put("error", ctx.request().method()
                + " is not allowed on " + ctx.request().path())));
        router.errorHandler(500, ctx -> {
            LOG.error("{} {} failed: {}", ctx.request().method(), ctx.request().path(),
                    ctx.failure() == null ? "unknown" : ctx.failure().toString(), ctx.failure());
            json(ctx, 500, new JsonObject().put("error", "internal error; see the collector log"));
        });

        // per connection: HTTP/1.1 only (one request at a time; no HTTP/2 upgrade and its many streams), a request
        // line of at most 4 KiB and headers of at most 8 KiB, a complete request head within
        // ingest.headerTimeoutSeconds, and closed when silent that long; at most listen.maxConnections held
        // (ConnectionLimits), and listen.maxConnectionsPerAddress from one address
        HttpServerOptions options = new HttpServerOptions()
                .setHost(settings.listen().host())
                .setPort(settings.listen().port())
                .setCompressionSupported(true)
                .setHttp2ClearTextEnabled(false)
                .setMaxInitialLineLength(4096)
                .setMaxHeaderSize(8192)
                .setIdleTimeout(settings.ingest().headerTimeoutSeconds());
        if (settings.tls().enabled()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(settings.tls().certFile().toString())
                    .setKeyPath(settings.tls().keyFile().toString()));
        }
        settings.listen().plainTextWarning(settings.tls()).ifPresent(LOG::warn);
        connections = new ConnectionLimits(settings.listen().maxConnections(), settings.listen().maxConnectionsPerAddress());
        return vertx.createHttpServer(options).connectionHandler(connection -> {
                    if (!connections.admit(connection)) {
                        return;
                    }
                    ambiguous.watch(connection, options);
                    deadline.opened(connection);
                }).invalidRequestHandler(this::invalidRequest)
                .requestHandler(router).listen().onSuccess(s -> server = s);
    }

    /**
     * A request the HTTP decoder refused. A control character in a header value of a report (a NUL in the token) is
     * a credential that cannot be valid: 401, as for any malformed token. Everything else is answered as Vert.x does
     * (400, 414, 431); the connection is closed after the answer.
     */
    private void invalidRequest(HttpServerRequest request) {
        Throwable cause = request.decoderResult() == null ? null : request.decoderResult().cause();
        boolean badHeaderValue = cause instanceof IllegalArgumentException && cause.getMessage() != null
                && cause.getMessage().contains("prohibited character");
        if (badHeaderValue && "/api/v1/reports".equals(request.path())) {
            metrics.rejected("unauthorized");
            request.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"")
                    .putHeader("Content-Type", "application/json").putHeader("X-Content-Type-Options", "nosniff")
                    .end(new JsonObject().put("error", "malformed header: a control character in a header value; send "
                            + "'Authorization: Bearer <agent token>' as 'qatwatch collector token add' printed it")
                            .put("field", "Authorization").encode());
            return;
        }
        HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(request);
    }

    @Override
    public Future<?> stop() {
        Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
        return closed.eventually(() -> readWorker == null ? Future.succeededFuture() : readWorker.close())
                .eventually(() -> storeWorker == null ? Future.succeededFuture() : storeWorker.close());
    }

    /** The port actually bound (useful when the config said 0). */
    public int port() {
        return server.actualPort();
    }

    /** Prometheus text: ingest, the InfluxDB sink, the fleet (read from the store off the event loop), the JVM. */
    private void metrics(RoutingContext ctx) {
        Instant now = clock.instant();
        readWorker.executeBlocking(() -> {
            PrometheusText out = new PrometheusText();
            metrics.writeTo(out);
            connections.writeTo(out);
            StoreHealth.writeTo(out, condition);
            influxMetrics.writeTo(out);
            fleetMetrics(out, now);
            JvmMetrics.writeTo(out);
            return out.toString();
        }, false).onSuccess(text -> ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(text)).onFailure(ctx::fail);
    }

    /** Hosts by state as the status page counts them, agents silent, and the active alerts by rule and severity. */
    private void fleetMetrics(PrometheusText out, Instant now) throws Exception {
        // heads, read once: a scrape counts the alerts, and building each one's view cost 120 ms of CPU at 53,000
        List<AlertsView.ActiveHead> active = alerts == null ? List.of() : alerts.heads();
        FleetStatus.Summary summary = fleetStatus(active, now).summarise(roster.hostsSeen());
        out.family("qatwatch_hosts", PrometheusText.Type.GAUGE,
                "Hosts by state, as the status page counts them: silent, or the most severe active alert, or ok.");
        for (HostState state : HostState.values()) {
            out.sample(Map.of("state", state.label()), summary.count(state));
        }
        out.family("qatwatch_agents_silent", PrometheusText.Type.GAUGE,
                "Agents not heard from for longer than alerts.rules.agentSilent.silentMinutes.")
                .sample(summary.count(HostState.SILENT));
        Map<List<String>, Integer> byRule = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0))
                .thenComparing(k -> k.get(1)));
        active.forEach(a -> byRule.merge(List.of(a.rule(), a.severity()), 1, Integer::sum));
        out.family("qatwatch_alerts_active", PrometheusText.Type.GAUGE,
                "Active alerts by rule and severity; a rule with none active has no sample.");
        byRule.forEach((key, count) -> {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("rule", key.get(0));
            labels.put("severity", key.get(1));
            out.sample(labels, count);
        });
    }

    private void fleet(RoutingContext ctx) {
        FleetQuery query;
        try {
            query = FleetQuery.parse(ctx.queryParams(), FLEET_LIMIT, FLEET_MAX_LIMIT);
        } catch (FleetQuery.BadQuery e) {
            json(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field()));
            return;
        }
        Instant now = clock.instant();
        readWorker.executeBlocking(() -> {
            FleetStatus status = fleetStatus(now);
            FleetPage page = FleetPage.read(store, status, query);
            return Map.entry(FleetView.of(page.rows(), now, status), page.next() == null ? ""
                    : "/api/v1/fleet" + page.next().queryString(FLEET_LIMIT));
        }, false).onSuccess(page -> {
            if (!page.getValue().isEmpty()) {
                ctx.response().putHeader("Link", "<" + page.getValue() + ">; rel=\"next\"");
            }
            ctx.response().putHeader("Content-Type", "application/json").end(ReportJson.toPrettyString(page.getKey()));
        }).onFailure(ctx::fail);
    }

    /** Each host's state and group now: from the active alerts, the agent-silent threshold and the host groups. */
    private FleetStatus fleetStatus(Instant now) throws Exception {
        return fleetStatus(alerts == null ? List.of() : alerts.heads(), now);
    }

    private FleetStatus fleetStatus(List<AlertsView.ActiveHead> active, Instant now) {
        return FleetStatus.fromHeads(active, now, settings.agentSilentMinutes(), groupOf, tagsOf);
    }

    private void alerts(RoutingContext ctx) {
        if (alerts == null) {
            notConfigured(ctx);
            return;
        }
        FleetQuery query;
        String severity = ctx.queryParams().get("severity");
        try {
            query = FleetQuery.parse(ctx.queryParams(), Integer.MAX_VALUE, Integer.MAX_VALUE);
            if (severity != null && HostState.parse(severity) == null) {
                throw new FleetQuery.BadQuery("severity", "severity must be critical, warning or info (got '" + severity + "')");
            }
        } catch (FleetQuery.BadQuery e) {
            json(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field()));
            return;
        }
        readWorker.executeBlocking(alerts::active, false)
                .onSuccess(list -> {
                    List<AlertsView.ActiveAlert> matching = FleetStatus.alertsOf(list, query, groupOf, tagsOf).stream()
                            .filter(a -> severity == null || severity.equalsIgnoreCase(a.severity()))
                            .toList();
                    ctx.response().putHeader("Content-Type", "application/json")
                            .putHeader("X-Total-Count", Integer.toString(matching.size()))
                            .end(ReportJson.toPrettyString(matching.subList(0, Math.min(query.limit(), matching.size()))));
                })
                .onFailure(ctx::fail);
    }

    private void windows(RoutingContext ctx) {
        if (windows == null) {
            notConfigured(ctx);
            return;
        }
        String host = ctx.pathParam("host");
        String instance = ctx.pathParam("instance");
        if (!TokenStore.NAME.matcher(host).matches() || !ReportValidator.IDENTIFIER.matcher(instance).matches()) {
            json(ctx, 400, new JsonObject().put("error", "host or instance name not valid: letters, digits, '.', '_', '-'"));
            return;
        }
        readWorker.executeBlocking(() -> windows.windows(host, instance, clock.instant()), false)
                .onSuccess(value -> {
                    if (value == null) {
                        json(ctx, 404, new JsonObject().put("error", "no instance " + instance + " on host " + host));
                    } else {
                        ctx.response().putHeader("Content-Type", "application/json").end(ReportJson.toPrettyString(value));
                    }
                })
                .onFailure(ctx::fail);
    }

    /** A database's restore plan now, across its replicas, from the store (issue 31). */
    private void restorePlan(RoutingContext ctx) {
        String host = ctx.pathParam("host");
        String instance = ctx.pathParam("instance");
        String database = ctx.pathParam("database");
        if (!TokenStore.NAME.matcher(host).matches() || !ReportValidator.IDENTIFIER.matcher(instance).matches()
                || database == null || database.isBlank() || database.length() > 128) {
            json(ctx, 400, new JsonObject().put("error", "host, instance or database name not valid"));
            return;
        }
        Instant since = clock.instant().minus(java.time.Duration.ofDays(settings.lookbackDays()));
        FleetCompression fleetCompression = compression == null ? null : compression.latest();
        readWorker.executeBlocking(() -> {
            RestorePlans.Found found = RestorePlans.read(store, host, instance, database, since).orElse(null);
            if (found == null) {
                return null;
            }
            // the plan as issue 31 answers it, and how long it would take to restore (issue 30)
            com.fasterxml.jackson.databind.node.ObjectNode answer = ReportJson.mapper().valueToTree(RestorePlanJson.of(found));
            answer.set("restoreEstimate", ReportJson.mapper().valueToTree(
                    RestoreEstimates.read(store, found, since, fleetCompression)));
            return answer;
        }, false)
                .onSuccess(value -> {
                    if (value == null) {
                        json(ctx, 404, new JsonObject().put("error", "no database " + database + " on " + host + "/" + instance));
                    } else {
                        ctx.response().putHeader("Content-Type", "application/json").end(ReportJson.toPrettyString(value));
                    }
                })
                .onFailure(ctx::fail);
    }

    /**
     * What happened to an instance's databases (or to {@code database}) from {@code ?since=} (an ISO-8601 instant; the
     * lookback period by default) on, from the store (issue 31).
     */
    private void databaseEvents(RoutingContext ctx, String database) {
        String host = ctx.pathParam("host");
        String instance = ctx.pathParam("instance");
        if (!TokenStore.NAME.matcher(host).matches() || !ReportValidator.IDENTIFIER.matcher(instance).matches()
                || database != null && (database.isBlank() || database.length() > 128)) {
            json(ctx, 400, new JsonObject().put("error", "host, instance or database name not valid"));
            return;
        }
        Instant since;
        try {
            String asked = ctx.request().getParam("since");
            since = asked == null ? clock.instant().minus(java.time.Duration.ofDays(settings.lookbackDays())) : Instant.parse(asked);
        } catch (java.time.format.DateTimeParseException e) {
            json(ctx, 400, new JsonObject().put("error", "since must be an ISO-8601 instant such as 2026-11-30T00:00:00Z")
                    .put("field", "since"));
            return;
        }
        readWorker.executeBlocking(() -> io.qatwatch.collector.web.DatabaseEventsJson.of(host, instance, database, since,
                        store.databaseEvents(host, instance, since)), false)
                .onSuccess(value -> ctx.response().putHeader("Content-Type", "application/json")
                        .end(ReportJson.toPrettyString(value)))
                .onFailure(ctx::fail);
    }

    /** The instance's QAT accelerator timeline over the last {@link FleetStates#ACCELERATOR_HISTORY}, from the store. */
    private void accelerator(RoutingContext ctx) {
        String host = ctx.pathParam("host");
        String instance = ctx.pathParam("instance");
        if (!TokenStore.NAME.matcher(host).matches() || !ReportValidator.IDENTIFIER.matcher(instance).matches()) {
            json(ctx, 400, new JsonObject().put("error", "host or instance name not valid: letters, digits, '.', '_', '-'"));
            return;
        }
        Instant since = clock.instant().minus(FleetStates.ACCELERATOR_HISTORY);
        readWorker.executeBlocking(() -> {
            boolean known = store.fleetRow(host).map(r -> r.instances().stream().anyMatch(i -> i.name().equals(instance)))
                    .orElse(false);
            return known ? AcceleratorTimeline.of(store.acceleratorChanges(host, instance, since)) : null;
        }, false).onSuccess(points -> {
            if (points == null) {
                json(ctx, 404, new JsonObject().put("error", "no instance " + instance + " on host " + host));
                return;
            }
            ctx.response().putHeader("Content-Type", "application/json").end(ReportJson.toPrettyString(
                    Map.of("host", host, "instance", instance, "since", since.toString(), "timeline", points)));
        }).onFailure(ctx::fail);
    }

    /**
     * A {@code POST} that changes something and carries a JSON body within its route's {@code limit}: the token (or
     * session) and its role are checked first, on the request's headers alone, with the request paused; only then
     * does BodyHandler resume it and read the body, and a cookie session's CSRF token is checked against it. Nothing
     * of an unauthenticated client's body is read. (Two routes: Vert.x Web wants a route's BodyHandler first.)
     */
    private void changeWithBody(Router router, ReadAccess readAccess, String path, Kind needed, BodyLimit limit,
            Consumer<RoutingContext> handler) {
        changeWithBody(router, readAccess, path, needed, limit, metrics, handler);
    }

    /** The same for the status page's forms (PageForms), each with a limit and counter of its own. */
    static void changeWithBody(Router router, ReadAccess readAccess, String path, Kind needed, BodyLimit limit,
            CollectorMetrics metrics, Consumer<RoutingContext> handler) {
        router.post(path).handler(ctx -> {
            ctx.request().pause();
            readAccess.require(ctx, needed, false, ctx::next);
        });
        limit.answerOversized(router.post(path).handler(limit.reader())
                .handler(ctx -> readAccess.requireToChange(ctx, needed, () -> handler.accept(ctx))), metrics);
    }

    private void compression(RoutingContext ctx) {
        FleetCompression latest = compression == null ? null : compression.latest();
        if (latest == null) {
            json(ctx, 503, new JsonObject().put("error", compression == null ? "not configured"
                    : "the first evaluation has not run yet; try again in a minute"));
            return;
        }
        CompressionQuery query;
        try {
            query = CompressionQuery.parse(ctx.queryParams());
        } catch (FleetQuery.BadQuery e) {
            json(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field()));
            return;
        }
        Instant since = clock.instant().minus(java.time.Duration.ofDays(settings.lookbackDays()));
        readWorker.executeBlocking(() -> {
            CompressionQuery.Page page = query.page(latest, RestoreSpeeds.of(store.observedRestores(since)));
            return Map.entry(page, ReportJson.toPrettyString(page.rows()));
        }, false).onSuccess(done -> {
            CompressionQuery.Page page = done.getKey();
            if (page.next() != null) {
                ctx.response().putHeader("Link", "</api/v1/compression" + page.next().queryString() + ">; rel=\"next\"");
            }
            ctx.response().putHeader("Content-Type", "application/json")
                    .putHeader("X-Total-Count", Integer.toString(page.total())).end(done.getValue());
        }).onFailure(ctx::fail);
    }

    private void silences(RoutingContext ctx) {
        if (silences == null) {
            notConfigured(ctx);
            return;
        }
        ctx.response().putHeader("Content-Type", "application/json")
                .end(ReportJson.toPrettyString(silences.active(clock.instant())));
    }

    private void createSilence(RoutingContext ctx) {
        if (silences == null) {
            notConfigured(ctx);
            return;
        }
        SilencesApi.Request request;
        try {
            request = SilenceRequests.parse(ctx.body().buffer(), clock.instant());
        } catch (RequestFields.BadRequest e) {
            json(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field()));
            return;
        }
        String createdBy = ctx.get(ReadAccess.READER, "loopback");
        silences.create(request, createdBy, clock.instant())
                .onSuccess(created -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                        .end(ReportJson.toPrettyString(created)))
                .onFailure(e -> json(ctx, e instanceof IllegalArgumentException ? 400 : 500,
                        new JsonObject().put("error", e.getMessage()).put("field", "endsAt")));
    }

    private void expireSilence(RoutingContext ctx) {
        if (silences == null) {
            notConfigured(ctx);
            return;
        }
        silences.expire(ctx.pathParam("id"), clock.instant())
                .onSuccess(ended -> {
                    if (ended) {
                        ctx.response().setStatusCode(204).end();
                    } else {
                        json(ctx, 404, new JsonObject().put("error", "no silence " + ctx.pathParam("id") + " in force"));
                    }
                })
                .onFailure(ctx::fail);
    }

    private static void notConfigured(RoutingContext ctx) {
        json(ctx, 503, new JsonObject().put("error", "not configured"));
    }

    private static void json(RoutingContext ctx, int status, JsonObject body) {
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
        }
    }

    private void statusPage(RoutingContext ctx) {
        FleetQuery query;
        try {
            query = FleetQuery.parse(ctx.queryParams(), STATUS_LIMIT, STATUS_MAX_LIMIT);
        } catch (FleetQuery.BadQuery e) {
            ctx.response().setStatusCode(400).putHeader("Content-Type", "text/plain; charset=utf-8")
                    .end(e.getMessage() + "\n");
            return;
        }
        Instant now = clock.instant();
        StatusPage.Chrome chrome = chrome(ctx);
        List<HostView.SilenceRow> silenceRows = silenceRows(now);
        // rendered on the worker too: a fleet page is hundreds of kilobytes of text, not the event loop's to build
        readWorker.executeBlocking(() -> StatusPage.render(StatusViews.fromStore(store, roster::hostsSeen, alerts, charts,
                        compression, groupOf, tagsOf, settings.agentSilentMinutes(), query, STATUS_LIMIT, now), chrome,
                        silenceRows), false)
                .onSuccess(page -> SignIn.html(ctx.response(), 200).end(page))
                .onFailure(ctx::fail);
    }

    /** The frame of a page for this request: the notice, who is signed in, and whether the session may act. */
    private StatusPage.Chrome chrome(RoutingContext ctx) {
        Sessions.Session session = ctx.get(ReadAccess.SESSION);
        Kind role = ctx.get(ReadAccess.ROLE);
        return new StatusPage.Chrome(settings.statusPage().notice(), session == null ? null : session.reader(),
                session == null ? null : session.csrf(), session != null && role != null && role.allows(Kind.OPERATOR));
    }

    /** The silences in force, as the pages list them (they come from the alert pipeline as JSON values). */
    private List<HostView.SilenceRow> silenceRows(Instant now) {
        if (silences == null) {
            return List.of();
        }
        List<HostView.SilenceRow> out = new java.util.ArrayList<>();
        for (Object o : new io.vertx.core.json.JsonArray(ReportJson.toPrettyString(silences.active(now)))) {
            JsonObject j = (JsonObject) o;
            out.add(new HostView.SilenceRow(j.getString("id"), j.getString("rule"), j.getString("host"), j.getString("instance"),
                    j.getString("database"), j.getString("group"), j.getString("tag"), j.getString("comment"),
                    j.getString("createdBy"), j.getString("endsAt") == null ? null : Instant.parse(j.getString("endsAt"))));
        }
        return out;
    }

    private DrillDownViews.Sources sources(Instant now) {
        return new DrillDownViews.Sources(store, alerts, charts, compression, groupOf, tagsOf, settings.agentSilentMinutes(),
                silenceRows(now));
    }

    /** {@code /hosts/{host}}: 404 for a host the store does not know. */
    private void hostPage(RoutingContext ctx) {
        String host = ctx.pathParam("host");
        Instant now = clock.instant();
        DrillDownViews.Sources sources = sources(now);
        StatusPage.Chrome chrome = chrome(ctx);
        readWorker.executeBlocking(() -> DrillDownViews.host(sources, host, now).map(view -> HostPage.render(view, chrome)), false)
                .onSuccess(page -> {
                    if (page.isEmpty()) {
                        SignIn.html(ctx.response(), 404).end(FormAnswerPage.render("No such host", "No agent has reported as "
                                + host + " to this collector.", "/", chrome));
                    } else {
                        SignIn.html(ctx.response(), 200).end(page.get());
                    }
                }).onFailure(ctx::fail);
    }

    /** {@code /hosts/{host}/{instance}/{database}}: 404 when the instance neither lists it nor has its backups. */
    private void databasePage(RoutingContext ctx) {
        String host = ctx.pathParam("host");
        String instance = ctx.pathParam("instance");
        String database = ctx.pathParam("database");
        Instant now = clock.instant();
        DrillDownViews.Sources sources = sources(now);
        StatusPage.Chrome chrome = chrome(ctx);
        readWorker.executeBlocking(() -> DrillDownViews.database(sources, host, instance, database, now)
                        .map(view -> DatabasePage.render(view, chrome)), false)
                .onSuccess(page -> {
                    if (page.isEmpty()) {
                        SignIn.html(ctx.response(), 404).end(FormAnswerPage.render("No such database", "No database " + database
                                + " on " + host + " / " + instance + " in this collector's reports.", "/hosts/" + host, chrome));
                    } else {
                        SignIn.html(ctx.response(), 200).end(page.get());
                    }
                }).onFailure(ctx::fail);
    }
}
