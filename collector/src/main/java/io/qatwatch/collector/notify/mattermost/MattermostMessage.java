package io.qatwatch.collector.notify.mattermost;

import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.vertx.core.json.JsonObject;

/** Mattermost incoming webhook message: one Markdown text posted as qatwatch. */
public final class MattermostMessage {

    private MattermostMessage() {
    }

    /** The message body. */
    public static JsonObject payload(Notification n) {
        return new JsonObject().put("text", MessageText.full(n, Markup.MARKDOWN)).put("username", "qatwatch");
    }
}
