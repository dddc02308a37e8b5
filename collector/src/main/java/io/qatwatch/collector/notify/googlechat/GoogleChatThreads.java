package io.qatwatch.collector.notify.googlechat;

import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.notify.WebhookClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Google Chat's incoming webhook with threads: every message of a group carries the same {@code thread.threadKey}
 * (made up for the group's first message), and the webhook URL asks for
 * {@code messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD}, so updates and the resolution reply in it.
 */
public final class GoogleChatThreads {

    /** What the webhook URL gets added so that a threadKey replies in its thread. */
    public static final String REPLY_OPTION = "messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD";

    private final String name;
    private final WebhookClient client;

    /** {@code client} posts to the webhook URL with {@link #REPLY_OPTION} added ({@link #withReplyOption}). */
    public GoogleChatThreads(String name, WebhookClient client) {
        this.name = name;
        this.client = client;
    }

    /** {@code url} with {@link #REPLY_OPTION} in its query. */
    public static String withReplyOption(String url) {
        return url.contains("messageReplyOption=") ? url : url + (url.contains("?") ? "&" : "?") + REPLY_OPTION;
    }

    /** Posts one notification; never a failed future. */
    public Future<Delivery> send(Notification n) {
        String key = n.reply() ? n.threadId() : threadKey(n);
        JsonObject body = GoogleChatMessage.payload(n).put("thread", new JsonObject().put("threadKey", key));
        return client.post(name, body, n.at()).map(d -> d.delivered() && !n.reply() ? Delivery.ok(key) : d);
    }

    /** A key of the group and the time its thread starts: a new thread per incident. */
    static String threadKey(Notification n) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((n.groupKey() + "\u0000" + n.at())
                    .getBytes(StandardCharsets.UTF_8));
            return "qatwatch-" + HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JVM", e);
        }
    }
}
