package io.qatwatch.collector.notify.mattermost;

import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.qatwatch.collector.notify.WebhookClient;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * Mattermost through {@code POST /api/v4/posts} with a bot token: the group's first message is a post whose
 * {@code id} Mattermost answers (201); updates and the resolution are replies to it ({@code root_id}).
 */
public final class MattermostApiPost {

    private final String name;
    private final WebhookClient client;
    private final String channelId;

    /** {@code client} posts to the server's {@code /api/v4/posts}. */
    public MattermostApiPost(String name, WebhookClient client, String channelId) {
        this.name = name;
        this.client = client;
        this.channelId = channelId;
    }

    /** Posts one notification; never a failed future. */
    public Future<Delivery> send(Notification n) {
        JsonObject post = new JsonObject().put("channel_id", channelId).put("message", MessageText.full(n, Markup.MARKDOWN));
        if (n.reply()) {
            post.put("root_id", n.threadId());
        }
        return client.post(name, post, n.at(), r -> {
            Delivery judged = WebhookClient.judge(name, r, n.at());
            if (!judged.delivered() || n.reply()) {
                return judged;
            }
            try {
                String id = r.bodyAsJsonObject() == null ? null : r.bodyAsJsonObject().getString("id");
                return id == null ? Delivery.failed(true, null, name + ": Mattermost answered " + r.statusCode()
                        + " without the post's id") : Delivery.ok(id);
            } catch (DecodeException | ClassCastException e) {
                return Delivery.failed(true, null, name + ": Mattermost answered " + r.statusCode() + " without a JSON post");
            }
        });
    }
}
