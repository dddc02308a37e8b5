package io.qatwatch.collector.notify.googlechat;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.notify.Delivery;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.qatwatch.collector.notify.Notification;
import io.qatwatch.collector.notify.Notifier;
import io.qatwatch.collector.notify.WebhookClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Google Chat incoming webhook: one text message in Google Chat's markup (*bold*, <url|text>). */
public final class GoogleChatNotifier implements Notifier {

    private final String name;
    private final Severity minSeverity;
    private final WebhookClient client;

    public GoogleChatNotifier(String name, Severity minSeverity, WebhookClient client) {
        this.name = name;
        this.minSeverity = minSeverity;
        this.client = client;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Severity minSeverity() {
        return minSeverity;
    }

    @Override
    public Future<Delivery> send(Notification n) {
        return client.post(name, payload(n), n.at());
    }

    /** The message body. */
    public static JsonObject payload(Notification n) {
        return new JsonObject().put("text", MessageText.full(n, Markup.SLACK));
    }
}
