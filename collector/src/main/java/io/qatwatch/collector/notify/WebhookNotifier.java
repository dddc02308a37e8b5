package io.qatwatch.collector.notify;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.dispatch.Notifier;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/**
 * A chat channel reached over HTTP: the channel's payload format posted by a {@link WebhookClient}, or a
 * channel-specific way of posting (an API that threads replies).
 */
public final class WebhookNotifier implements Notifier {

    private final String name;
    private final Severity minSeverity;
    private final Function<Notification, Future<Delivery>> post;

    /** Posts {@code payload} of each notification to the webhook. */
    public WebhookNotifier(String name, Severity minSeverity, WebhookClient client, Function<Notification, JsonObject> payload) {
        this(name, minSeverity, n -> client.post(name, payload.apply(n), n.at()));
    }

    /** Sends each notification with {@code post}, which never fails its future (a failure is a {@link Delivery}). */
    public WebhookNotifier(String name, Severity minSeverity, Function<Notification, Future<Delivery>> post) {
        this.name = name;
        this.minSeverity = minSeverity;
        this.post = post;
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
        return post.apply(n);
    }
}
