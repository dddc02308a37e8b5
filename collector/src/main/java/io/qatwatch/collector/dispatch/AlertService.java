package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alert pipeline: evaluate → group → dedup against the notification log → retry with backoff → notify.
 * State (alerts, log, silences) lives in the store and survives a restart. Its {@link AlertScope} says which hosts'
 * alerts it keeps and announces: every host, or (several collectors on PostgreSQL) the slices its {@link ScopeSource}
 * leases; taking a slice over loads that slice's alerts and log, so nothing is lost and nothing announced again. Methods returning values run on the
 * caller's thread from memory; everything that touches the database runs in {@code executeBlocking}.
 * Time is always passed in.
 */
public final class AlertService {

    private static final Logger LOG = LoggerFactory.getLogger(AlertService.class);
    /** An alert's history (fired, resolved, acknowledged, notes, announcements) is kept this long. */
    public static final Duration KEEP_HISTORY = Duration.ofDays(90);
    /** A resolved alert is kept this long (the resolved announcement, the host page's resolved list), then forgotten. */
    public static final Duration KEEP_RESOLVED = Lifecycle.KEEP_RESOLVED;
    /** The most history events one answer holds. */
    static final int HISTORY_LIMIT = 500;

    private final Vertx vertx;
    /**
     * Where evaluations run, one at a time: a worker of their own, allowed {@link #EVALUATION_LIMIT_MINUTES} before Vert.x
     * reports it blocked, since a first start builds every instance from its rows (a minute or more for a large fleet)
     * and that is not a stuck worker; the default pool's 60 s stay for everything else.
     */
    private final io.vertx.core.WorkerExecutor evaluations;
    static final long EVALUATION_LIMIT_MINUTES = 30;
    private static final java.util.concurrent.atomic.AtomicInteger SERVICES = new java.util.concurrent.atomic.AtomicInteger();
    private final AlertStore store;
    private final PipelineConfig pipeline;
    private final AlertEvaluator evaluator;
    private final List<Notifier> notifiers;
    private final RetryPolicy retry;
    private final Random random;
    private final ScopeSource scopes;
    private volatile AlertScope scope = AlertScope.ALL;

    private volatile Map<String, AlertRecord> alerts = new LinkedHashMap<>();
    private final Map<String, Map<String, LogEntry>> log = new ConcurrentHashMap<>();
    private final List<Silence> silences = new CopyOnWriteArrayList<>();
    private final Map<String, Delivering> inFlight = new ConcurrentHashMap<>();
    /**
     * Groups a channel may have being retried at once; while it has that many, a new group is put off to the next
     * evaluation and counted ({@code qatwatch_notifications_dropped_total}), so a failing channel holds bounded
     * memory and timers. A healthy channel, whose first attempts succeed, never drops one.
     */
    public static final int CHANNEL_BACKLOG = 100;
    private final Map<String, AtomicInteger> backlog = new ConcurrentHashMap<>();
    private final Map<String, Acknowledgement> acks = new ConcurrentHashMap<>();
    private final Map<String, ChannelHealth> health = new ConcurrentHashMap<>();
    private final CollectorMetrics metrics;
    private final HostDirectory hosts;
    /** What the latest merge said to add under each alert in messages. */
    private volatile Map<String, List<String>> remarks = Map.of();
    private Instant prunedAt = Instant.MIN;
    private volatile Evaluation lastEvaluation;
    private Future<Result> previous = Future.succeededFuture();

    /** {@code pipeline} must have passed validation; {@code random} drives retry jitter. */
    public AlertService(Vertx vertx, Database db, AlertEvaluator evaluator, PipelineConfig pipeline,
            List<Notifier> notifiers, Random random) {
        this(vertx, new AlertStore(db), ScopeSource.ALL, evaluator, pipeline, notifiers, random, new CollectorMetrics());
    }

    /** As above, counting deliveries per channel into {@code metrics} ({@code /metrics}). */
    public AlertService(Vertx vertx, Database db, AlertEvaluator evaluator, PipelineConfig pipeline,
            List<Notifier> notifiers, Random random, CollectorMetrics metrics) {
        this(vertx, db, evaluator, pipeline, notifiers, random, metrics, HostDirectory.NONE);
    }

    /** As above; {@code hosts} says each alert's host group and tags, for channel routes and silences. */
    public AlertService(Vertx vertx, Database db, AlertEvaluator evaluator, PipelineConfig pipeline,
            List<Notifier> notifiers, Random random, CollectorMetrics metrics, HostDirectory hosts) {
        this(vertx, new AlertStore(db), ScopeSource.ALL, evaluator, pipeline, notifiers, random, metrics, hosts);
    }

    /** As above, on {@code store} (fenced by the leases when several collectors share it), scoped by {@code scopes}. */
    public AlertService(Vertx vertx, AlertStore store, ScopeSource scopes, AlertEvaluator evaluator,
            PipelineConfig pipeline, List<Notifier> notifiers, Random random, CollectorMetrics metrics) {
        this(vertx, store, scopes, evaluator, pipeline, notifiers, random, metrics, HostDirectory.NONE);
    }

    /** As above; {@code hosts} says each alert's host group and tags, for channel routes and silences. */
    public AlertService(Vertx vertx, AlertStore store, ScopeSource scopes, AlertEvaluator evaluator,
            PipelineConfig pipeline, List<Notifier> notifiers, Random random, CollectorMetrics metrics, HostDirectory hosts) {
        this.hosts = hosts;
        this.vertx = vertx;
        this.evaluations = vertx.createSharedWorkerExecutor("qatwatch-alert-stage-" + SERVICES.incrementAndGet(), 1,
                EVALUATION_LIMIT_MINUTES, java.util.concurrent.TimeUnit.MINUTES);
        this.metrics = metrics;
        this.store = store;
        this.scopes = scopes;
        this.pipeline = pipeline;
        this.evaluator = evaluator;
        this.notifiers = List.copyOf(notifiers);
        this.retry = new RetryPolicy(Duration.ofSeconds(pipeline.retryInitialSeconds()),
                Duration.ofSeconds(pipeline.retryMaxSeconds()));
        this.random = random;
    }

    /**
     * Where the service learns which hosts are its own. {@link #balance} runs before each evaluation (it may take
     * or give up slices), {@link #confirm} before notifying (what is still held). Blocking.
     */
    public interface ScopeSource {

        /** Every host, always: a collector alone on its store. */
        ScopeSource ALL = new ScopeSource() {
            @Override
            public AlertScope balance(java.util.function.IntPredicate mayRelease) {
                return AlertScope.ALL;
            }

            @Override
            public AlertScope confirm() {
                return AlertScope.ALL;
            }
        };

        /** The scope of the next evaluation; {@code mayRelease} says which slices it may give up now. */
        AlertScope balance(java.util.function.IntPredicate mayRelease) throws Exception;

        /** The scope still held now. */
        AlertScope confirm() throws Exception;

        /**
         * The scope held now as far as this process knows without asking (non-blocking): after a pause longer than a
         * lease, nothing until the next renewal.
         */
        default AlertScope known() {
            return AlertScope.ALL;
        }
    }

    /** Creates the tables and loads the saved state (of every host; a scoped service loads per slice as it takes them). */
    public Future<Void> start() {
        return vertx.executeBlocking(() -> {
            store.migrate();
            if (scopes == ScopeSource.ALL) {
                Map<String, AlertRecord> loaded = new LinkedHashMap<>();
                store.loadAlerts().forEach(r -> loaded.put(r.id(), r));
                alerts = loaded;
                log.putAll(store.loadLog());
            } else {
                scope = new AlertScope(java.util.Set.of());
            }
            silences.addAll(store.loadSilences());
            store.loadAcks().forEach(a -> acks.put(a.alertId(), a));
            return null;
        });
    }

    /** The hosts whose alerts this service keeps now. */
    public AlertScope scope() {
        return scope;
    }

    /**
     * Moves to {@code next}: the alerts and log of slices taken over are loaded from the store (where the previous
     * owner left them), those of slices given up are forgotten. A slice held before and now but under another lease
     * (it lapsed and was taken again in between, whatever happened meanwhile) counts as both: forgotten, and loaded
     * as its owners since left it. Silences and acknowledgements are reloaded, since other collectors' APIs add them.
     */
    private void rescope(AlertScope next) throws Exception {
        AlertScope before = scope;
        if (next.all() || before.all() || next.equals(before)) {
            scope = next;
            if (!next.all()) {
                reloadShared();
            }
            return;
        }
        java.util.Set<Integer> retaken = next.retakenSince(before);
        java.util.Set<Integer> added = new java.util.TreeSet<>(next.slices());
        added.removeAll(before.slices());
        added.addAll(retaken);
        java.util.Set<Integer> removed = new java.util.TreeSet<>(before.slices());
        removed.removeAll(next.slices());
        java.util.Set<Integer> forgotten = new java.util.TreeSet<>(removed);
        forgotten.addAll(retaken);
        Map<String, AlertRecord> kept = new LinkedHashMap<>();
        alerts.forEach((id, r) -> {
            if (next.owns(r.alert().host()) && !retaken.contains(io.qatwatch.collector.store.HostSlices.of(r.alert().host()))) {
                kept.put(id, r);
            }
        });
        store.forget(forgotten);
        if (!added.isEmpty()) {
            AlertScope taken = new AlertScope(added);
            store.loadAlerts(taken).forEach(r -> kept.put(r.id(), r));
            store.loadLog(taken).forEach((channel, entries) ->
                    log.computeIfAbsent(channel, k -> new ConcurrentHashMap<>()).putAll(entries));
            if (retaken.isEmpty()) {
                LOG.info("alerts: took over slices {}, gave up {}", added, removed);
            } else {
                LOG.warn("alerts: took over slices {}, gave up {}; of those taken, {} were this collector's before its "
                        + "leases lapsed: their alerts and notification log were reloaded as their owners since left them",
                        added, removed, retaken);
            }
        } else if (!removed.isEmpty()) {
            LOG.info("alerts: gave up slices {}", removed);
        }
        alerts = kept;
        scope = next;
        reloadShared();
    }

    /** Saving the alerts of an evaluation calls {@code pacer} between chunks ({@link AlertStore#pacedBy}). */
    public void pacedBy(io.qatwatch.collector.pacing.Pacer pacer) {
        store.pacedBy(pacer);
    }

    /** Silences and acknowledgements, which any collector's API adds: read again before each evaluation. */
    private void reloadShared() throws Exception {
        List<Silence> loaded = store.loadSilences();
        silences.clear();
        silences.addAll(loaded);
        Map<String, Acknowledgement> held = new HashMap<>();
        store.loadAcks().forEach(a -> held.put(a.alertId(), a));
        acks.keySet().retainAll(held.keySet());
        acks.putAll(held);
    }

    /** True while a notification for a host of {@code slice} is being delivered or retried. */
    public boolean delivering(int slice) {
        return inFlight.values().stream().anyMatch(d -> d.slice == slice);
    }

    /**
     * What one evaluation did: the evaluation, per channel the groups it decided to send and why, and a future that
     * completes when each of those sends has been tried once (the evaluation does not wait for it).
     */
    public record Result(Evaluation evaluation, List<String> sent, Future<Void> firstTries) {
    }

    /**
     * Evaluates the fleet as of {@code now}, updates and saves alert state, and starts the notifications the
     * dedup stage allows; the future completes when each has been tried once (retries go on in the background).
     * Calls are serialised: an evaluation starts when the previous one finished.
     */
    public Future<Result> evaluate(FleetState fleet, Instant now) {
        return evaluate(() -> evaluator.analyse(fleet, now), now);
    }

    /**
     * As {@link #evaluate(FleetState, Instant)}, over the fleet {@code analyse} returns; it runs off the event
     * loop (it may read the store) when the previous evaluation has finished.
     */
    public Future<Result> evaluate(java.util.concurrent.Callable<FleetAnalysis> analyse, Instant now) {
        return started(analyse, now).compose(r -> r.firstTries().map(r));
    }

    /**
     * As {@link #evaluate(java.util.concurrent.Callable, Instant)}, but completes as soon as the evaluation is done
     * and its notifications started: a slow or dead channel never holds up the evaluation, nor the next one, which
     * waits only for this one's evaluation (each channel delivers on its own; {@link Result#firstTries}).
     */
    public synchronized Future<Result> started(java.util.concurrent.Callable<FleetAnalysis> analyse, Instant now) {
        Future<Result> next = previous.transform(ignored -> evaluateNow(analyse, now));
        previous = next;
        return next;
    }

    private Future<Result> evaluateNow(java.util.concurrent.Callable<FleetAnalysis> analyse, Instant now) {
        return evaluations.executeBlocking(() -> {
            rescope(scopes.balance(slice -> !delivering(slice)));
            Evaluation e = evaluator.evaluate(analyse.call());
            AlertScope evaluated = scope;
            Lifecycle.Merged merged = Lifecycle.merge(alerts, within(e, evaluated), acks, a -> silenced(a, now), now, pipeline);
            store.saveAlerts(new ArrayList<>(merged.alerts().values()), evaluated);
            store.saveEvents(merged.events());
            store.deleteAcks(merged.ackEnded());
            merged.ackEnded().forEach(acks::remove);
            if (!now.isBefore(prunedAt.plus(Duration.ofHours(1)))) {
                store.pruneEvents(now.minus(KEEP_HISTORY));
                prunedAt = now;
            }
            alerts = merged.alerts();
            remarks = merged.remarks();
            lastEvaluation = e;
            e.ruleErrors().forEach((rule, err) -> LOG.warn("rule {} failed and kept its previous alerts: {}", rule, err));
            // a lease lost during the evaluation (a pause, the database away), even if taken back since: its slices
            // are not announced
            return new Object[] {e, evaluated.all() ? evaluated : evaluated.stillHeldIn(scopes.confirm())};
        }).compose(done -> {
            Evaluation e = (Evaluation) done[0];
            AlertScope held = (AlertScope) done[1];
            List<String> sent = new ArrayList<>();
            List<Future<?>> attempts = new ArrayList<>();
            for (Notifier n : notifiers) {
                groups(n, now, held).forEach((group, notification) -> {
                    sent.add(n.name() + " " + group + " " + notification.reason());
                    attempts.add(dispatch(n, group, notification, held));
                });
            }
            return Future.succeededFuture(new Result(e, sent, Future.join(attempts).<Void>mapEmpty()));
        });
    }

    /**
     * The evaluation with only the alerts of the scope's hosts: the analysis also saw other collectors' hosts that
     * share an availability group with ours, whose alerts their own collector keeps.
     */
    private static Evaluation within(Evaluation e, AlertScope scope) {
        return scope.all() ? e : new Evaluation(e.at(), e.analysis(),
                e.alerts().stream().filter(a -> scope.owns(a.host())).toList(), e.ruleErrors());
    }

    private boolean silenced(Alert a, Instant now) {
        return silences.stream().anyMatch(s -> s.activeAt(now) && s.matches(a, hosts));
    }

    /** Groups this channel hears and the dedup stage lets through, with their notification; only of {@code owned} hosts. */
    private Map<String, Notification> groups(Notifier n, Instant now, AlertScope owned) {
        Map<String, List<AlertRecord>> byGroup = new LinkedHashMap<>();
        for (AlertRecord r : alerts.values()) {
            if (!owned.owns(r.alert().host())) {
                continue;
            }
            if (r.alert().severity().compareTo(n.minSeverity()) >= 0 && n.hears(r.alert(), hosts)) {
                byGroup.computeIfAbsent(groupKey(r.alert()), k -> new ArrayList<>()).add(r);
            }
        }
        Map<String, LogEntry> channelLog = log.getOrDefault(n.name(), Map.of());
        channelLog.keySet().forEach(k -> byGroup.putIfAbsent(k, List.of()));
        Map<String, Notification> out = new LinkedHashMap<>();
        Duration repeat = Duration.ofMinutes(pipeline.repeatIntervalMinutes());
        Map<String, List<String>> lifeRemarks = remarks;
        byGroup.forEach((group, records) -> {
            LogEntry last = channelLog.get(group);
            if (last != null) {
                // A silenced alert that still fires is neither new nor resolved: leave it out of the comparison.
                Map<String, Severity> lastFiring = new LinkedHashMap<>(last.firing());
                records.stream().filter(r -> r.firing() && r.silenced()).forEach(r -> lastFiring.remove(r.id()));
                last = new LogEntry(lastFiring, last.forecasts(), last.sentAt(), last.threadId());
            }
            LogEntry announced = last;
            Map<String, Severity> firing = new LinkedHashMap<>();
            Map<String, LocalDate> forecasts = new LinkedHashMap<>();
            Set<String> quiet = new HashSet<>();
            for (AlertRecord r : records) {
                boolean flapping = Lifecycle.flapping(r, pipeline);
                // A flapping alert that resolved is held as it was announced: its resolution is not news yet.
                boolean held = !r.firing() && flapping && announced != null && announced.firing().containsKey(r.id());
                if ((r.firing() && !r.silenced()) || held) {
                    firing.put(r.id(), held ? announced.firing().get(r.id()) : r.alert().severity());
                    if (r.alert().forecast() != null) {
                        forecasts.put(r.id(), r.alert().forecast());
                    }
                    if (flapping || acknowledged(r.id(), now)) {
                        quiet.add(r.id());
                    }
                }
            }
            NotificationDecision d = NotificationDecision.decide(new NotificationDecision.Group(firing, forecasts, quiet),
                    last, now, repeat, pipeline.renotifyShiftDays());
            if (!d.send()) {
                return;
            }
            List<AlertRecord> resolved = records.stream().filter(r -> !r.firing() && !firing.containsKey(r.id())
                    && announced != null && announced.firing().containsKey(r.id())).toList();
            List<AlertRecord> fire = records.stream().filter(r -> firing.containsKey(r.id()))
                    .sorted(Comparator.comparing((AlertRecord r) -> r.alert().severity()).reversed()).toList();
            if (fire.isEmpty() && resolved.isEmpty()) {
                return;
            }
            Map<String, List<String>> notes = new LinkedHashMap<>();
            for (AlertRecord r : fire) {
                List<String> lines = new ArrayList<>();
                LocalDate was = announced == null ? null : announced.forecasts().get(r.id());
                if (NotificationDecision.movedEarlier(was, r.alert().forecast(), pipeline.renotifyShiftDays())) {
                    lines.add(Lifecycle.forecastMoved(r.alert(), was, now));
                }
                lines.addAll(lifeRemarks.getOrDefault(r.id(), List.of()));
                if (!lines.isEmpty()) {
                    notes.put(r.id(), lines);
                }
            }
            String thread = announced != null && !announced.firing().isEmpty() ? announced.threadId() : null;
            out.put(group, new Notification(group, d.reason(), fire, resolved, pipeline.statusPageUrl(), now, notes, thread));
        });
        return out;
    }

    private boolean acknowledged(String id, Instant now) {
        Acknowledgement a = acks.get(id);
        return a != null && a.activeAt(now);
    }

    private String groupKey(Alert a) {
        return pipeline.groupBy().stream().map(label -> label + "=" + switch (label) {
            case "rule" -> a.rule();
            case "host" -> nz(a.host());
            case "instance" -> nz(a.instance());
            default -> nz(a.database());
        }).collect(Collectors.joining(","));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** One channel and group being delivered; a newer notification replaces the pending one. */
    private static final class Delivering {
        volatile Notification latest;
        int attempt;
        /** The slice of the group's host (0 when it has none). */
        int slice;
        /** The epoch of the slice's lease {@link #latest} was decided under. */
        volatile long epoch;
        final Promise<Void> firstTry = Promise.promise();
    }

    /**
     * Sends with retries. While a group is being retried, a newer notification for it only replaces the
     * payload, so a channel that comes back gets the latest state once, not a backlog.
     */
    private Future<Void> dispatch(Notifier n, String group, Notification notification, AlertScope held) {
        String key = n.name() + "\u0000" + group;
        String host = hostOf(notification);
        int slice = host == null ? 0 : io.qatwatch.collector.store.HostSlices.of(host);
        Delivering existing = inFlight.get(key);
        if (existing != null) {
            existing.latest = notification;
            existing.epoch = held.epoch(slice);
            return Future.succeededFuture();
        }
        if (backlog(n).get() >= CHANNEL_BACKLOG) {
            // not logged as sent: the next evaluation decides about this group again
            metrics.notificationDropped(n.name());
            channelHealth(n).dropped(notification.at(), n.name() + ": " + CHANNEL_BACKLOG
                    + " groups being retried for this channel already; a notification was put off to the next evaluation");
            return Future.succeededFuture();
        }
        Delivering d = new Delivering();
        d.latest = notification;
        d.slice = slice;
        d.epoch = held.epoch(slice);
        inFlight.put(key, d);
        attempt(n, group, key, d);
        return d.firstTry.future();
    }

    private void attempt(Notifier n, String group, String key, Delivering d) {
        Notification sending = d.latest;
        long epoch = d.epoch;
        if (!scopes.known().holds(d.slice, epoch)) {
            // the lease this was decided under lapsed (a pause): the slice's owner now decides about it
            LOG.warn("channel {}: group {} not sent: the lease on its slice {} lapsed since it was decided", n.name(), group,
                    d.slice);
            done(n, key);
            d.firstTry.tryComplete();
            return;
        }
        n.send(sending).onComplete(ar -> {
            Delivery result = ar.succeeded() ? ar.result() : Delivery.failed(true, null, n.name() + ": " + ar.cause());
            channelHealth(n).record(result, sending.at());
            if (!result.delivered() && !scopes.known().holds(d.slice, epoch)) {
                // in flight when the lease lapsed: the channel may have it, and the slice's new owner announces it again
                metrics.notificationAfterLapse(n.name());
                LOG.warn("channel {}: group {} was in flight when the lease on its slice {} lapsed ({}); not retried: the "
                        + "slice's owner announces it, perhaps a second time", n.name(), group, d.slice, result.error());
                done(n, key);
                d.firstTry.tryComplete();
                return;
            }
            if (result.delivered()) {
                metrics.notificationSent(n.name());
                Map<String, Severity> firing = new LinkedHashMap<>();
                Map<String, LocalDate> forecasts = new LinkedHashMap<>();
                sending.firing().forEach(r -> {
                    firing.put(r.id(), r.alert().severity());
                    if (r.alert().forecast() != null) {
                        forecasts.put(r.id(), r.alert().forecast());
                    }
                });
                String thread = sending.threadId() != null ? sending.threadId() : result.threadId();
                LogEntry entry = new LogEntry(firing, forecasts, sending.at(), thread);
                log.computeIfAbsent(n.name(), k -> new ConcurrentHashMap<>()).put(group, entry);
                List<AlertEvent> told = new ArrayList<>();
                String how = "announced on " + n.name() + " (" + sending.reason().name().toLowerCase(Locale.ROOT) + ")";
                sending.firing().forEach(r -> told.add(new AlertEvent(r.id(), sending.at(), AlertEvent.Kind.NOTIFIED, null,
                        String.join("; ", prepend(how, sending.remarks(r))))));
                sending.resolved().forEach(r -> told.add(new AlertEvent(r.id(), sending.at(), AlertEvent.Kind.NOTIFIED, null,
                        "resolution " + how)));
                vertx.executeBlocking(() -> {
                    if (!store.saveLogEntry(n.name(), group, entry, hostOf(sending), epoch)) {
                        return false;
                    }
                    store.saveEvents(told);
                    return true;
                }).onComplete(saved -> {
                    if (saved.failed()) {
                        LOG.error("could not save the notification log for {} {}: {}", n.name(), group, saved.cause().getMessage());
                    } else if (!saved.result()) {
                        // delivered after the lease lapsed: the slice's new owner, which did not see it logged, says it again
                        metrics.notificationAfterLapse(n.name());
                        Map<String, LogEntry> channelLog = log.get(n.name());
                        if (channelLog != null) {
                            channelLog.remove(group, entry);
                        }
                        LOG.warn("channel {}: group {} was delivered after the lease on its slice {} lapsed; its new owner "
                                + "announces it again (the in-flight case, counted)", n.name(), group, d.slice);
                        if (d.latest != sending) {
                            attempt(n, group, key, d);
                        } else {
                            done(n, key);
                        }
                        d.firstTry.tryComplete();
                        return;
                    }
                    if (d.latest != sending && !sameNews(d.latest, sending)) {
                        attempt(n, group, key, d);
                    } else {
                        done(n, key);
                    }
                    d.firstTry.tryComplete();
                });
                return;
            }
            metrics.notificationFailed(n.name());
            d.firstTry.tryComplete();
            if (!result.retryable()) {
                LOG.error("channel {} refused group {} ({}); not retried until the next change or repeat. "
                        + "Check the channel's URL and permissions.", n.name(), group, result.error());
                done(n, key);
                return;
            }
            if (d.attempt++ == 0) {
                backlog(n).incrementAndGet();
            }
            Duration delay = retry.delay(d.attempt, result.retryAfter(), random.nextDouble());
            LOG.warn("channel {} failed for group {} ({}); retry {} in {} ms", n.name(), group, result.error(), d.attempt,
                    delay.toMillis());
            vertx.setTimer(delay.toMillis(), t -> attempt(n, group, key, d));
        });
    }

    /**
     * True when {@code newer} (an evaluation's decision while {@code sent} was on its way: evaluations do not wait for
     * deliveries) says nothing {@code sent} did not: the same alerts firing at the same severities and the same ones
     * resolved. It is not sent again.
     */
    private static boolean sameNews(Notification newer, Notification sent) {
        return news(newer.firing()).equals(news(sent.firing())) && news(newer.resolved()).keySet().equals(news(sent.resolved()).keySet());
    }

    private static Map<String, Severity> news(List<AlertRecord> records) {
        Map<String, Severity> out = new java.util.TreeMap<>();
        records.forEach(r -> out.put(r.id(), r.alert().severity()));
        return out;
    }

    /** A group's delivery ended (delivered, or refused for good): its place in the channel's backlog is free. */
    private void done(Notifier n, String key) {
        Delivering d = inFlight.remove(key);
        if (d != null && d.attempt > 0) {
            backlog(n).decrementAndGet();
        }
    }

    /** The channel's groups being retried now (a first attempt that failed and is tried again). */
    private AtomicInteger backlog(Notifier n) {
        return backlog.computeIfAbsent(n.name(), k -> new AtomicInteger());
    }

    /** The host of a notification's alerts (grouped by host when several collectors share the work), or null. */
    private static String hostOf(Notification n) {
        return java.util.stream.Stream.concat(n.firing().stream(), n.resolved().stream())
                .map(r -> r.alert().host()).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** True while any notification is still being delivered or retried. */
    public boolean delivering() {
        return !inFlight.isEmpty();
    }

    /** Firing alerts in no particular order (silenced ones included): for counting, without {@link #activeAlerts}' sort. */
    public List<AlertRecord> firingAlerts() {
        return alerts.values().stream().filter(AlertRecord::firing).toList();
    }

    /** Firing alerts, most severe first (silenced ones included, marked). */
    public List<AlertRecord> activeAlerts() {
        return alerts.values().stream().filter(AlertRecord::firing)
                .sorted(Comparator.comparing((AlertRecord r) -> r.alert().severity()).reversed()
                        .thenComparing(AlertRecord::since))
                .toList();
    }

    /**
     * One host's alerts that resolved and are still kept ({@link #KEEP_RESOLVED}), last resolved first, at
     * most {@code limit}.
     */
    public List<AlertRecord> resolvedAlerts(String host, int limit) {
        return alerts.values().stream().filter(r -> !r.firing() && host.equalsIgnoreCase(r.alert().host()))
                .sorted(Comparator.comparing(AlertRecord::resolvedAt).reversed()).limit(limit).toList();
    }

    /** The {@code GET /api/v1/alerts} body. */
    public JsonArray activeAlertsJson() {
        JsonArray out = new JsonArray();
        Instant now = lastEvaluation == null ? Instant.now() : lastEvaluation.at();
        for (AlertRecord r : activeAlerts()) {
            out.add(json(r, now));
        }
        return out;
    }

    /** One alert as the API shows it, with its acknowledgement (or null) and whether it flaps. */
    public JsonObject json(AlertRecord r, Instant now) {
        Alert a = r.alert();
        Acknowledgement ack = acknowledgement(r.id(), now);
        return new JsonObject().put("id", a.id()).put("rule", a.rule()).put("severity", a.severity().label())
                .put("host", a.host()).put("instance", a.instance()).put("database", a.database())
                .put("summary", a.summary()).put("details", a.details()).put("since", r.since().toString())
                .put("resolvedAt", r.resolvedAt() == null ? null : r.resolvedAt().toString())
                .put("silenced", r.silenced()).put("flapping", Lifecycle.flapping(r, pipeline))
                .put("forecast", a.forecast() == null ? null : a.forecast().toString())
                .put("acknowledged", ack == null ? null : new JsonObject().put("by", ack.by()).put("at", ack.at().toString())
                        .put("note", ack.note()).put("expiresAt", ack.expiresAt() == null ? null : ack.expiresAt().toString()));
    }

    /** A firing or recently resolved alert by id, or null. */
    public AlertRecord alert(String id) {
        return alerts.get(id);
    }

    /** The acknowledgement that holds for {@code id} at {@code now}, or null. */
    public Acknowledgement acknowledgement(String id, Instant now) {
        Acknowledgement a = acks.get(id);
        return a != null && a.activeAt(now) ? a : null;
    }

    /** True when the alert resolved and fired again often enough lately to count as flapping. */
    public boolean flapping(AlertRecord r) {
        return Lifecycle.flapping(r, pipeline);
    }

    /**
     * {@code by} takes a firing alert: it stays visible but stops repeating in chat until it resolves, {@code expiresAt}
     * (null: no expiry) passes, or it gets worse. Fails with IllegalArgumentException when no such alert fires.
     */
    public Future<Acknowledgement> acknowledge(String id, String by, String note, Instant expiresAt, Instant now) {
        AlertRecord r = alerts.get(id);
        if (r == null || !r.firing()) {
            return Future.failedFuture(new IllegalArgumentException("no alert " + id + " is firing"));
        }
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            return Future.failedFuture(new IllegalArgumentException("expiresAt " + expiresAt + " is not after now"));
        }
        Acknowledgement ack = new Acknowledgement(id, by, now, note, expiresAt, r.alert().severity(), r.alert().forecast());
        return vertx.executeBlocking(() -> {
            store.saveAck(ack);
            store.saveEvents(List.of(new AlertEvent(id, now, AlertEvent.Kind.ACKNOWLEDGED, by,
                    Lifecycle.acknowledged(ack))));
            acks.put(id, ack);
            return ack;
        });
    }

    /** Ends {@code id}'s acknowledgement now; false when it had none. */
    public Future<Boolean> unacknowledge(String id, String by, Instant now) {
        if (acknowledgement(id, now) == null) {
            return Future.succeededFuture(false);
        }
        return vertx.executeBlocking(() -> {
            store.deleteAcks(List.of(id));
            store.saveEvents(List.of(new AlertEvent(id, now, AlertEvent.Kind.UNACKNOWLEDGED, by, null)));
            acks.remove(id);
            return true;
        });
    }

    /** Adds a note to a firing or recently resolved alert's history; fails with IllegalArgumentException for an unknown one. */
    public Future<AlertEvent> note(String id, String by, String text, Instant now) {
        if (!alerts.containsKey(id)) {
            return Future.failedFuture(new IllegalArgumentException("no alert " + id + " (firing or resolved in the last 7 days)"));
        }
        AlertEvent note = new AlertEvent(id, now, AlertEvent.Kind.NOTE, by, text);
        return vertx.executeBlocking(() -> {
            store.saveEvents(List.of(note));
            return note;
        });
    }

    /** One alert's history, oldest first (the newest {@value #HISTORY_LIMIT} events, kept {@link #KEEP_HISTORY}). */
    public Future<List<AlertEvent>> history(String id) {
        return vertx.executeBlocking(() -> store.events(id, HISTORY_LIMIT));
    }

    /** How each channel's deliveries went, for the status page: by channel name. */
    public Map<String, ChannelHealth.Snapshot> channelHealth() {
        Map<String, ChannelHealth.Snapshot> out = new LinkedHashMap<>();
        notifiers.forEach(n -> out.put(n.name(), channelHealth(n).snapshot()));
        return out;
    }

    private ChannelHealth channelHealth(Notifier n) {
        return health.computeIfAbsent(n.name(), k -> new ChannelHealth());
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> out = new ArrayList<>(rest.size() + 1);
        out.add(first);
        out.addAll(rest);
        return out;
    }

    /** The latest evaluation (windows, trends, forecasts for the status page); null before the first. */
    public Evaluation lastEvaluation() {
        return lastEvaluation;
    }

    /** Silences in force at {@code now}. */
    public List<Silence> silences(Instant now) {
        return silences.stream().filter(s -> s.activeAt(now)).toList();
    }

    /**
     * Adds a silence from {@code now} until {@code endsAt}; matchers may be null (any). Takes effect at the
     * next evaluation.
     */
    public Future<Silence> silence(String rule, String host, String instance, String database, String comment,
                                   String createdBy, Instant now, Instant endsAt) {
        return silence(rule, host, instance, database, null, null, comment, createdBy, now, endsAt);
    }

    /** As above, also matching the host's group and a tag of the host ({@code key=value} or a bare key), when given. */
    public Future<Silence> silence(String rule, String host, String instance, String database, String group, String tag,
                                   String comment, String createdBy, Instant now, Instant endsAt) {
        if (!endsAt.isAfter(now)) {
            return Future.failedFuture(new IllegalArgumentException("endsAt " + endsAt + " is not after now; give a future expiry"));
        }
        Silence s = new Silence(UUID.randomUUID().toString(), rule, host, instance, database, comment, createdBy, now, endsAt,
                group, tag);
        return vertx.executeBlocking(() -> {
            store.saveSilence(s);
            silences.add(s);
            return s;
        });
    }

    /** Ends a silence now; false when there is no such silence in force. */
    public Future<Boolean> expireSilence(String id, Instant now) {
        Silence s = silences.stream().filter(x -> x.id().equals(id) && x.activeAt(now)).findFirst().orElse(null);
        if (s == null) {
            return Future.succeededFuture(false);
        }
        Silence ended = new Silence(s.id(), s.rule(), s.host(), s.instance(), s.database(), s.comment(), s.createdBy(),
                s.startsAt(), now, s.group(), s.tag());
        return vertx.executeBlocking(() -> {
            store.saveSilence(ended);
            silences.remove(s);
            silences.add(ended);
            return true;
        });
    }

    /** Channel names, for the status page. */
    public Map<String, String> channels() {
        Map<String, String> out = new HashMap<>();
        notifiers.forEach(n -> out.put(n.name(), n.getClass().getSimpleName()));
        return out;
    }
}
