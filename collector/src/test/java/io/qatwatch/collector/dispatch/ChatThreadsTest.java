package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.notify.Loopback.Received;
import io.qatwatch.collector.notify.Loopback.Reply;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Updates and resolutions reply in the thread of a group's first message, on each platform as its API does it: a
 * server on loopback answers like Slack's {@code chat.postMessage} ({@code ts}), Mattermost's {@code POST /api/v4/posts}
 * (the post {@code id}) and a Google Chat webhook, and GreenMail takes the mail; an injected clock drives the alert.
 */
@ExtendWith(VertxExtension.class)
class ChatThreadsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T02:00:00Z");

    private final Loopback api = new Loopback();
    private final GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    private final AtomicReference<List<Alert>> firing = new AtomicReference<>(List.of());
    private final AtomicInteger posts = new AtomicInteger();
    private final List<String> slackTs = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<String> postIds = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Database db;
    private AlertService service;

    /** What each platform answers a good request, as its documentation shows it. */
    private Reply answer(Received r) {
        int n = posts.incrementAndGet();
        if (r.path().equals("/api/chat.postMessage")) {
            if (!"Bearer xoxb-test-token".equals(r.authorization())) {
                return new Reply(200, new JsonObject().put("ok", false).put("error", "invalid_auth"));
            }
            String ts = "1764554400." + String.format("%06d", n);
            slackTs.add(ts);
            return new Reply(200, new JsonObject().put("ok", true).put("channel", r.body().getString("channel"))
                    .put("ts", ts).put("message", new JsonObject().put("type", "message")
                            .put("text", r.body().getString("text"))));
        }
        if (r.path().equals("/mm/api/v4/posts")) {
            String id = String.format("qwpost%06d", n) + "x".repeat(14);
            postIds.add(id);
            return new Reply(201, new JsonObject().put("id", id).put("create_at", 1764554400000L)
                    .put("channel_id", r.body().getString("channel_id")).put("root_id", r.body().getString("root_id", ""))
                    .put("message", r.body().getString("message")));
        }
        JsonObject thread = r.body().getJsonObject("thread", new JsonObject());
        return new Reply(200, new JsonObject().put("name", "spaces/AAAA/messages/m" + n)
                .put("thread", new JsonObject().put("name", "spaces/AAAA/threads/t-" + thread.getString("threadKey"))
                        .put("threadKey", thread.getString("threadKey"))));
    }

    @BeforeEach
    void start(Vertx vertx, @TempDir Path dir) throws Exception {
        int port = await(api.answering(this::answer).start(vertx));
        smtp.start();
        String base = "http://127.0.0.1:" + port;
        db = Database.open(dir);
        List<ChannelConfig> channels = List.of(
                ChannelConfig.botApi("slack", "dba-slack", base + "/api/chat.postMessage", "C0123ABCDEF", "SLACK_BOT_TOKEN"),
                ChannelConfig.botApi("mattermost", "dba-mm", base + "/mm/", "4xp9fdt8pjgyxn7fyt9ah3csdh", "MM_BOT_TOKEN"),
                ChannelConfig.webhook("googlechat", base + "/v1/spaces/AAAA/messages?key=k&token=t"),
                new ChannelConfig("email", "dba-mail", null, null, null, null, null, 5, null, "127.0.0.1",
                        smtp.getSmtp().getPort(), "DISABLED", null, null, null, "qatwatch@example.test", List.of("dba@example.test")));
        AlertsConfig config = new AlertsConfig(null, null, null, null, null,
                new PipelineConfig(List.of("rule", "host"), 240, 1, 4, "https://qatwatch.example.test/", null, null, null),
                channels).validate();
        AlertEvaluator scripted = new AlertEvaluator(config.analysis(), config.rules(),
                Map.of("scripted", (fleet, rules) -> firing.get()));
        service = new AlertService(vertx, db, scripted, config.pipeline(), Notifiers.create(vertx, config.channels(),
                new Secrets(Map.of("SLACK_BOT_TOKEN", "xoxb-test-token", "MM_BOT_TOKEN", "mm-test-token"))), new Random(2));
        await(service.start());
    }

    @AfterEach
    void stop() throws Exception {
        await(api.stop());
        smtp.stop();
        db.close();
    }

    private static Alert fallback(Severity s) {
        return new Alert("qat-fallback", s, "sql01", "PROD", null, null, "QAT backup compression fell back to software mode",
                "why", List.of(), List.of());
    }

    private void at(Instant now) throws Exception {
        await(service.evaluate(new FleetState(List.of()), now));
    }

    private List<JsonObject> bodiesAt(String path) {
        return api.received.stream().filter(r -> r.path().equals(path)).map(Received::body).toList();
    }

    @Test
    void updatesAndTheResolutionReplyInTheFirstMessagesThreadAndTheNextIncidentStartsANewOne() throws Exception {
        firing.set(List.of(fallback(Severity.WARNING)));
        at(T0);
        firing.set(List.of(fallback(Severity.CRITICAL)));
        at(T0.plusSeconds(60));
        firing.set(List.of());
        at(T0.plusSeconds(120));
        firing.set(List.of(fallback(Severity.WARNING)));
        at(T0.plusSeconds(3600));

        List<JsonObject> slack = bodiesAt("/api/chat.postMessage");
        assertThat(slack).hasSize(4);
        assertThat(slack).allSatisfy(b -> assertThat(b.getString("channel")).isEqualTo("C0123ABCDEF"));
        assertThat(slack.get(0).containsKey("thread_ts")).isFalse();
        String ts = slackTs.get(0);
        assertThat(slack.get(1).getString("thread_ts")).as("the update replies to the first message's ts").isEqualTo(ts);
        assertThat(slack.get(2).getString("thread_ts")).as("so does the resolution").isEqualTo(ts);
        assertThat(slack.get(2).getString("text")).startsWith("[RESOLVED]");
        assertThat(slack.get(3).containsKey("thread_ts")).as("a new incident, a new thread").isFalse();
        assertThat(api.received.stream().filter(r -> r.path().equals("/api/chat.postMessage")).map(Received::authorization))
                .containsOnly("Bearer xoxb-test-token");

        List<Received> mm = api.received.stream().filter(r -> r.path().equals("/mm/api/v4/posts")).toList();
        assertThat(mm).hasSize(4);
        assertThat(mm.get(0).body().containsKey("root_id")).isFalse();
        String root = mm.get(1).body().getString("root_id");
        assertThat(root).as("the first post's id, as Mattermost answered it").isEqualTo(postIds.get(0)).hasSize(26);
        assertThat(mm.get(2).body().getString("root_id")).isEqualTo(root);
        assertThat(mm.get(3).body().containsKey("root_id")).isFalse();
        assertThat(mm.get(0).body().getString("channel_id")).isEqualTo("4xp9fdt8pjgyxn7fyt9ah3csdh");
        assertThat(mm.get(0).authorization()).isEqualTo("Bearer mm-test-token");

        List<Received> chat = api.received.stream().filter(r -> r.path().equals("/v1/spaces/AAAA/messages")).toList();
        assertThat(chat).hasSize(4);
        assertThat(chat).allSatisfy(r -> assertThat(r.uri())
                .endsWith("?key=k&token=t&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD"));
        String key = chat.get(0).body().getJsonObject("thread").getString("threadKey");
        assertThat(chat.get(1).body().getJsonObject("thread").getString("threadKey")).isEqualTo(key);
        assertThat(chat.get(2).body().getJsonObject("thread").getString("threadKey")).isEqualTo(key);
        assertThat(chat.get(3).body().getJsonObject("thread").getString("threadKey")).isNotEqualTo(key);

        assertThat(smtp.waitForIncomingEmail(10_000, 4)).isTrue();
        MimeMessage[] mails = smtp.getReceivedMessages();
        String first = mails[0].getMessageID();
        assertThat(first).startsWith("<").endsWith(">");
        assertThat(mails[0].getHeader("In-Reply-To")).isNull();
        for (int i = 1; i <= 2; i++) {
            assertThat(mails[i].getHeader("In-Reply-To")).containsExactly(first);
            assertThat(mails[i].getHeader("References")).containsExactly(first);
        }
        assertThat(mails[3].getHeader("In-Reply-To")).isNull();
    }

    @Test
    void aRefusalInAnOkAnswerIsAFailureCountedForTheChannel() throws Exception {
        api.answering(r -> r.path().equals("/api/chat.postMessage")
                ? new Reply(200, new JsonObject().put("ok", false).put("error", "channel_not_found")) : answer(r));
        firing.set(List.of(fallback(Severity.WARNING)));
        at(T0);
        var health = service.channelHealth();
        assertThat(health.get("dba-slack").failed()).isEqualTo(1);
        assertThat(health.get("dba-slack").lastError()).isEqualTo("dba-slack: Slack refused the message: channel_not_found");
        assertThat(health.get("dba-slack").failing()).isTrue();
        assertThat(health.get("dba-mm").failed()).isZero();
        assertThat(health.get("dba-mm").delivered()).isEqualTo(1);
        assertThat(bodiesAt("/api/chat.postMessage")).as("not retried: Slack will not find the channel next time either")
                .hasSize(1);
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
