package io.qatwatch.collector.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.dispatch.NotificationDecision.Reason;
import io.qatwatch.collector.dispatch.Notifier;
import io.qatwatch.collector.notify.all.Notifiers;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every channel against a real server on loopback, asserting what a user would see. */
@ExtendWith(VertxExtension.class)
class ChannelsTest {

    private static final Instant SINCE = Instant.parse("2026-02-03T07:00:00Z");
    private static final Alert CREEP = new Alert("backup-window-creep", Severity.WARNING, "sql-fra-01", "PROD", null, "full",
            "Backup window margin shrinks 0.48 min/day; under 1 h 00 min by 2026-02-20",
            "The margin between the end of the nightly backup window and the start of business is shrinking night after night.",
            List.of(new Fact("Trend", "-0.48 min/day over the last 21 full nights (Theil–Sen)"),
                    new Fact("Forecast", "under the safety margin on the night before 2026-02-20 (in 17 days)"),
                    new Fact("Driven by", "Archive +0.48 min/day (now 5 h 47 min, 2.08 TB, size +0.97 %/week)")),
            List.of(new Fact("2026-02-02", "1 h 08 min"), new Fact("2026-02-03", "1 h 08 min")));
    private static final Alert MISSING = new Alert("backup-missing", Severity.CRITICAL, "sql-a", "MSSQLSERVER", "Sales", "log",
            "Newest log backup of Sales is 3 h old", "The newest backup is older than its objective.",
            List.of(new Fact("Objective", "a log backup at least every 60 min")), List.of());

    private final Loopback server = new Loopback();
    private String url;
    private Vertx vertx;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        int port = server.start(vertx).toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        url = "http://127.0.0.1:" + port + "/hooks/T000/B000/secret";
    }

    @AfterEach
    void stop() throws Exception {
        server.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static Notification notification() {
        return new Notification("rule=backup-window-creep,host=sql-fra-01,instance=PROD", Reason.FIRST,
                List.of(new AlertRecord(CREEP, SINCE, null, false)),
                List.of(new AlertRecord(MISSING, SINCE.minusSeconds(7200), SINCE.plusSeconds(600), false)),
                "https://qatwatch.example.test/", SINCE.plusSeconds(900));
    }

    private JsonObject send(String type) throws Exception {
        Notifier n = Notifiers.create(vertx, List.of(ChannelConfig.webhook(type, url)), new Secrets(Map.of())).get(0);
        Delivery d = n.send(notification()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(d.delivered()).as(String.valueOf(d.error())).isTrue();
        assertThat(server.received).hasSize(1);
        assertThat(server.received.get(0).path()).isEqualTo("/hooks/T000/B000/secret");
        assertThat(server.received.get(0).contentType()).startsWith("application/json");
        return server.received.get(0).body();
    }

    @Test
    void slackBlockKit() throws Exception {
        JsonObject body = send("slack");
        assertThat(body.getString("text")).isEqualTo("[FIRING 1, resolved 1] backup-window-creep on sql-fra-01 / PROD");
        JsonArray blocks = body.getJsonArray("blocks");
        assertThat(blocks.getJsonObject(0).getJsonObject("text").getString("text"))
                .isEqualTo("[FIRING 1, resolved 1] backup-window-creep on sql-fra-01 / PROD");
        String section = blocks.getJsonObject(1).getJsonObject("text").getString("text");
        assertThat(section).startsWith("WARNING *Backup window margin shrinks 0.48 min/day; under 1 h 00 min by 2026-02-20*\n"
                + "sql-fra-01 / PROD · since 2026-02-03 07:00 UTC\n")
                .endsWith("<https://qatwatch.example.test/#alert-" + CREEP.id() + "|Open on the status page>");
        JsonArray fields = blocks.getJsonObject(2).getJsonArray("fields");
        assertThat(fields.getJsonObject(1).getString("text"))
                .isEqualTo("*Forecast*\nunder the safety margin on the night before 2026-02-20 (in 17 days)");
        assertThat(blocks.getJsonObject(3).getJsonArray("elements").getJsonObject(0).getString("text"))
                .isEqualTo("*Margins, night before:* 2026-02-02 1 h 08 min, 2026-02-03 1 h 08 min");
        assertThat(blocks.encode()).contains("RESOLVED *Newest log backup of Sales is 3 h old*")
                .contains("<https://qatwatch.example.test/|qatwatch status page>");
    }

    @Test
    void teamsAdaptiveCardThroughWorkflows() throws Exception {
        JsonObject body = send("teams");
        assertThat(body.getString("type")).isEqualTo("message");
        JsonObject attachment = body.getJsonArray("attachments").getJsonObject(0);
        assertThat(attachment.getString("contentType")).isEqualTo("application/vnd.microsoft.card.adaptive");
        JsonObject card = attachment.getJsonObject("content");
        assertThat(card.getString("type")).isEqualTo("AdaptiveCard");
        assertThat(card.getString("version")).isEqualTo("1.4");
        JsonArray cardBody = card.getJsonArray("body");
        assertThat(cardBody.getJsonObject(1).getString("text"))
                .isEqualTo("WARNING: Backup window margin shrinks 0.48 min/day; under 1 h 00 min by 2026-02-20");
        JsonArray facts = cardBody.getJsonObject(4).getJsonArray("facts");
        assertThat(facts.getJsonObject(2).getString("title")).isEqualTo("Driven by");
        assertThat(facts.getJsonObject(3).getString("value")).isEqualTo("2026-02-02 1 h 08 min, 2026-02-03 1 h 08 min");
        assertThat(cardBody.getJsonObject(5).getString("text")).isEqualTo("RESOLVED: Newest log backup of Sales is 3 h old");
        assertThat(card.getJsonArray("actions").getJsonObject(0).getString("url")).isEqualTo("https://qatwatch.example.test/");
    }

    @Test
    void googleChatText() throws Exception {
        String text = send("googlechat").getString("text");
        assertThat(text).startsWith("*[FIRING 1, resolved 1] backup-window-creep on sql-fra-01 / PROD*\n\n")
                .contains("*Forecast*: under the safety margin on the night before 2026-02-20 (in 17 days)\n")
                .contains("*Margins, night before*: 2026-02-02 1 h 08 min, 2026-02-03 1 h 08 min\n")
                .contains("RESOLVED *Newest log backup of Sales is 3 h old*")
                .endsWith("<https://qatwatch.example.test/|qatwatch status page>");
    }

    @Test
    void mattermostMarkdown() throws Exception {
        JsonObject body = send("mattermost");
        assertThat(body.getString("username")).isEqualTo("qatwatch");
        assertThat(body.getString("text")).startsWith("**[FIRING 1, resolved 1] backup-window-creep on sql-fra-01 / PROD**")
                .contains("**Driven by**: Archive +0.48 min/day (now 5 h 47 min, 2.08 TB, size +0.97 %/week)")
                .contains("[Open on the status page](https://qatwatch.example.test/#alert-" + CREEP.id() + ")");
    }

    @Test
    void genericWebhookWithBearerTokenFromAFile(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        ChannelConfig c = new ChannelConfig("webhook", "tickets", null, null, "TICKETS_URL", token.toString(), null, null, null,
                null, null, null, null, null, null, null, null);
        Notifier n = Notifiers.create(vertx, List.of(c), new Secrets(Map.of("TICKETS_URL", url))).get(0);
        assertThat(n.send(notification()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).delivered()).isTrue();
        Loopback.Received r = server.received.get(0);
        assertThat(r.authorization()).isEqualTo("Bearer s3cret-token");
        JsonObject body = r.body();
        assertThat(body.getInteger("version")).isEqualTo(1);
        assertThat(body.getString("status")).isEqualTo("firing");
        assertThat(body.getString("reason")).isEqualTo("first");
        JsonObject creep = body.getJsonArray("alerts").getJsonObject(0);
        assertThat(creep.getString("rule")).isEqualTo("backup-window-creep");
        assertThat(creep.getString("severity")).isEqualTo("warning");
        assertThat(creep.getString("since")).isEqualTo("2026-02-03T07:00:00Z");
        assertThat(creep.getJsonObject("facts").getString("Forecast")).contains("2026-02-20");
        JsonObject missing = body.getJsonArray("alerts").getJsonObject(1);
        assertThat(missing.getString("status")).isEqualTo("resolved");
        assertThat(missing.getString("database")).isEqualTo("Sales");
        assertThat(missing.getString("resolvedAt")).isEqualTo("2026-02-03T07:10:00Z");
    }

    @Test
    void failuresSayWhetherToRetryAndNeverShowTheSecretUrl() throws Exception {
        server.then(429, "7").then(500, null).then(400, null);
        Notifier n = Notifiers.create(vertx, List.of(ChannelConfig.webhook("slack", url)), new Secrets(Map.of())).get(0);
        Delivery tooMany = n.send(notification()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(tooMany.retryable()).isTrue();
        assertThat(tooMany.retryAfter()).hasSeconds(7);
        Delivery broken = n.send(notification()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(broken.retryable()).isTrue();
        assertThat(broken.error()).isEqualTo("slack: HTTP 500 scripted 500");
        Delivery refused = n.send(notification()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(refused.retryable()).isFalse();

        server.then(0, null); // never answers
        ChannelConfig slow = new ChannelConfig("slack", null, url, null, null, null, null, 1, null, null, null, null, null,
                null, null, null, null);
        Delivery timeout = Notifiers.create(vertx, List.of(slow), new Secrets(Map.of())).get(0).send(notification())
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(timeout.retryable()).isTrue();
        assertThat(timeout.error()).doesNotContain("secret").contains("<webhook path>");
    }

    @Test
    void emailThroughARealSmtpServer() throws Exception {
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        try {
            ChannelConfig c = new ChannelConfig("email", "dba-mail", null, null, null, null, null, 5, null, "127.0.0.1",
                    smtp.getSmtp().getPort(), "DISABLED", null, null, null, "qatwatch@example.test", List.of("dba@example.test"));
            Notifier n = Notifiers.create(vertx, List.of(c), new Secrets(Map.of())).get(0);
            Delivery d = n.send(notification()).toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            assertThat(d.delivered()).as(String.valueOf(d.error())).isTrue();
            assertThat(smtp.waitForIncomingEmail(5000, 1)).isTrue();
            MimeMessage m = smtp.getReceivedMessages()[0];
            assertThat(m.getSubject()).isEqualTo("qatwatch [FIRING 1, resolved 1] backup-window-creep on sql-fra-01 / PROD");
            assertThat(m.getAllRecipients()[0].toString()).isEqualTo("dba@example.test");
            String text = (String) m.getContent();
            assertThat(text).contains("WARNING Backup window margin shrinks 0.48 min/day")
                    .contains("Forecast: under the safety margin on the night before 2026-02-20")
                    .contains("Open on the status page: https://qatwatch.example.test/#alert-" + CREEP.id());
        } finally {
            smtp.stop();
        }
    }

    @Test
    void requiredStartTlsNeverFallsBackToPlainText() throws Exception {
        // GreenMail offers no STARTTLS (greenmail-mail-test/greenmail#135): a relay that cannot encrypt gets nothing.
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        try {
            ChannelConfig c = new ChannelConfig("email", "dba-mail", null, null, null, null, null, 5, null, "127.0.0.1",
                    smtp.getSmtp().getPort(), null, null, null, null, "qatwatch@example.test", List.of("dba@example.test"));
            assertThat(c.startTls()).isEqualTo("REQUIRED");
            Delivery d = Notifiers.create(vertx, List.of(c), new Secrets(Map.of())).get(0).send(notification())
                    .toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            assertThat(d.delivered()).isFalse();
            assertThat(d.error()).startsWith("dba-mail: SMTP ").containsIgnoringCase("STARTTLS");
            assertThat(smtp.getReceivedMessages()).isEmpty();
        } finally {
            smtp.stop();
        }
    }
}
