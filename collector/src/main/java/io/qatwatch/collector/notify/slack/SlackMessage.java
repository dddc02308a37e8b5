package io.qatwatch.collector.notify.slack;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.stream.Collectors;

/** Slack incoming webhook message in Block Kit: a header, per alert a section, its numbers as fields, and the link. */
public final class SlackMessage {

    /** Slack rejects a section text over 3000 characters and more than 10 fields. */
    private static final int MAX_TEXT = 3000;
    private static final int MAX_FIELDS = 10;

    private SlackMessage() {
    }

    /** The Block Kit message. */
    public static JsonObject payload(Notification n) {
        JsonArray blocks = new JsonArray();
        blocks.add(new JsonObject().put("type", "header")
                .put("text", new JsonObject().put("type", "plain_text").put("text", cut(MessageText.title(n), 150))));
        for (AlertRecord r : n.firing()) {
            blocks.add(section(MessageText.alert(r, n, Markup.SLACK, false)));
            JsonArray fields = new JsonArray();
            for (Alert.Fact f : r.alert().facts()) {
                if (fields.size() < MAX_FIELDS) {
                    fields.add(mrkdwn("*" + f.label() + "*\n" + cut(f.value(), 1900)));
                }
            }
            if (!fields.isEmpty()) {
                blocks.add(new JsonObject().put("type", "section").put("fields", fields));
            }
            if (!r.alert().series().isEmpty()) {
                blocks.add(new JsonObject().put("type", "context").put("elements", new JsonArray().add(mrkdwn(cut(
                        "*" + MessageText.seriesLabel(r.alert()) + ":* " + r.alert().series().stream()
                                .map(f -> f.label() + " " + f.value()).collect(Collectors.joining(", ")), MAX_TEXT)))));
            }
            blocks.add(new JsonObject().put("type", "divider"));
        }
        for (AlertRecord r : n.resolved()) {
            blocks.add(section(MessageText.alert(r, n, Markup.SLACK, false)));
        }
        blocks.add(new JsonObject().put("type", "context").put("elements",
                new JsonArray().add(mrkdwn("<" + n.link() + "|qatwatch status page>"))));
        return new JsonObject().put("text", MessageText.title(n)).put("blocks", blocks);
    }

    private static JsonObject section(String text) {
        return new JsonObject().put("type", "section").put("text", mrkdwn(cut(text, MAX_TEXT)));
    }

    private static JsonObject mrkdwn(String text) {
        return new JsonObject().put("type", "mrkdwn").put("text", text);
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
