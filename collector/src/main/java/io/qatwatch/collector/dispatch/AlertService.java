package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alert pipeline: evaluate → group → dedup against the notification log → retry with backoff → notify.
 * State (alerts, log, silences) lives in SQLite and survives a restart. Methods returning values run on the
 * caller's thread from memory; everything that touches the database runs in {@code executeBlocking}.
 * Time is always passed in.
 */
public final class AlertService {

    private static final Logger LOG = LoggerFactory.getLogger(AlertService.class);
    /** Resolved alerts are kept this long (for the resolved announcement and the status page), then forgotten. */
    private static final Duration KEEP_RESOLVED = Duration.ofDays(7);

    private final Vertx vertx;
    private final AlertStore store;
    private final PipelineConfig pipeline;
    private final AlertEvaluator evaluator;
    private final List<Notifier> notifiers;
    private final RetryPolicy retry;
    private final Random random;

    private volatile Map<String, AlertRecord> alerts = new LinkedHashMap<>();
    private final Map<String, Map<String, LogEntry>> log = new ConcurrentHashMap<>();
    private final List<Silence> silences = new CopyOnWriteArrayList<>();
    private final Map<String, Delivering> inFlight = new ConcurrentHashMap<>();
    private volatile Evaluation lastEvaluation;
    private Future<Result> previous = Future.succeededFuture();

    /** {@code pipeline} must have passed validation; {@code random} drives retry jitter. */
    public AlertService(Vertx vertx, Database db, AlertEvaluator evaluator, PipelineConfig pipeline,
            List<Notifier> notifiers, Random random) {
        this.vertx = vertx;
        this.store = new AlertStore(db);
        this.pipeline = pipeline;
        this.evaluator = evaluator;
        this.notifiers = List.copyOf(notifiers);
        this.retry = new RetryPolicy(Duration.ofSeconds(pipeline.retryInitialSeconds()),
                Duration.ofSeconds(pipeline.retryMaxSeconds()));
        this.random = random;
    }

    /** Creates the tables and loads the saved state. */
    public Future<Void> start() {
        return vertx.executeBlocking(() -> {
            store.migrate();
            Map<String, AlertRecord> loaded = new LinkedHashMap<>();
            store.loadAlerts().forEach(r -> loaded.put(r.id(), r));
            alerts = loaded;
            log.putAll(store.loadLog());
            silences.addAll(store.loadSilences());
            return null;
        });
    }

    /** What one evaluation did: the evaluation, and per channel the groups it decided to send and why. */
    public record Result(Evaluation evaluation, List<String> sent) {
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
    public synchronized Future<Result> evaluate(java.util.concurrent.Callable<FleetAnalysis> analyse, Instant now) {
        Future<Result> next = previous.transform(ignored -> evaluateNow(analyse, now));
        previous = next;
        return next;
    }

    private Future<Result> evaluateNow(java.util.concurrent.Callable<FleetAnalysis> analyse, Instant now) {
        return vertx.executeBlocking(() -> {
            Evaluation e = evaluator.evaluate(analyse.call());
            Map<String, AlertRecord> next = merge(e, now);
            store.saveAlerts(new ArrayList<>(next.values()));
            alerts = next;
            lastEvaluation = e;
            e.ruleErrors().forEach((rule, err) -> LOG.warn("rule {} failed and kept its previous alerts: {}", rule, err));
            return e;
        }).compose(e -> {
            List<String> sent = new ArrayList<>();
            List<Future<?>> attempts = new ArrayList<>();
            for (Notifier n : notifiers) {
                groups(n, now).forEach((group, notification) -> {
                    sent.add(n.name() + " " + group + " " + notification.reason());
                    attempts.add(dispatch(n, group, notification));
                });
            }
            return Future.join(attempts).map(x -> new Result(e, sent));
        });
    }

    /** New state: firing alerts keep their start, vanished ones resolve, failed rules keep theirs. */
    private Map<String, AlertRecord> merge(Evaluation e, Instant now) {
        Map<String, AlertRecord> next = new LinkedHashMap<>();
        for (Alert a : e.alerts()) {
            AlertRecord old = alerts.get(a.id());
            Instant since = old != null && old.firing() ? old.since() : now;
            next.put(a.id(), new AlertRecord(a, since, null, silenced(a, now)));
        }
        for (AlertRecord old : alerts.values()) {
            if (next.containsKey(old.id())) {
                continue;
            }
            if (old.firing() && e.ruleErrors().containsKey(old.alert().rule())) {
                next.put(old.id(), old);
            } else if (old.firing()) {
                next.put(old.id(), new AlertRecord(old.alert(), old.since(), now, old.silenced()));
            } else if (old.resolvedAt().plus(KEEP_RESOLVED).isAfter(now)) {
                next.put(old.id(), old);
            }
        }
        return next;
    }

    private boolean silenced(Alert a, Instant now) {
        return silences.stream().anyMatch(s -> s.activeAt(now) && s.matches(a));
    }

    /** Groups this channel hears and the dedup stage lets through, with their notification. */
    private Map<String, Notification> groups(Notifier n, Instant now) {
        Map<String, List<AlertRecord>> byGroup = new LinkedHashMap<>();
        for (AlertRecord r : alerts.values()) {
            if (r.alert().severity().compareTo(n.minSeverity()) >= 0) {
                byGroup.computeIfAbsent(groupKey(r.alert()), k -> new ArrayList<>()).add(r);
            }
        }
        Map<String, LogEntry> channelLog = log.getOrDefault(n.name(), Map.of());
        channelLog.keySet().forEach(k -> byGroup.putIfAbsent(k, List.of()));
        Map<String, Notification> out = new LinkedHashMap<>();
        Duration repeat = Duration.ofMinutes(pipeline.repeatIntervalMinutes());
        byGroup.forEach((group, records) -> {
            Map<String, Severity> firing = new LinkedHashMap<>();
            records.stream().filter(r -> r.firing() && !r.silenced()).forEach(r -> firing.put(r.id(), r.alert().severity()));
            LogEntry last = channelLog.get(group);
            if (last != null) {
                // A silenced alert that still fires is neither new nor resolved: leave it out of the comparison.
                Map<String, Severity> lastFiring = new LinkedHashMap<>(last.firing());
                records.stream().filter(r -> r.firing() && r.silenced()).forEach(r -> lastFiring.remove(r.id()));
                last = new LogEntry(lastFiring, last.sentAt());
            }
            NotificationDecision d = NotificationDecision.decide(firing, last, now, repeat);
            if (!d.send()) {
                return;
            }
            LogEntry announced = last;
            List<AlertRecord> resolved = records.stream()
                    .filter(r -> !r.firing() && announced != null && announced.firing().containsKey(r.id())).toList();
            List<AlertRecord> fire = records.stream().filter(r -> firing.containsKey(r.id()))
                    .sorted(Comparator.comparing((AlertRecord r) -> r.alert().severity()).reversed()).toList();
            if (fire.isEmpty() && resolved.isEmpty()) {
                return;
            }
            out.put(group, new Notification(group, d.reason(), fire, resolved, pipeline.statusPageUrl(), now));
        });
        return out;
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
        final Promise<Void> firstTry = Promise.promise();
    }

    /**
     * Sends with retries. While a group is being retried, a newer notification for it only replaces the
     * payload, so a channel that comes back gets the latest state once, not a backlog.
     */
    private Future<Void> dispatch(Notifier n, String group, Notification notification) {
        String key = n.name() + "\u0000" + group;
        Delivering existing = inFlight.get(key);
        if (existing != null) {
            existing.latest = notification;
            return Future.succeededFuture();
        }
        Delivering d = new Delivering();
        d.latest = notification;
        inFlight.put(key, d);
        attempt(n, group, key, d);
        return d.firstTry.future();
    }

    private void attempt(Notifier n, String group, String key, Delivering d) {
        Notification sending = d.latest;
        n.send(sending).onComplete(ar -> {
            Delivery result = ar.succeeded() ? ar.result() : Delivery.failed(true, null, n.name() + ": " + ar.cause());
            if (result.delivered()) {
                Map<String, Severity> firing = new LinkedHashMap<>();
                sending.firing().forEach(r -> firing.put(r.id(), r.alert().severity()));
                LogEntry entry = new LogEntry(firing, sending.at());
                log.computeIfAbsent(n.name(), k -> new ConcurrentHashMap<>()).put(group, entry);
                vertx.executeBlocking(() -> {
                    store.saveLogEntry(n.name(), group, entry);
                    return null;
                }).onComplete(saved -> {
                    if (saved.failed()) {
                        LOG.error("could not save the notification log for {} {}: {}", n.name(), group, saved.cause().getMessage());
                    }
                    if (d.latest != sending) {
                        attempt(n, group, key, d);
                    } else {
                        inFlight.remove(key);
                    }
                    d.firstTry.tryComplete();
                });
                return;
            }
            d.firstTry.tryComplete();
            if (!result.retryable()) {
                LOG.error("channel {} refused group {} ({}); not retried until the next change or repeat. "
                        + "Check the channel's URL and permissions.", n.name(), group, result.error());
                inFlight.remove(key);
                return;
            }
            d.attempt++;
            Duration delay = retry.delay(d.attempt, result.retryAfter(), random.nextDouble());
            LOG.warn("channel {} failed for group {} ({}); retry {} in {} ms", n.name(), group, result.error(), d.attempt,
                    delay.toMillis());
            vertx.setTimer(delay.toMillis(), t -> attempt(n, group, key, d));
        });
    }

    /** True while any notification is still being delivered or retried. */
    public boolean delivering() {
        return !inFlight.isEmpty();
    }

    /** Firing alerts, most severe first (silenced ones included, marked). */
    public List<AlertRecord> activeAlerts() {
        return alerts.values().stream().filter(AlertRecord::firing)
                .sorted(Comparator.comparing((AlertRecord r) -> r.alert().severity()).reversed()
                        .thenComparing(AlertRecord::since))
                .toList();
    }

    /** The {@code GET /api/v1/alerts} body. */
    public JsonArray activeAlertsJson() {
        JsonArray out = new JsonArray();
        for (AlertRecord r : activeAlerts()) {
            Alert a = r.alert();
            out.add(new JsonObject().put("id", a.id()).put("rule", a.rule()).put("severity", a.severity().label())
                    .put("host", a.host()).put("instance", a.instance()).put("database", a.database())
                    .put("summary", a.summary()).put("details", a.details()).put("since", r.since().toString())
                    .put("silenced", r.silenced()));
        }
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
        if (!endsAt.isAfter(now)) {
            return Future.failedFuture(new IllegalArgumentException("endsAt " + endsAt + " is not after now; give a future expiry"));
        }
        Silence s = new Silence(UUID.randomUUID().toString(), rule, host, instance, database, comment, createdBy, now, endsAt);
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
                s.startsAt(), now);
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
