package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.MovableClock;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector as {@code qatwatch collector} runs it: a report arrives over HTTP, the analysis stage
 * evaluates the fleet, the alert reaches a webhook on loopback, the alerts and windows APIs and the status page.
 */
class AlertStageTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T06:20:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;

    /** The chat receiver's Vert.x; the collector runs on its own. */
    private final Vertx vertx = Vertx.vertx();
    private RunningCollector running;
    private Collector collector;

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void aStoredReportRaisesTheAlertInChatAndInTheApi() throws Exception {
        List<JsonObject> received = new CopyOnWriteArrayList<>();
        HttpServer hook = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            received.add(body.toJsonObject());
            req.response().setStatusCode(200).end();
        })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        AlertsConfig alerts = new AlertsConfig(null, null, null, null, null, null,
                List.of(ChannelConfig.webhook("webhook", "http://127.0.0.1:" + hook.actualPort() + "/hook")));
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0).withAlerts(alerts)
                .withStatusPage("http://qatwatch.example.org/");
        running = RunningCollector.withAlertStage(config, data, CLOCK);
        collector = running.collector();

        String agent = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
        String reader = collector.tokens().add("grafana", TokenStore.Kind.READ, CLOCK.instant());
        WebClient http = running.http();
        int status = http.post(collector.port(), "127.0.0.1", "/api/v1/reports")
                .putHeader("Authorization", "Bearer " + agent).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(GoldenReports.bytes(GoldenReports.COMPLETE))).await(10, TimeUnit.SECONDS)
                .statusCode();
        assertThat(status).isEqualTo(202);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        JsonArray active = new JsonArray();
        while (System.nanoTime() < deadline && (active.isEmpty() || received.isEmpty())) {
            Thread.sleep(250);
            active = http.get(collector.port(), "127.0.0.1", "/api/v1/alerts")
                    .putHeader("Authorization", "Bearer " + reader).send().await(10, TimeUnit.SECONDS).bodyAsJsonArray();
        }
        assertThat(active).hasSize(1);
        JsonObject alert = active.getJsonObject(0);
        assertThat(alert.getString("rule")).isEqualTo("backup-missing");
        assertThat(alert.getString("host")).isEqualTo("sql01");
        assertThat(alert.getString("database")).isEqualTo("Sales");

        assertThat(received).isNotEmpty();
        JsonObject message = received.get(0);
        assertThat(message.getString("status")).isEqualTo("firing");
        assertThat(message.getString("statusPage")).startsWith("http://qatwatch.example.org/");
        assertThat(message.getJsonArray("alerts").getJsonObject(0).getString("rule")).isEqualTo("backup-missing");

        JsonObject windows = http.get(collector.port(), "127.0.0.1", "/api/v1/instances/sql01/MSSQLSERVER/windows")
                .putHeader("Authorization", "Bearer " + reader).send().await(10, TimeUnit.SECONDS).bodyAsJsonObject();
        assertThat(windows.getJsonArray("windows")).hasSize(1);

        String page = http.get(collector.port(), "127.0.0.1", "/").send().await(10, TimeUnit.SECONDS).bodyAsString();
        assertThat(page).contains("backup-missing").contains("Sales").contains("<svg");
    }

    @Test
    void silencesAreCreatedListedAndEndedThroughTheApiByOperatorsOnly() throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0);
        running = RunningCollector.withAlertStage(config, data, CLOCK);
        collector = running.collector();
        String reader = collector.tokens().add("grafana", TokenStore.Kind.READ, CLOCK.instant());
        String operator = collector.tokens().add("oncall", TokenStore.Kind.OPERATOR, CLOCK.instant());
        String agent = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
        WebClient http = running.http();
        JsonObject good = new JsonObject().put("rule", "backup-missing").put("host", "sql01")
                .put("comment", "decommissioning sql01").put("minutes", 120);

        var refused = http.post(collector.port(), "127.0.0.1", "/api/v1/silences")
                .putHeader("Authorization", "Bearer " + operator)
                .sendJsonObject(new JsonObject().put("host", "sql01").put("comment", "patching").put("endsAt", "2026-11-29T00:00:00Z"))
                .await(10, TimeUnit.SECONDS);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.bodyAsJsonObject().getString("field")).isEqualTo("endsAt");
        assertThat(http.post(collector.port(), "127.0.0.1", "/api/v1/silences")
                .sendJsonObject(good).await(10, TimeUnit.SECONDS).statusCode()).as("no token").isEqualTo(401);
        var byReader = http.post(collector.port(), "127.0.0.1", "/api/v1/silences")
                .putHeader("Authorization", "Bearer " + reader).sendJsonObject(good).await(10, TimeUnit.SECONDS);
        assertThat(byReader.statusCode()).as("a read token may not silence").isEqualTo(403);
        assertThat(byReader.bodyAsJsonObject().getString("error")).contains("an operator or admin token")
                .contains("grafana holds a read token");
        assertThat(http.post(collector.port(), "127.0.0.1", "/api/v1/silences")
                .putHeader("Authorization", "Bearer " + agent).sendJsonObject(good).await(10, TimeUnit.SECONDS)
                .statusCode()).as("nor an agent token").isEqualTo(403);

        var created = http.post(collector.port(), "127.0.0.1", "/api/v1/silences")
                .putHeader("Authorization", "Bearer " + operator).sendJsonObject(good).await(10, TimeUnit.SECONDS);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonObject silence = created.bodyAsJsonObject();
        assertThat(silence.getString("createdBy")).isEqualTo("oncall");
        assertThat(silence.getString("endsAt")).isEqualTo("2026-11-30T08:20:00Z");

        JsonArray listed = http.get(collector.port(), "127.0.0.1", "/api/v1/silences")
                .putHeader("Authorization", "Bearer " + reader).send().await(10, TimeUnit.SECONDS).bodyAsJsonArray();
        assertThat(listed).as("read tokens still read").hasSize(1);

        String path = "/api/v1/silences/" + silence.getString("id");
        assertThat(http.delete(collector.port(), "127.0.0.1", path).putHeader("Authorization", "Bearer " + reader)
                .send().await(10, TimeUnit.SECONDS).statusCode()).isEqualTo(403);
        assertThat(http.delete(collector.port(), "127.0.0.1", path).putHeader("Authorization", "Bearer " + operator)
                .send().await(10, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
        assertThat(http.delete(collector.port(), "127.0.0.1", path).putHeader("Authorization", "Bearer " + operator)
                .send().await(10, TimeUnit.SECONDS).statusCode()).isEqualTo(404);
    }

    @Test
    void anOperatorAcknowledgesAndAnnotatesAnAlertThroughTheApiAndEveryReaderSeesIt() throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0);
        running = RunningCollector.withAlertStage(config, data, CLOCK);
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        String reader = running.token("grafana", TokenStore.Kind.READ);
        String operator = running.token("oncall", TokenStore.Kind.OPERATOR);
        assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(202);
        running.evaluate();
        JsonObject alert = running.get("/api/v1/alerts", reader).bodyAsJsonArray().getJsonObject(0);
        assertThat(alert.getValue("acknowledged")).isNull();
        String path = "/api/v1/alerts/" + alert.getString("id");

        JsonObject ack = new JsonObject().put("note", "restoring Sales' backup job").put("minutes", 90);
        assertThat(running.request(HttpMethod.POST, path + "/acknowledge", reader).sendJsonObject(ack)
                .await(10, TimeUnit.SECONDS).statusCode()).as("reading is not acknowledging").isEqualTo(403);
        var bad = running.request(HttpMethod.POST, path + "/acknowledge", operator)
                .sendJsonObject(new JsonObject().put("minutes", 60 * 24 * 31)).await(10, TimeUnit.SECONDS);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.bodyAsJsonObject().getString("field")).isEqualTo("minutes");
        assertThat(running.request(HttpMethod.POST, "/api/v1/alerts/0000000000000000/acknowledge", operator)
                .sendJsonObject(ack).await(10, TimeUnit.SECONDS).statusCode()).isEqualTo(404);

        var taken = running.request(HttpMethod.POST, path + "/acknowledge", operator).sendJsonObject(ack)
                .await(10, TimeUnit.SECONDS);
        assertThat(taken.statusCode()).isEqualTo(200);
        assertThat(taken.bodyAsJsonObject().getString("expiresAt")).isEqualTo("2026-11-30T07:50:00Z");
        assertThat(running.request(HttpMethod.POST, path + "/notes", operator)
                .sendJsonObject(new JsonObject().put("text", "job owner paged")).await(10, TimeUnit.SECONDS)
                .statusCode()).isEqualTo(201);

        JsonObject listed = running.get("/api/v1/alerts", reader).bodyAsJsonArray().getJsonObject(0);
        assertThat(listed.getJsonObject("acknowledged").getString("by")).isEqualTo("oncall");
        assertThat(listed.getJsonObject("acknowledged").getString("note")).isEqualTo("restoring Sales' backup job");
        assertThat(running.get("/", reader).bodyAsString()).as("the status page says who took it")
                .contains("<p class=\"life\"><strong>acknowledged by oncall until 2026-11-30T07:50:00Z: restoring Sales&#39; backup job</strong></p>");
        JsonObject one = running.get(path, reader).bodyAsJsonObject();
        assertThat(one.getString("rule")).isEqualTo("backup-missing");
        assertThat(one.getJsonArray("history").stream().map(e -> ((JsonObject) e).getString("kind") + " "
                + ((JsonObject) e).getString("by"))).containsExactly("fired null", "acknowledged oncall", "note oncall");

        assertThat(running.request(HttpMethod.DELETE, path + "/acknowledge", operator).send().await(10, TimeUnit.SECONDS)
                .statusCode()).isEqualTo(204);
        assertThat(running.get("/api/v1/alerts", reader).bodyAsJsonArray().getJsonObject(0).getValue("acknowledged")).isNull();
        assertThat(running.request(HttpMethod.DELETE, path + "/acknowledge", operator).send().await(10, TimeUnit.SECONDS)
                .statusCode()).isEqualTo(404);
    }

    @Test
    void aChannelThatRefusesIsCountedInMetricsAndShownFailingOnTheStatusPage() throws Exception {
        HttpServer refusing = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body ->
                req.response().setStatusCode(404).end("no_team"))).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        HttpServer fine = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body ->
                req.response().setStatusCode(200).end("ok"))).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        AlertsConfig alerts = new AlertsConfig(null, null, null, null, null, null, List.of(
                new ChannelConfig("slack", "gone", "http://127.0.0.1:" + refusing.actualPort() + "/hook", null, null, null,
                        null, null, null, null, null, null, null, null, null, null, null),
                ChannelConfig.webhook("webhook", "http://127.0.0.1:" + fine.actualPort() + "/hook")));
        running = RunningCollector.withAlertStage(CollectorConfig.defaults().withAlerts(alerts), data, CLOCK);
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(202);
        running.evaluate();

        String metrics = running.get("/metrics", null).bodyAsString();
        assertThat(metrics).contains("qatwatch_notifications_failed_total{channel=\"gone\"} 1")
                .contains("qatwatch_notifications_sent_total{channel=\"webhook\"} 1")
                .doesNotContain("qatwatch_notifications_failed_total{channel=\"webhook\"}");
        String page = running.get("/", null).bodyAsString();
        assertThat(page).contains("<h2>Chat channels</h2>")
                .contains("<tr data-channel=\"gone\"><td data-label=\"Channel\">gone <span class=\"tag bad\">failing</span>")
                .contains("gone: HTTP 404 no_team")
                .contains("<tr data-channel=\"webhook\"><td data-label=\"Channel\">webhook</td><td data-label=\"Delivered\">1");
    }

    @Test
    void anEvaluationThatFailsIsNotCountedAsFinishedInMetrics() throws Exception {
        MovableClock clock = new MovableClock(CLOCK.instant());
        running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, clock);
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(202);
        running.evaluate();
        assertThat(evaluationsFinished()).isPositive();

        // the store is found damaged, and 20 minutes on the silent agent is a new alert the stage cannot save
        running.collector().database().condition().failed(new SQLException("database disk image is malformed", "XX001"));
        clock.advance(Duration.ofMinutes(20));
        assertThatThrownBy(running::evaluate).hasMessageContaining("the store is damaged");
        long before = evaluationsFinished();
        String lastStart = stageFigure("qatwatch_alert_evaluation_last_start_seconds");
        // a failed save leaves the stage writing its alerts whole at the next evaluation, which fails again
        assertThatThrownBy(running::evaluate).hasMessageContaining("the store is damaged");

        assertThat(evaluationsFinished()).as("a failed evaluation is not a finished one").isEqualTo(before);
        assertThat(stageFigure("qatwatch_alert_evaluation_last_start_seconds"))
                .as("the latest finished evaluation's start stays").isEqualTo(lastStart);
    }

    private long evaluationsFinished() {
        return (long) Double.parseDouble(stageFigure("qatwatch_alert_evaluations_total"));
    }

    /** One of the alert stage's unlabelled figures as {@code /metrics} writes it. */
    private String stageFigure(String family) {
        PrometheusText text = new PrometheusText();
        running.collector().metrics().writeTo(text);
        return text.toString().lines().filter(l -> l.startsWith(family + " ")).findFirst()
                .map(l -> l.substring(family.length() + 1)).orElseThrow();
    }

    @Test
    void asksForACollectionOnlyAfterRebuildingMuchOfALargeFleet() {
        assertThat(AlertStage.worthCollecting(10_000, 10_000)).as("the first evaluation of a large fleet").isTrue();
        assertThat(AlertStage.worthCollecting(2_500, 10_000)).as("a quarter of it rebuilt").isTrue();
        assertThat(AlertStage.worthCollecting(2_499, 10_000)).as("less than a quarter").isFalse();
        assertThat(AlertStage.worthCollecting(3, 10_000)).as("an ordinary minute").isFalse();
        assertThat(AlertStage.worthCollecting(999, 999)).as("a small fleet's start: little to give back").isFalse();
    }
}
