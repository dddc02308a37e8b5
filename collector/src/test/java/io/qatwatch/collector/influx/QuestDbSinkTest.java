package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.protocol.GoldenReports;
import io.questdb.ServerMain;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v2 sink against a real {@code /api/v2/write} server: QuestDB embedded. Points go collector →
 * influxdb-client-java → QuestDB and are read back over QuestDB's SQL endpoint.
 */
class QuestDbSinkTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    static Path dir;

    private static ServerMain questdb;
    private static int questPort;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startQuestDb() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(Map.of("QDB_HTTP_BIND_TO", "127.0.0.1:0", "QDB_HTTP_MIN_ENABLED", "false", "QDB_PG_ENABLED", "false",
                "QDB_LINE_TCP_ENABLED", "false", "QDB_LINE_UDP_ENABLED", "false", "QDB_TELEMETRY_ENABLED", "false",
                "QDB_SHARED_WORKER_COUNT", "2", "QDB_HTTP_WORKER_COUNT", "1", "QDB_CAIRO_WAL_ENABLED_DEFAULT", "false"));
        Files.createDirectories(dir.resolve("questdb"));
        questdb = ServerMain.create(dir.resolve("questdb").toString(), env);
        questdb.start();
        questdb.awaitStartup();
        questPort = questdb.getHttpServerPort();
    }

    @AfterAll
    static void stopQuestDb() {
        if (questdb != null) {
            questdb.close();
        }
    }

    static JsonObject sql(String query) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + questPort + "/exec?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        return new JsonObject(r.body());
    }

    /** Polls until the query returns {@code rows} rows: QuestDB applies writes asynchronously. */
    static JsonObject awaitRows(String query, int rows) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        JsonObject last = null;
        while (System.nanoTime() < deadline) {
            last = sql(query);
            if (last.getJsonArray("dataset") != null && last.getJsonArray("dataset").size() == rows) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + rows + " rows for " + query + ", last answer: " + last);
    }

    static Object column(JsonObject result, int row, String name) {
        JsonArray columns = result.getJsonArray("columns");
        for (int i = 0; i < columns.size(); i++) {
            if (columns.getJsonObject(i).getString("name").equals(name)) {
                return result.getJsonArray("dataset").getJsonArray(row).getValue(i);
            }
        }
        throw new AssertionError("no column " + name + " in " + columns);
    }

    @Test
    void reportPointsReachQuestDbThroughTheInfluxClient() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("influx-token"), "questdb-ignores-this-token\n");
        InfluxConfig influx = new InfluxConfig("http://127.0.0.1:" + questPort, "v2", "qatwatch",
                "qatwatch", tokenFile, null, null, null, null, 5000, 100, 16L * 1024 * 1024, 2, 5);
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0).withInflux(influx);
        Vertx vertx = Vertx.vertx();
        Collector collector = Collector.start(vertx, config, dir.resolve("collector"), CLOCK).await(30, TimeUnit.SECONDS);
        try {
            String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
            var response = WebClient.create(vertx).post(collector.port(), "127.0.0.1", "/api/v1/reports")
                    .putHeader("Authorization", "Bearer " + token).putHeader("Content-Type", "application/json")
                    .sendBuffer(Buffer.buffer(GoldenReports.bytes(GoldenReports.COMPLETE))).await(10, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(202);

            JsonObject backup = awaitRows("SELECT * FROM qatwatch_backup", 1);
            assertThat(column(backup, 0, "host")).isEqualTo("sql01");
            assertThat(column(backup, 0, "instance")).isEqualTo("MSSQLSERVER");
            assertThat(column(backup, 0, "database")).isEqualTo("Sales");
            assertThat(column(backup, 0, "type")).isEqualTo("full");
            assertThat(column(backup, 0, "algorithm")).isEqualTo("QAT_DEFLATE");
            assertThat(column(backup, 0, "target")).isEqualTo("UNC");
            assertThat(column(backup, 0, "encrypted")).isEqualTo("false");
            assertThat(((Number) column(backup, 0, "size_bytes")).longValue()).isEqualTo(130738401280L);
            assertThat(((Number) column(backup, 0, "compressed_bytes")).longValue()).isEqualTo(41984720896L);
            assertThat(((Number) column(backup, 0, "duration_seconds")).doubleValue()).isEqualTo(238.6);
            assertThat(((Number) column(backup, 0, "ratio")).doubleValue()).isCloseTo(3.11395, org.assertj.core.data.Offset.offset(1e-4));
            assertThat(column(backup, 0, "timestamp")).isEqualTo("2026-11-30T00:34:00.600000Z");

            JsonObject accelerator = awaitRows("SELECT * FROM qatwatch_accelerator", 1);
            assertThat(column(accelerator, 0, "mode")).isEqualTo("HARDWARE");
            assertThat(((Number) column(accelerator, 0, "mode_code")).longValue()).isEqualTo(2);
            assertThat(column(accelerator, 0, "hardware_detected")).isEqualTo(true);

            JsonObject host = awaitRows("SELECT * FROM qatwatch_host", 1);
            assertThat(column(host, 0, "licence_verdict")).isEqualTo("INTEL_QAT_HARDWARE");
            assertThat(column(host, 0, "virtualization")).isEqualTo("none");
            assertThat(((Number) column(host, 0, "qat_devices_up")).longValue()).isEqualTo(1);

            JsonObject agent = awaitRows("SELECT * FROM qatwatch_agent", 1);
            assertThat(((Number) column(agent, 0, "probes_total")).longValue()).isEqualTo(3);
        } finally {
            collector.stop().await(30, TimeUnit.SECONDS);
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void compressionVerdictsAreWrittenByTheAlertStageWhenTheyChangeAndOnceADay() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("influx-token-2"), "questdb-ignores-this-token\n");
        InfluxConfig influx = new InfluxConfig("http://127.0.0.1:" + questPort, "v2", "qatwatch",
                "qatwatch", tokenFile, null, null, null, null, 5000, 100, 16L * 1024 * 1024, 2, 5);
        MovableClock clock = new MovableClock(CLOCK.instant());
        try (var running = io.qatwatch.collector.testing.RunningCollector.withAlertStage(
                CollectorConfig.defaults().withInflux(influx), dir.resolve("collector-verdicts"), clock)) {
            List<io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord> backups = new java.util.ArrayList<>();
            for (int n = 1; n <= 3; n++) {
                Instant start = clock.instant().minus(Duration.ofDays(n)).minus(Duration.ofHours(6));
                backups.add(new io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord(n, "Sales", null, "D", false, start,
                        start.plusSeconds(1000), true, 1L << 40, 1L << 38, "MS_XPRESS", true, "NO_Encryption", null, null,
                        "DISK", "UNC"));
                backups.add(new io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord(10 + n, "Sales", null, "D", true,
                        start.plusSeconds(7200), start.plusSeconds(7700), true, 1L << 40, 1L << 38, "QAT_DEFLATE", true,
                        "NO_Encryption", null, null, "DISK", "UNC"));
            }
            var golden = GoldenReports.complete();
            var instance = golden.instances().get(0);
            var report = new io.qatwatch.protocol.AgentReport(golden.schemaVersion(), "verdicts-0000-4000-8000-000000000001",
                    clock.instant().minusSeconds(60), golden.agent(), golden.host(), golden.qat(), golden.licence(),
                    List.of(new io.qatwatch.protocol.SqlInstanceSnapshot(instance.name(), clock.instant().minusSeconds(60),
                            instance.server(), instance.configuration(), instance.accelerators(), instance.databases(), backups,
                            List.of(), List.of(), 20L)), golden.probes());
            running.collector().store().store("sql07", report, clock.instant().minusSeconds(60));

            running.evaluate();
            JsonObject first = awaitRows("SELECT * FROM qatwatch_compression WHERE host = 'sql07'", 1);
            assertThat(column(first, 0, "verdict")).isEqualTo("FASTER");
            assertThat(column(first, 0, "algorithm")).isEqualTo("QAT_DEFLATE");
            assertThat(column(first, 0, "baseline")).isEqualTo("MS_XPRESS");
            assertThat(((Number) column(first, 0, "speed_gain_percent")).doubleValue()).isEqualTo(100.0);

            clock.now = clock.instant().plus(Duration.ofHours(1));
            running.evaluate();
            clock.now = clock.instant().plus(Duration.ofHours(24));
            running.evaluate();
            JsonObject daily = awaitRows("SELECT * FROM qatwatch_compression WHERE host = 'sql07'", 2);
            assertThat(column(daily, 1, "timestamp")).as("unchanged an hour later: not written again; a day later: again")
                    .isEqualTo("2026-12-01T08:00:00.000000Z");
        }
    }

    private static final Alert CREEP = new Alert("backup-window-creep", Severity.WARNING, "sql02", "PROD", null, "full",
            "margin shrinks 2.5 min/day, \"Sales\" grows", "the margin shrinks", List.of(), List.of());

    @Test
    void windowTrendAndAlertPointsAreReadBackWithTheirValues() throws Exception {
        InfluxV2Writer writer = new InfluxV2Writer("http://127.0.0.1:" + questPort, "qatwatch", "qatwatch",
                "t".toCharArray(), Duration.ofSeconds(5));
        try (writer) {
            writer.write(List.of(
                    InfluxPoints.window("sql02", "emea", "PROD", "office", Instant.parse("2026-11-29T22:00:00Z"),
                            Instant.parse("2026-11-30T06:30:00Z"), Instant.parse("2026-11-30T07:00:00Z"), 9),
                    InfluxPoints.windowTrend("sql02", "emea", "PROD", NightKind.FULL, Instant.parse("2026-11-30T07:00:00Z"),
                            -2.5, 21, 12.0, Instant.parse("2026-12-12T07:00:00Z")),
                    InfluxPoints.alert(CREEP, "emea", true, Instant.parse("2026-11-30T07:00:00Z"))));
        }
        JsonObject window = awaitRows("SELECT * FROM qatwatch_window", 1);
        assertThat(((Number) column(window, 0, "margin_seconds")).doubleValue()).isEqualTo(1800.0);
        assertThat(column(window, 0, "breach")).isEqualTo(false);
        assertThat(column(window, 0, "group")).isEqualTo("emea");
        JsonObject trend = awaitRows("SELECT * FROM qatwatch_window_trend", 1);
        assertThat(((Number) column(trend, 0, "slope_minutes_per_day")).doubleValue()).isEqualTo(-2.5);
        assertThat(((Number) column(trend, 0, "forecast_seconds")).longValue())
                .isEqualTo(Instant.parse("2026-12-12T07:00:00Z").getEpochSecond());
        JsonObject alert = awaitRows("SELECT * FROM qatwatch_alert", 1);
        assertThat(column(alert, 0, "summary")).isEqualTo("margin shrinks 2.5 min/day, \"Sales\" grows");
        assertThat(column(alert, 0, "rule")).isEqualTo("backup-window-creep");
        assertThat(column(alert, 0, "subject")).isEqualTo("full");
        assertThat(column(alert, 0, "alert_id")).isEqualTo(CREEP.id());
        assertThat(column(trend, 0, "kind")).isEqualTo("full");
    }
}
