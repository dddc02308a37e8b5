package io.qatwatch.collector.notify.webhook;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.Notification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A generic JSON webhook for anything else (ticketing, a pager bridge): the group with every alert in the
 * API's shape plus status, facts and series. Version 1 of this payload is documented in docs/alerts.md.
 */
public final class WebhookPayload {

    private WebhookPayload() {
    }

    /** The payload, version 1. */
    public static JsonObject payload(Notification n) {
        JsonArray alerts = new JsonArray();
        n.firing().forEach(r -> alerts.add(alert(r, n)));
        n.resolved().forEach(r -> alerts.add(alert(r, n)));
        return new JsonObject()
                .put("version", 1)
                .put("status", n.firing().isEmpty() ? "resolved" : "firing")
                .put("reason", n.reason().name().toLowerCase(java.util.Locale.ROOT))
                .put("groupKey", n.groupKey())
                .put("sentAt", n.at().toString())
                .put("statusPage", n.link())
                .put("alerts", alerts);
    }

    private static JsonObject alert(AlertRecord r, Notification n) {
        Alert a = r.alert();
        JsonObject facts = new JsonObject();
        a.facts().forEach(f -> facts.put(f.label(), f.value()));
        JsonArray series = new JsonArray();
        a.series().forEach(f -> series.add(new JsonObject().put("label", f.label()).put("value", f.value())));
        return new JsonObject()
                .put("id", a.id())
                .put("status", r.firing() ? "firing" : "resolved")
                .put("rule", a.rule())
                .put("severity", a.severity().label())
                .put("host", a.host())
                .put("instance", a.instance())
                .put("database", a.database())
                .put("summary", a.summary())
                .put("details", a.details())
                .put("since", r.since().toString())
                .put("resolvedAt", r.resolvedAt() == null ? null : r.resolvedAt().toString())
                .put("facts", facts)
                .put("series", series)
                .put("remarks", new JsonArray(n.remarks(r)))
                .put("link", n.link(r));
    }
}
