package io.qatwatch.collector.notify;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.dispatch.Notifier;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/** A chat channel reached by an HTTP webhook: the channel's payload format, posted by a {@link WebhookClient}. */
public final class WebhookNotifier implements Notifier {

    private final String name;
    private final Severity minSeverity;
    private final WebhookClient client;
    private final Function<Notification, JsonObject> payload;

    public WebhookNotifier(String name, Severity minSeverity, WebhookClient client, Function<Notification, JsonObject> payload) {
        this.name = name;
        this.minSeverity = minSeverity;
        this.client = client;
        this.payload = payload;
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
        return client.post(name, payload.apply(n), n.at());
    }
}
