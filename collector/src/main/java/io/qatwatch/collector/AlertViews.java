package io.qatwatch.collector;

import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.WindowsJson;
import io.qatwatch.collector.dispatch.Acknowledgement;
import io.qatwatch.collector.dispatch.AlertEvent;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.web.AlertActions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.function.Supplier;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.WindowsView;
import java.util.List;

/**
 * Adapts the alert service to the web layer's seams: {@code GET /api/v1/alerts}, one alert with its history and
 * acknowledgement, and the windows API.
 */
public final class AlertViews {

    private AlertViews() {
    }

    /** The active alerts, in Contract 2's shape (silenced ones included), and the channels' deliveries. */
    public static AlertsView alerts(AlertService service, Clock clock) {
        return new AlertsView() {
            @Override
            public List<AlertsView.ActiveAlert> active() {
                Instant now = clock.instant();
                return service.activeAlerts().stream().map(r -> AlertViews.active(service, r, now)).toList();
            }

            @Override
            public List<AlertsView.ActiveHead> heads() {
                return AlertViews.heads(service.firingAlerts());
            }

            @Override
            public List<AlertsView.ResolvedAlert> resolved(String host, int limit) {
                return service.resolvedAlerts(host, limit).stream().map(AlertViews::resolved).toList();
            }

            @Override
            public List<AlertsView.ChannelHealth> channels() {
                List<AlertsView.ChannelHealth> out = new ArrayList<>();
                service.channelHealth().forEach((name, h) -> out.add(new AlertsView.ChannelHealth(name, h.delivered(),
                        h.failed(), h.lastFailedAt(), h.lastError(), h.failing())));
                return out;
            }
        };
    }

    /** One active alert in Contract 2's shape, with its acknowledgement and whether it flaps. */
    static AlertsView.ActiveAlert active(AlertService service, AlertRecord r, Instant now) {
        Acknowledgement ack = service.acknowledgement(r.id(), now);
        return new AlertsView.ActiveAlert(r.id(), r.alert().rule(), r.alert().severity().label(),
                r.alert().host(), r.alert().instance(), r.alert().database(), r.alert().summary(),
                r.alert().details(), r.since(), r.silenced(), service.flapping(r),
                ack == null ? null : new AlertsView.Acknowledged(ack.by(), ack.at(), ack.note(), ack.expiresAt()));
    }

    /** Each record's host, rule and severity: what counting them needs, none of their views' strings. */
    static List<AlertsView.ActiveHead> heads(List<AlertRecord> records) {
        List<AlertsView.ActiveHead> out = new ArrayList<>(records.size());
        for (AlertRecord r : records) {
            out.add(new AlertsView.ActiveHead(r.alert().host(), r.alert().rule(), r.alert().severity().label()));
        }
        return out;
    }

    /** One resolved alert as the status page lists it. */
    static AlertsView.ResolvedAlert resolved(AlertRecord r) {
        return new AlertsView.ResolvedAlert(r.id(), r.alert().rule(), r.alert().severity().label(), r.alert().host(),
                r.alert().instance(), r.alert().database(), r.alert().summary(), r.since(), r.resolvedAt());
    }

    /** One alert with its history, acknowledgements and notes, over the alert service. */
    public static AlertActions actions(Supplier<AlertService> service) {
        return new AlertActions() {
            @Override
            public Future<JsonObject> alert(String id, Instant now) {
                return known(id).compose(s -> s.history(id).map(events -> {
                    JsonArray history = new JsonArray();
                    events.forEach(e -> history.add(event(e)));
                    return s.json(s.alert(id), now).put("history", history);
                }));
            }

            @Override
            public Future<JsonObject> acknowledge(String id, String by, String note, Instant expiresAt, Instant now) {
                return known(id).compose(s -> s.acknowledge(id, by, note, expiresAt, now))
                        .map(ack -> new JsonObject().put("alert", id).put("by", ack.by()).put("at", ack.at().toString())
                                .put("note", ack.note())
                                .put("expiresAt", ack.expiresAt() == null ? null : ack.expiresAt().toString())
                                .put("severity", ack.severity().label()));
            }

            @Override
            public Future<Boolean> unacknowledge(String id, String by, Instant now) {
                return known(id).compose(s -> s.unacknowledge(id, by, now));
            }

            @Override
            public Future<JsonObject> note(String id, String by, String text, Instant now) {
                return known(id).compose(s -> s.note(id, by, text, now)).map(AlertViews::event);
            }

            private Future<AlertService> known(String id) {
                AlertService s = service.get();
                if (s == null) {
                    return Future.failedFuture(new IllegalStateException("the alert service is starting"));
                }
                return s.alert(id) == null
                        ? Future.failedFuture(new AlertActions.NoSuchAlert("no alert " + id + " (firing, or resolved in the last 7 days)"))
                        : Future.succeededFuture(s);
            }
        };
    }

    private static JsonObject event(AlertEvent e) {
        return new JsonObject().put("at", e.at().toString()).put("kind", e.kind().label()).put("by", e.by()).put("text", e.text());
    }

    /**
     * One instance's windows, trends and spill forecasts as of the latest evaluation (a JSON-ready map);
     * null when that evaluation did not see the instance.
     */
    public static WindowsView windows(AlertService service) {
        return (host, instance, now) -> {
            AlertEvaluator.Evaluation e = service.lastEvaluation();
            if (e == null) {
                return null;
            }
            var ia = e.analysis().instance(host, instance);
            // Plain maps and lists, so any JSON mapper (the web layer uses Jackson) writes them as they are.
            return ia.isEmpty() ? null
                    : io.qatwatch.protocol.ReportJson.mapper().readValue(WindowsJson.of(ia.get()).encode(), java.util.Map.class);
        };
    }
}
