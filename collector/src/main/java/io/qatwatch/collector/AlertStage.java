package io.qatwatch.collector;

import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.analysis.WindowsJson;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.AlertScope;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.dispatch.AlertStore;
import io.qatwatch.collector.dispatch.HostDirectory;
import io.qatwatch.collector.dispatch.PipelineConfig;
import io.qatwatch.collector.influx.InfluxPoints;
import io.qatwatch.collector.influx.InfluxSink;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.pacing.IngestFirstPacer;
import io.qatwatch.collector.pacing.MachineCpu;
import io.qatwatch.collector.pacing.StoppablePacer;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.SliceLeases;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.WindowsView;
import io.qatwatch.collector.web.status.StatusWindows;
import io.qatwatch.collector.web.status.WindowCharts;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.NightlyWindow;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The analysis stage of a running collector: every {@link #EVERY} it brings its {@link LiveFleet} up to date
 * with what the store received since (new backups, changed sections), evaluates windows, creep and rules
 * through the {@link AlertService} (which notifies the chat channels), and writes new windows, trends and
 * alert changes to the InfluxDB sink.
 *
 * <p>On a PostgreSQL store shared by several collectors, each collector's stage works on the hosts of the
 * {@link HostSlices} it leases ({@link SliceLeases}), plus, read-only, the hosts that share an availability group
 * with them: the analysis and its memory divide across the collectors, and every host's alerts are evaluated and
 * announced by one of them. The alerts API then reads every collector's alerts from the database.
 */
public final class AlertStage {

    private static final Logger LOG = LoggerFactory.getLogger(AlertStage.class);

    /** How often the fleet is evaluated by default ({@code evaluation.everySeconds}). */
    public static final Duration EVERY = Duration.ofSeconds(EvaluationConfig.DEFAULTS.everySeconds());
    /** Evaluations between two look-ups of the hosts that share availability groups with the leased ones. */
    private static final int PARTNERS_EVERY = 5;

    private final Vertx vertx;
    private final AlertsConfig config;
    private final EvaluationConfig evaluation;
    private final Clock clock;
    private volatile AlertService service;
    private Collector collector;
    private long timer = -1;
    private boolean running;
    private final LiveFleet fleet;
    /** Paces the fleet's refreshes and ends them at their next instance or batch once the stage stops. */
    private volatile StoppablePacer stoppable;
    /** Per instance, the windows last written to InfluxDB (the list the fleet holds until it rebuilds them). */
    private final Map<String, List<NightlyWindow>> windowsWritten = new HashMap<>();
    private Map<String, AlertRecord> lastActive = Map.of();
    /** Each host's tags from the latest evaluation: what host groups, the fleet's tag filter and channels match. */
    private volatile Map<String, Set<String>> tags = Map.of();
    /** Several collectors: this one's leases, its fenced alert store, and the partner hosts it keeps read-only. */
    private SliceLeases leases;
    private AlertStore sharedAlerts;
    private long renewTimer = -1;
    private Set<String> partners = Set.of();
    private AlertScope partnersOf;
    private int sincePartners;
    /** Instances rebuilt from the store by the latest evaluation, and how many the fleet holds. */
    private int rebuilt;
    private int instances;
    /** Per instance, the compression comparisons last written to InfluxDB and when: rewritten on change or daily. */
    private final Map<String, Written> compressionWritten = new HashMap<>();

    /** How often unchanged verdicts are written again, so a Grafana panel over the last day sees every row. */
    static final Duration COMPRESSION_REWRITE = Duration.ofHours(24);

    private record Written(List<Comparison> comparisons, Instant at) {
    }

    public AlertStage(Vertx vertx, CollectorConfig collectorConfig, Clock clock) {
        this.vertx = vertx;
        this.evaluation = collectorConfig.evaluation();
        this.config = linkedToStatusPage(collectorConfig);
        this.clock = clock;
        this.fleet = new LiveFleet(config.analysis(), host -> Set.of());
    }

    /** The alert section with its status-page link taken from {@code statusPage.publicUrl} unless set on its own. */
    private static AlertsConfig linkedToStatusPage(CollectorConfig c) {
        AlertsConfig a = c.alerts();
        PipelineConfig p = a.pipeline();
        if (!p.statusPageUrl().equals(AlertsConfig.DEFAULTS.pipeline().statusPageUrl())) {
            return a;
        }
        return new AlertsConfig(a.calendars(), a.defaultCalendar(), a.hostGroups(), a.windows(), a.rules(),
                p.withStatusPageUrl(c.statusPage().publicUrl()), a.channels());
    }

    /** What the collector plugs in: host groups for the {@code group} tag, and the alerts and windows APIs. */
    public Collector.Stages stages() {
        AlertsView alerts = new AlertsView() {
            @Override
            public List<ActiveAlert> active() throws Exception {
                AlertService s = service;
                if (s == null) {
                    return List.of();
                }
                if (sharedAlerts != null) {
                    // every collector's alerts, as each last saved its slices
                    Instant now = clock.instant();
                    return sharedAlerts.readAlerts().stream()
                            .sorted(java.util.Comparator.comparing((AlertRecord r) -> r.alert().severity()).reversed()
                                    .thenComparing(AlertRecord::since))
                            .map(r -> AlertViews.active(s, r, now)).toList();
                }
                return AlertViews.alerts(s, clock).active();
            }

            @Override
            public List<ActiveHead> heads() throws Exception {
                AlertService s = service;
                if (s == null) {
                    return List.of();
                }
                return AlertViews.heads(sharedAlerts != null ? sharedAlerts.readAlerts() : s.firingAlerts());
            }

            @Override
            public List<ResolvedAlert> resolved(String host, int limit) throws Exception {
                AlertService s = service;
                if (s == null) {
                    return List.of();
                }
                return sharedAlerts != null
                        ? sharedAlerts.readResolvedAlerts(host, limit).stream().map(AlertViews::resolved).toList()
                        : AlertViews.alerts(s, clock).resolved(host, limit);
            }

            @Override
            public List<ChannelHealth> channels() {
                AlertService s = service;
                return s == null ? List.of() : AlertViews.alerts(s, clock).channels();
            }
        };
        WindowsView windows = this::windows;
        WindowCharts charts = (now, hosts) -> {
            AlertService s = service;
            AlertEvaluator.Evaluation e = s == null ? null : s.lastEvaluation();
            return e == null ? List.of() : StatusWindows.of(e.analysis(), hosts);
        };
        SilencesApi silences = new SilencesApi() {
            @Override
            public List<?> active(Instant now) {
                AlertService s = service;
                return s == null ? List.of() : s.silences(now);
            }

            @Override
            public Future<?> create(Request r, String createdBy, Instant now) {
                AlertService s = service;
                return s == null ? Future.failedFuture(new IllegalStateException("the alert service is starting"))
                        : s.silence(r.rule(), r.host(), r.instance(), r.database(), r.group(), r.tag(), r.comment(), createdBy,
                                now, r.endsAt());
            }

            @Override
            public Future<Boolean> expire(String id, Instant now) {
                AlertService s = service;
                return s == null ? Future.succeededFuture(false) : s.expireSilence(id, now);
            }
        };
        CompressionView compression = () -> {
            AlertService s = service;
            AlertEvaluator.Evaluation e = s == null ? null : s.lastEvaluation();
            return e == null ? null : e.analysis().compression();
        };
        return new Collector.Stages(this::groupOf, alerts, windows, accepted -> { }, charts, silences,
                AlertViews.actions(() -> service), this::tagsOf, compression);
    }

    /** The name of the first host group matching {@code host} (its name or its tags), or null. */
    public String groupOf(String host) {
        Set<String> hostTags = tagsOf(host);
        for (HostGroupConfig g : config.hostGroups()) {
            if (g.matches(host, null, hostTags)) {
                return g.name();
            }
        }
        return null;
    }

    /** A host's tags ({@code key=value}) as the latest evaluation saw them; none before the first. */
    public Set<String> tagsOf(String host) {
        return tags.getOrDefault(host, Set.of());
    }

    /** The service once started (null before): the status page reads its last evaluation. */
    public AlertService service() {
        return service;
    }

    /**
     * Creates the alert service on the collector's store, evaluates once now and then every
     * {@code evaluation.everySeconds}. On PostgreSQL it first creates the lease tables and keeps this collector's
     * leases renewed.
     */
    public Future<Void> start(Collector running) {
        this.collector = running;
        HostDirectory hosts = new HostDirectory() {
            @Override
            public String group(String host) {
                return groupOf(host);
            }

            @Override
            public Set<String> tags(String host) {
                return tagsOf(host);
            }
        };
        Database db = running.database();
        Future<AlertService> created;
        if (db.kind() == Database.Kind.POSTGRESQL) {
            String owner = running.instanceId();
            leases = new SliceLeases(db, owner, Duration.ofSeconds(evaluation.leaseSeconds()));
            sharedAlerts = new AlertStore(db, owner);
            AlertService.ScopeSource scopes = new AlertService.ScopeSource() {
                @Override
                public AlertScope balance(java.util.function.IntPredicate mayRelease) throws Exception {
                    return AlertScope.leased(leases.balanceLeases(mayRelease));
                }

                @Override
                public AlertScope confirm() throws Exception {
                    return AlertScope.leased(leases.renewLeases());
                }

                @Override
                public AlertScope known() {
                    return AlertScope.leased(leases.heldNow());
                }
            };
            created = vertx.executeBlocking(() -> {
                leases.migrate();
                leases.announce();
                return null;
            }).compose(v -> createService(vertx, sharedAlerts, scopes, config, System.getenv(), running.metrics(), hosts));
            running.beforeClose(() -> {
                leases.releaseAll();
                return null;
            });
        } else {
            created = createService(vertx, db, config, System.getenv(), running.metrics(), hosts);
        }
        return created.map(s -> {
            service = s;
            IngestFirstPacer pacer = new IngestFirstPacer(evaluation.busyCoreShare(), Runtime.getRuntime().availableProcessors(),
                    running.metrics()::reportsAccepted, MachineCpu.busyNanos());
            stoppable = new StoppablePacer(pacer);
            fleet.pacedBy(stoppable);
            // saving an evaluation's alerts is not ended early: the store would hold half of its changes
            s.pacedBy(pacer);
            running.metrics().alertStage(pacer::heldBackNanos);
            LOG.info("alerts: {} calendar(s), {} channel(s): {}{}", config.calendars().size(), s.channels().size(),
                    s.channels().keySet(), leases == null ? "" : "; sharing the fleet with the other collectors as "
                            + leases.owner());
            // sharing the fleet, the first evaluation (which takes this collector's slices) waits one renewal period
            // after the announcement: collectors started together count each other and each takes its share, rather
            // than the first one up taking every slice and building the whole fleet before it lets any go
            timer = vertx.setPeriodic(leases == null ? 1_000 : 1_000 + evaluation.renewMillis(), evaluation.everySeconds() * 1000L,
                    t -> evaluate());
            if (leases != null) {
                // renew, and take what a dead collector left: ownership moves within a lease and a third even while
                // an evaluation waits for a slow channel; giving slices up waits for an evaluation's start
                // one renewal at a time: while the database is away a tick that finds the last one waiting is skipped.
                // A lease that lapsed is logged by the leases; a slice taken back has a new epoch, and the next
                // evaluation reloads it as a takeover
                SingleFlight renewal = new SingleFlight();
                renewTimer = vertx.setPeriodic(evaluation.renewMillis(), t -> {
                    Future<Set<Integer>> renewed = renewal.run(() -> vertx.executeBlocking(() -> leases.balance(slice -> false), false));
                    if (renewed != null) {
                        renewed.onFailure(e -> LOG.warn("alerts: renewing the slice leases failed: {}", e.toString()));
                    }
                });
            }
            return null;
        });
    }

    /**
     * One evaluation; skipped while the previous one still runs (its evaluation, not its deliveries). The future
     * completes when the notifications it decided on have each been tried once.
     */
    public Future<AlertService.Result> evaluate() {
        StoppablePacer p = stoppable;
        if (running || service == null || p != null && p.stopped()) {
            return Future.succeededFuture();
        }
        running = true;
        Instant now = clock.instant();
        rebuilt = 0;
        // the next evaluation waits for this one's evaluation, never for its deliveries (a slow channel's are its own)
        long[] began = new long[2];
        Future<AlertService.Result> started = service.started(() -> {
            began[0] = System.currentTimeMillis();
            began[1] = System.nanoTime();
            FleetAnalysis analysis = analyse(now);
            Map<String, Set<String>> seen = new HashMap<>();
            analysis.fleet().hosts().forEach(h -> seen.put(h.host(), h.tags()));
            tags = seen;
            return analysis;
        }, now);
        started.onSuccess(result -> collector.influx().ifPresent(sink -> writePoints(sink, result.evaluation(), now)))
                .onFailure(e -> {
                    if (p != null && p.stopped()) {
                        // ended at its next unit, or by the store closing under it (SQLite's reads fail at once)
                        LOG.info("alerts: evaluation ended early: the collector is stopping{}",
                                e instanceof StoppablePacer.Stopped ? "" : " (" + e + ")");
                    } else {
                        LOG.warn("alert evaluation failed: {}", e.toString());
                    }
                })
                .eventually(() -> {
                    running = false;
                    if (began[1] != 0) {
                        LiveFleet.SummaryCounts counts = fleet.summaryCounts();
                        collector.metrics().evaluated(started.succeeded(), began[0], System.nanoTime() - began[1],
                                rebuilt, instances, counts.restored(), counts.written());
                    }
                    if (worthCollecting(rebuilt, instances)) {
                        LOG.debug("alerts: {} of {} instances rebuilt; asking for a collection", rebuilt, instances);
                        vertx.executeBlocking(() -> {
                            System.gc();
                            return null;
                        }, false);
                    }
                    return Future.succeededFuture();
                });
        // a caller (a test, a drill) may wait for the first tries; the stage's own cadence does not
        return started.compose(r -> r.firstTries().map(r));
    }

    /**
     * The analysis of the hosts in the service's scope. Sharing the fleet, it also keeps the hosts that report a
     * database of an availability group one of its hosts reports: looked up again when the scope changed and every
     * few evaluations, and when that adds hosts the fleet is refreshed once more so this evaluation sees them. The
     * store reads only the rows of those hosts (on PostgreSQL, by the hosts' slice column).
     */
    private FleetAnalysis analyse(Instant now) throws Exception {
        AlertScope scope = service.scope();
        if (scope.all()) {
            return counted(fleet.refresh(collector.store(), now));
        }
        LiveFleet.Refresh refresh = fleet.refresh(collector.store(), now, HostSelection.of(scope.slices(), partners));
        if (!scope.equals(partnersOf) || ++sincePartners >= PARTNERS_EVERY) {
            Set<String> found = new HashSet<>(collector.store().hostsWithAvailabilityDatabases(fleet.availabilityGroupGuids()));
            found.removeIf(scope::owns);
            boolean grew = !partners.containsAll(found);
            partners = Set.copyOf(found);
            partnersOf = scope;
            sincePartners = 0;
            if (grew) {
                rebuilt += refresh.rebuilt();
                refresh = fleet.refresh(collector.store(), now, HostSelection.of(scope.slices(), partners));
            }
        }
        LOG.debug("alerts: evaluating {} hosts of {} slices ({} partner hosts)", fleet.hosts().size() - partners.size(),
                scope.slices().size(), partners.size());
        return counted(refresh);
    }

    private FleetAnalysis counted(LiveFleet.Refresh refresh) {
        rebuilt += refresh.rebuilt();
        instances = refresh.analysis().fleet().hosts().stream().mapToInt(h -> h.instances().size()).sum();
        return refresh.analysis();
    }

    /**
     * After an evaluation that rebuilt much of the fleet from the store (the first one above all), asks the JVM for a
     * collection: reading the history grew the heap well past what the stage keeps, and G1 gives that back only at
     * the end of a concurrent cycle, which a minute's young collections never start. The launcher's
     * {@code -XX:+ExplicitGCInvokesConcurrent} makes the request such a cycle rather than a stop-the-world collection.
     */
    static boolean worthCollecting(int rebuilt, int instances) {
        return rebuilt >= 1_000 && rebuilt * 4L >= instances;
    }

    /**
     * One instance's windows, trends and spill forecasts with every backup of each window: the evaluation
     * holds window summaries only, so the instance is analysed again from its stored backups. Null when the
     * latest evaluation did not see it. Blocking: runs on the store's worker.
     */
    private Object windows(String host, String instance, Instant now) throws Exception {
        AlertService s = service;
        AlertEvaluator.Evaluation e = s == null ? null : s.lastEvaluation();
        InstanceAnalysis seen = e == null ? null : e.analysis().instance(host, instance).orElse(null);
        if (seen == null && leases != null) {
            // another collector evaluates this host: analyse it here from the store
            FleetState one = FleetStates.loadHost(collector.store(), host, now, config.analysis(), h -> Set.of());
            var ia = new FleetAnalysis(one, config.analysis(), now).instance(host, instance);
            return ia.isEmpty() ? null
                    : io.qatwatch.protocol.ReportJson.mapper().readValue(WindowsJson.of(ia.get()).encode(), Map.class);
        }
        if (seen == null) {
            return null;
        }
        FleetState one = FleetStates.loadHost(collector.store(), seen.host().host(), now, config.analysis(),
                h -> seen.host().tags());
        var ia = new FleetAnalysis(one, config.analysis(), now).instance(seen.host().host(), seen.instance().name());
        // Plain maps and lists, so any JSON mapper (the web layer uses Jackson) writes them as they are.
        return ia.isEmpty() ? null
                : io.qatwatch.protocol.ReportJson.mapper().readValue(WindowsJson.of(ia.get()).encode(), Map.class);
    }

    private void writePoints(InfluxSink sink, AlertEvaluator.Evaluation evaluated, Instant now) {
        List<String> lines = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        AlertScope scope = service.scope();
        for (InstanceAnalysis ia : evaluated.analysis().instances()) {
            String host = ia.host().host();
            if (!scope.owns(host)) {
                continue;
            }
            String instance = ia.instance().name();
            String group = groupOf(host);
            seen.add(ia.scope());
            List<NightlyWindow> before = windowsWritten.put(ia.scope(), ia.windows());
            if (before != ia.windows()) {
                Set<String> written = new HashSet<>();
                if (before != null) {
                    before.forEach(w -> written.add(w.morning() + "/" + w.lastFinish()));
                }
                for (NightlyWindow w : ia.windows()) {
                    if (!written.contains(w.morning() + "/" + w.lastFinish())) {
                        lines.add(InfluxPoints.window(host, group, instance, ia.calendar().name(), w.firstStart(),
                                w.lastFinish(), w.businessStart(), w.backupCount()));
                    }
                }
            }
            for (CreepTrend trend : ia.creep().values()) {
                Instant forecast = trend.forecastDate() == null ? null
                        : trend.forecastDate().atStartOfDay(ZoneOffset.UTC).toInstant();
                Double days = trend.daysUntilForecast() == null ? null : trend.daysUntilForecast().doubleValue();
                lines.add(InfluxPoints.windowTrend(host, group, instance, trend.kind(), now, trend.slopeMinutesPerDay(),
                        trend.nights().size(), days, forecast));
            }
        }
        windowsWritten.keySet().retainAll(seen);
        compressionLines(evaluated.analysis().compression(), scope, now, lines);
        Map<String, AlertRecord> active = new HashMap<>();
        for (AlertRecord r : service.activeAlerts()) {
            active.put(r.id(), r);
            AlertRecord before = lastActive.get(r.id());
            if (before == null || before.alert().severity() != r.alert().severity()) {
                lines.add(alertLine(r, true, now));
            }
        }
        for (AlertRecord gone : lastActive.values()) {
            if (!active.containsKey(gone.id())) {
                lines.add(alertLine(gone, false, now));
            }
        }
        lastActive = active;
        if (!lines.isEmpty()) {
            sink.submit(() -> lines);
        }
    }

    /**
     * The compression verdicts of this collector's instances whose comparisons changed (or were last written a day
     * ago): one point per row and method compared (per row with one method, that method).
     */
    private void compressionLines(FleetCompression compression, AlertScope owned, Instant now, List<String> lines) {
        compression.byInstance().forEach((scope, comparisons) -> {
            int slash = scope.indexOf('/');
            String host = scope.substring(0, slash);
            if (!owned.owns(host)) {
                return;
            }
            Written before = compressionWritten.get(scope);
            if (before != null && now.isBefore(before.at().plus(COMPRESSION_REWRITE))
                    && (before.comparisons() == comparisons || before.comparisons().equals(comparisons))) {
                return;
            }
            compressionWritten.put(scope, new Written(comparisons, now));
            String group = groupOf(host);
            for (Comparison c : comparisons) {
                for (Comparison.Entry e : c.algorithms()) {
                    if (e.judgement() != null || c.algorithms().size() == 1) {
                        lines.add(InfluxPoints.compression(host, group, scope.substring(slash + 1), c, e, now));
                    }
                }
            }
        });
        compressionWritten.keySet().retainAll(compression.byInstance().keySet());
    }

    private String alertLine(AlertRecord r, boolean firing, Instant now) {
        return InfluxPoints.alert(r.alert(), groupOf(r.alert().host()), firing, now);
    }

    /**
     * Stops evaluating: no further evaluation starts, and one in hand (a first evaluation of a large fleet takes
     * minutes) ends at its next instance or batch, so the collector closes its store without waiting for it.
     */
    public void stop() {
        StoppablePacer p = stoppable;
        if (p != null) {
            p.stop();
        }
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (renewTimer >= 0) {
            vertx.cancelTimer(renewTimer);
        }
    }

    /**
     * The alert service in one call: validates {@code config}, builds the channels (reading secret files off the
     * event loop; {@code environment} is usually {@code System.getenv()}), creates the tables and loads state.
     */
    public static Future<AlertService> createService(Vertx vertx, Database db, AlertsConfig config,
            Map<String, String> environment) {
        return createService(vertx, db, config, environment, new CollectorMetrics(), HostDirectory.NONE);
    }

    /**
     * As above, counting each channel's deliveries into {@code metrics}; {@code hosts} says each host's group and
     * tags, which channels route by and silences match.
     */
    public static Future<AlertService> createService(Vertx vertx, Database db, AlertsConfig config,
            Map<String, String> environment, CollectorMetrics metrics, HostDirectory hosts) {
        return vertx.executeBlocking(() -> Notifiers.create(vertx, config.validate().channels(), new Secrets(environment)))
                .compose(notifiers -> {
                    AlertService s = new AlertService(vertx, db, config.evaluator(), config.pipeline(), notifiers,
                            new Random(), metrics, hosts);
                    return s.start().map(s);
                });
    }

    /** As {@link #createService(Vertx, Database, AlertsConfig, Map)} on a fenced store, scoped by leases. */
    static Future<AlertService> createService(Vertx vertx, AlertStore store, AlertService.ScopeSource scopes,
            AlertsConfig config, Map<String, String> environment, io.qatwatch.collector.metrics.CollectorMetrics metrics,
            HostDirectory hosts) {
        return vertx.executeBlocking(() -> Notifiers.create(vertx, config.validate().channels(), new Secrets(environment)))
                .compose(notifiers -> {
                    AlertService s = new AlertService(vertx, store, scopes, config.evaluator(), config.pipeline(),
                            notifiers, new Random(), metrics, hosts);
                    return s.start().map(s);
                });
    }

    /** Starts a collector with its analysis stage: what {@code qatwatch collector} and {@code qatwatch up} run. */
    public static Future<Collector> startCollector(Vertx vertx, CollectorConfig config, java.nio.file.Path dataDir,
            Clock clock) {
        return new AlertStage(vertx, config, clock).startCollector(config, dataDir);
    }

    /** Starts a collector on {@code config} with this stage plugged in; stopping the collector stops the stage. */
    public Future<Collector> startCollector(CollectorConfig config, java.nio.file.Path dataDir) {
        return Collector.start(vertx, config, dataDir, clock, stages())
                .compose(c -> start(c).map(v -> {
                    c.onStop(this::stop);
                    return c;
                }));
    }
}
