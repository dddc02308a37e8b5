package io.qatwatch.collector.notify.googlechat;

import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.vertx.core.json.JsonObject;

/** Google Chat incoming webhook message: one text in Google Chat's markup (*bold*, <url|text>). */
public final class GoogleChatMessage {

    private GoogleChatMessage() {
    }

    /** The message body. */
    public static JsonObject payload(Notification n) {
        return new JsonObject().put("text", MessageText.full(n, Markup.SLACK));
    }
}
