package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Influxd;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline against Debian's influxd 1.x: collector in v1 mode → {@code /write} → InfluxQL. influxd is
 * stopped mid-run: ingest goes on, points are spooled on disk, and after the restart nothing is missing.
 */
class InfluxdV1SinkTest {

    private static final Instant BASE = Instant.parse("2026-11-29T00:00:00Z");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void pointsSurviveAnInfluxOutageAndAreQueriedBackWithInfluxQl() throws Exception {
        assertThat(Influxd.installed()).as("influxd from Debian's influxdb package (./run-tests installs it)").isTrue();
        try (Influxd influxd = new Influxd(dir.resolve("influxd")).start()) {
            Vertx vertx = Vertx.vertx();
            Collector collector = collectorWritingTo(influxd, vertx);
            try {
                WebClient http = WebClient.create(vertx);
                String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
                for (int n = 1; n <= 5; n++) {
                    assertThat(post(http, collector, token, n)).isEqualTo(202);
                }
                awaitBackupCount(influxd, 15);

                influxd.stop();
                for (int n = 6; n <= 10; n++) {
                    long started = System.nanoTime();
                    assertThat(post(http, collector, token, n)).isEqualTo(202);
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("ingest does not wait for InfluxDB")
                            .isLessThan(Duration.ofSeconds(2));
                }
                awaitMetric(collector, "qatwatch_influx_spool_points", v -> v >= 15);
                assertThat(collector.influx().orElseThrow().metrics().get("qatwatch_influx_up")).isZero();

                influxd.start();
                awaitBackupCount(influxd, 30);
                awaitMetric(collector, "qatwatch_influx_spool_points", v -> v == 0);

                JsonArray sums = series(influxd.query("qatwatch",
                        "SELECT sum(size_bytes), max(ratio) FROM qatwatch_backup WHERE host = 'sql01' GROUP BY \"database\""));
                assertThat(sums).hasSize(3);
                JsonObject db2 = sums.stream().map(JsonObject.class::cast)
                        .filter(s -> s.getJsonObject("tags").getString("database").equals("db2")).findFirst().orElseThrow();
                assertThat(db2.getJsonArray("values").getJsonArray(0).getLong(1)).isEqualTo(10 * 2_000_000L);
                assertThat(db2.getJsonArray("values").getJsonArray(0).getDouble(2)).isEqualTo(2.5);
                assertThat(count(influxd, "SELECT count(uptime_seconds) FROM qatwatch_agent")).isEqualTo(10);
                assertThat(count(influxd, "SELECT count(mode_code) FROM qatwatch_accelerator WHERE \"mode\" = 'HARDWARE'"))
                        .isEqualTo(10);
            } finally {
                collector.stop().await(30, TimeUnit.SECONDS);
                vertx.close().await(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aReportsBackupCpuAndObservedRestoreAreWrittenAtIngestAndQueriedBackWithInfluxQl() throws Exception {
        assertThat(Influxd.installed()).as("influxd from Debian's influxdb package (./run-tests installs it)").isTrue();
        try (Influxd influxd = new Influxd(dir.resolve("influxd")).start()) {
            Vertx vertx = Vertx.vertx();
            Collector collector = collectorWritingTo(influxd, vertx);
            try {
                String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
                assertThat(post(WebClient.create(vertx), collector, token, GoldenReports.complete())).isEqualTo(202);
                JsonArray restore = awaitSeries(influxd, "SELECT elapsed_seconds, percent_complete, request_cpu_ms, process_cpu_ms "
                        + "FROM qatwatch_restore WHERE host = 'sql01' GROUP BY \"database\", \"command\"");
                JsonObject r = restore.getJsonObject(0);
                assertThat(r.getJsonObject("tags").getMap()).containsEntry("database", "PaymentsRestoreTest")
                        .containsEntry("command", "RESTORE DATABASE");
                assertThat(r.getJsonArray("values").getJsonArray(0).getList()).containsExactly("2026-11-30T04:03:00Z", 180, 96.5,
                        41000, 52000);
                JsonArray cpu = awaitSeries(influxd, "SELECT cpu_seconds_per_gb, cpu_ms, request_cpu_ms, process_reliable "
                        + "FROM qatwatch_backup WHERE host = 'sql01' GROUP BY \"algorithm\"");
                assertThat(cpu.getJsonObject(0).getJsonObject("tags").getString("algorithm")).isEqualTo("QAT_DEFLATE");
                assertThat(cpu.getJsonObject(0).getJsonArray("values").getJsonArray(0).getList()).element(1).satisfies(
                        v -> assertThat(((Number) v).doubleValue()).isCloseTo(2.149, org.assertj.core.api.Assertions.within(0.001)));
            } finally {
                collector.stop().await(30, TimeUnit.SECONDS);
                vertx.close().await(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A collector in v1 mode writing to database {@code qatwatch} of {@code influxd}, created here. */
    private Collector collectorWritingTo(Influxd influxd, Vertx vertx) throws Exception {
        assertThat(influxd.query(null, "CREATE DATABASE qatwatch")).doesNotContain("error");
        Path password = Files.writeString(dir.resolve("influx-password"), "s3cret-influx-password\n");
        InfluxConfig influx = new InfluxConfig(influxd.url(), "v1", null, null, null, "qatwatch",
                null, "writer", password, 5000, 100, 16L * 1024 * 1024, 1, 2);
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0).withInflux(influx);
        return Collector.start(vertx, config, dir.resolve("collector"), CLOCK).await(30, TimeUnit.SECONDS);
    }

    /** The series of an InfluxQL query, once it has any (the sink writes a moment after ingest answered). */
    private static JsonArray awaitSeries(Influxd influxd, String influxQl) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonArray series = new JsonArray();
        while (System.nanoTime() < deadline) {
            series = series(influxd.query("qatwatch", influxQl));
            if (!series.isEmpty()) {
                return series;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no series for " + influxQl);
    }

    private static int post(WebClient http, Collector collector, String token, int n) throws Exception {
        return post(http, collector, token, TestReports.numbered(n, 3, BASE));
    }

    private static int post(WebClient http, Collector collector, String token, AgentReport report) throws Exception {
        return http.post(collector.port(), "127.0.0.1", "/api/v1/reports")
                .putHeader("Authorization", "Bearer " + token).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(ReportJson.toBytes(report)))
                .await(10, TimeUnit.SECONDS).statusCode();
    }

    private static JsonArray series(String answer) {
        JsonObject result = new JsonObject(answer).getJsonArray("results").getJsonObject(0);
        assertThat(result.getString("error")).as(answer).isNull();
        JsonArray series = result.getJsonArray("series");
        return series == null ? new JsonArray() : series;
    }

    private static long count(Influxd influxd, String influxQl) throws Exception {
        JsonArray series = series(influxd.query("qatwatch", influxQl));
        return series.isEmpty() ? 0 : series.getJsonObject(0).getJsonArray("values").getJsonArray(0).getLong(1);
    }

    private static void awaitBackupCount(Influxd influxd, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long seen = -1;
        while (System.nanoTime() < deadline) {
            seen = count(influxd, "SELECT count(size_bytes) FROM qatwatch_backup");
            if (seen == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + expected + " backup points in influxd, saw " + seen);
    }

    private static void awaitMetric(Collector collector, String name, java.util.function.LongPredicate test)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (test.test(collector.influx().orElseThrow().metrics().get(name))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(name + " never matched: " + collector.influx().orElseThrow().metrics());
    }
}
