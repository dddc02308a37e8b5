package io.qatwatch.collector.notify.teams;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.MessageText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneOffset;
import java.util.stream.Collectors;

/**
 * Microsoft Teams through a Workflows ("Post to a channel when a webhook request is received") webhook:
 * a message whose attachment is an Adaptive Card with a FactSet per alert and a button to the status page.
 */
public final class TeamsCard {

    private TeamsCard() {
    }

    /** The Workflows message with its Adaptive Card. */
    public static JsonObject payload(Notification n) {
        JsonArray body = new JsonArray();
        body.add(text(MessageText.title(n), "Large", "Bolder", n.firing().isEmpty() ? "Good" : "Attention"));
        for (AlertRecord r : n.firing()) {
            Alert a = r.alert();
            body.add(text(a.severity().name() + ": " + a.summary(), "Medium", "Bolder", null));
            body.add(text(a.where() + " · since " + r.since().atOffset(ZoneOffset.UTC), null, null, null).put("isSubtle", true));
            for (String remark : n.remarks(r)) {
                body.add(text(remark, null, "Bolder", null));
            }
            body.add(text(a.why(), null, null, null));
            JsonArray facts = new JsonArray();
            a.facts().forEach(f -> facts.add(new JsonObject().put("title", f.label()).put("value", f.value())));
            if (!a.series().isEmpty()) {
                facts.add(new JsonObject().put("title", MessageText.seriesLabel(a)).put("value",
                        a.series().stream().map(f -> f.label() + " " + f.value()).collect(Collectors.joining(", "))));
            }
            body.add(new JsonObject().put("type", "FactSet").put("facts", facts));
        }
        for (AlertRecord r : n.resolved()) {
            body.add(text("RESOLVED: " + r.alert().summary(), "Medium", "Bolder", "Good"));
            body.add(text(r.alert().where() + " · resolved " + r.resolvedAt().atOffset(ZoneOffset.UTC), null, null, null));
        }
        JsonObject card = new JsonObject()
                .put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json")
                .put("type", "AdaptiveCard")
                .put("version", "1.4")
                .put("body", body)
                .put("actions", new JsonArray().add(new JsonObject().put("type", "Action.OpenUrl")
                        .put("title", "Open status page").put("url", n.link())));
        return new JsonObject().put("type", "message").put("attachments", new JsonArray().add(new JsonObject()
                .put("contentType", "application/vnd.microsoft.card.adaptive")
                .putNull("contentUrl")
                .put("content", card)));
    }

    private static JsonObject text(String text, String size, String weight, String color) {
        JsonObject t = new JsonObject().put("type", "TextBlock").put("text", text).put("wrap", true);
        if (size != null) {
            t.put("size", size);
        }
        if (weight != null) {
            t.put("weight", weight);
        }
        if (color != null) {
            t.put("color", color);
        }
        return t;
    }
}
