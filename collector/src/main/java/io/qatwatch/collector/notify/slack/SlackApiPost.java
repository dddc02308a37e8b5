package io.qatwatch.collector.notify.slack;

import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.WebhookClient;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Instant;
import java.util.Set;

/**
 * Slack through {@code chat.postMessage} with a bot token: the group's first message starts a thread, whose
 * {@code ts} Slack answers; updates and the resolution are replies ({@code thread_ts}). Slack answers 200 with
 * {@code "ok": false} for refusals, so the body decides.
 */
public final class SlackApiPost {

    /** Slack errors that may pass when tried again; the others (invalid_auth, channel_not_found, ...) will not. */
    static final Set<String> RETRYABLE = Set.of("ratelimited", "internal_error", "fatal_error", "service_unavailable",
            "request_timeout");

    private final String name;
    private final WebhookClient client;
    private final String channel;

    public SlackApiPost(String name, WebhookClient client, String channel) {
        this.name = name;
        this.client = client;
        this.channel = channel;
    }

    /** Posts one notification; never a failed future. */
    public Future<Delivery> send(Notification n) {
        JsonObject body = SlackMessage.payload(n).put("channel", channel);
        if (n.reply()) {
            body.put("thread_ts", n.threadId());
        }
        return client.post(name, body, n.at(), r -> answer(r, n.at(), n.reply()));
    }

    private Delivery answer(HttpResponse<Buffer> r, Instant now, boolean reply) {
        if (r.statusCode() != 200) {
            return WebhookClient.judge(name, r, now);
        }
        JsonObject json;
        try {
            json = r.bodyAsJsonObject();
        } catch (DecodeException e) {
            json = null;
        }
        if (json == null) {
            return Delivery.failed(true, null, name + ": Slack answered 200 without a JSON body");
        }
        if (!json.getBoolean("ok", false)) {
            String error = json.getString("error", "unknown error");
            return Delivery.failed(RETRYABLE.contains(error), null, name + ": Slack refused the message: " + error);
        }
        return reply ? Delivery.ok() : Delivery.ok(json.getString("ts"));
    }
}
