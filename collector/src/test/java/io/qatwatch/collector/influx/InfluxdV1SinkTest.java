package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.Influxd;
import io.qatwatch.collector.testing.Restores;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
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
import java.util.List;
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
        onCollectorWritingToInfluxd((influxd, vertx, collector) -> {
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
        });
    }

    @Test
    void aReportsBackupCpuAndObservedRestoreAreWrittenAtIngestAndQueriedBackWithInfluxQl() throws Exception {
        onCollectorWritingToInfluxd((influxd, vertx, collector) -> {
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
        });
    }

    @Test
    void aRestoreMatchedToItsBackupGainsTheBackupsBytesAlgorithmAndSpeedWhenItsRestorehistoryRowArrives() throws Exception {
        onCollectorWritingToInfluxd((influxd, vertx, collector) -> {
            WebClient http = WebClient.create(vertx);
            Instant at = Instant.parse("2026-11-30T06:15:00Z");
            Instant night = at.minus(Duration.ofHours(6));
            BackupRecord sales = Restores.backup(7, "SalesDW", "D", night, 3600, 500L << 30, 200L << 30, "QAT_DEFLATE",
                    "UNC", "1000", "2000", "1500", "900", null);
            // a 2019 server's compressed backup names no algorithm: MS_XPRESS, as on qatwatch_backup
            BackupRecord orders = Restores.backup(8, "Orders", "D", night, 600, 50L << 30, 20L << 30, null, "LOCAL",
                    "10", "20", "15", "9", null);
            String prod = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
            assertThat(post(http, collector, prod, Restores.report("sql01", at, Restores.instance("PROD", "SQL01\\PROD", at,
                    List.of(Histories.db("SalesDW", "FULL"), Histories.db("Orders", "FULL")), List.of(sales, orders), null,
                    null)))).isEqualTo(202);

            String test = collector.tokens().add("sql02", TokenStore.Kind.AGENT, CLOCK.instant());
            Instant start = at.minus(Duration.ofHours(2));
            // one report: a restore with its restorehistory row, and a RESTORE LOG no row ever names
            ObservedRestore salesCheck = Restores.observed("SalesDW_check", "RESTORE DATABASE", start, 3000, 96.0);
            ObservedRestore scratch = Restores.observed("Scratch", "RESTORE LOG", start.plusSeconds(10), 40, 100.0);
            assertThat(post(http, collector, test, Restores.report("sql02", at, Restores.instance("TEST", "SQL02\\TEST", at,
                    List.of(), List.of(), List.of(Restores.history(1, "SalesDW_check", start.plusSeconds(1), "D", "SQL01\\PROD",
                            "SalesDW", sales.finishedAt(), "D")), List.of(salesCheck, scratch))))).isEqualTo(202);
            JsonArray matched = awaitSeries(influxd, "SELECT size_bytes, compressed_bytes, duration_seconds, throughput_mbps, "
                    + "backup_set_id FROM qatwatch_restore WHERE \"database\" = 'SalesDW_check' GROUP BY \"algorithm\", "
                    + "\"target\", \"type\"");
            assertThat(matched).as("the restore's own series has none of these fields").hasSize(1);
            assertThat(matched.getJsonObject(0).getJsonObject("tags").getMap()).containsEntry("algorithm", "QAT_DEFLATE")
                    .containsEntry("target", "UNC").containsEntry("type", "full");
            // at the restore's own time; 500 GiB in 3000 s at 96 %: 3125 s, 163.84 MiB/s
            assertThat(matched.getJsonObject(0).getJsonArray("values").getJsonArray(0).getList()).containsExactly(
                    "2026-11-30T05:05:00Z", 500L << 30, 200L << 30, 3125, 163.84, 7);

            // a later restore whose restorehistory row comes in the next report: first as today, then matched
            Instant later = at.plus(Duration.ofMinutes(5));
            ObservedRestore ordersCheck = Restores.observed("Orders_check", "RESTORE DATABASE", at.minus(Duration.ofMinutes(20)),
                    300, 100.0);
            assertThat(post(http, collector, test, Restores.report("sql02", at, Restores.instance("TEST", "SQL02\\TEST", at,
                    List.of(), List.of(), null, List.of(ordersCheck))))).isEqualTo(202);
            String ordersAlgorithms = "SELECT count(elapsed_seconds), count(throughput_mbps) FROM qatwatch_restore "
                    + "WHERE \"database\" = 'Orders_check' GROUP BY \"algorithm\"";
            assertThat(awaitSeries(influxd, ordersAlgorithms)).as("before its restorehistory row: one point, no algorithm")
                    .singleElement().satisfies(o -> {
                        assertThat(((JsonObject) o).getJsonObject("tags").getString("algorithm")).isEmpty();
                        assertThat(((JsonObject) o).getJsonArray("values").getJsonArray(0).getList()).element(1).isEqualTo(1);
                    });
            RestoreRecord ordersRow = Restores.history(2, "Orders_check", ordersCheck.startedAt().plusSeconds(1), "D",
                    "SQL01\\PROD", "Orders", orders.finishedAt(), "D");
            assertThat(post(http, collector, test, Restores.report("sql02", later, Restores.instance("TEST", "SQL02\\TEST",
                    later, List.of(), List.of(), List.of(ordersRow), List.of())))).isEqualTo(202);
            awaitCount(influxd, "SELECT count(throughput_mbps) FROM qatwatch_restore WHERE \"database\" = 'Orders_check'", 1);
            assertThat(series(influxd.query("qatwatch", ordersAlgorithms))).as("after: the matched series beside it")
                    .extracting(o -> ((JsonObject) o).getJsonObject("tags").getString("algorithm") + " "
                            + ((JsonObject) o).getJsonArray("values").getJsonArray(0).getList().subList(1, 3))
                    .containsExactly(" [1, null]", "MS_XPRESS [null, 1]");

            // what a panel sees: each restore counted once, speeds by algorithm from the matched ones only
            assertThat(count(influxd, "SELECT count(elapsed_seconds) FROM qatwatch_restore WHERE host = 'sql02'")).isEqualTo(3);
            assertThat(count(influxd, "SELECT count(size_bytes) FROM qatwatch_restore WHERE host = 'sql02'")).isEqualTo(2);
            assertThat(series(influxd.query("qatwatch", "SELECT median(throughput_mbps) FROM qatwatch_restore "
                    + "WHERE host = 'sql02' GROUP BY \"algorithm\""))).extracting(o -> ((JsonObject) o).getJsonObject("tags")
                    .getString("algorithm")).containsExactly("MS_XPRESS", "QAT_DEFLATE");
            // never matched: the restore's point as the report wrote it, nothing else
            assertThat(count(influxd, "SELECT count(elapsed_seconds) FROM qatwatch_restore WHERE \"database\" = 'Scratch'"))
                    .isEqualTo(1);
            assertThat(series(influxd.query("qatwatch", "SELECT * FROM qatwatch_restore WHERE \"database\" = 'Scratch' "
                    + "AND \"algorithm\" != ''"))).isEmpty();
        });
    }

    /** What a test does with a collector writing to a running influxd. */
    private interface WithInfluxd {
        void run(Influxd influxd, Vertx vertx, Collector collector) throws Exception;
    }

    /** Starts influxd and a collector writing to it, runs {@code test}, stops both. */
    private void onCollectorWritingToInfluxd(WithInfluxd test) throws Exception {
        assertThat(Influxd.installed()).as("influxd from Debian's influxdb package (./run-tests installs it)").isTrue();
        try (Influxd influxd = new Influxd(dir.resolve("influxd")).start()) {
            Vertx vertx = Vertx.vertx();
            Collector collector = collectorWritingTo(influxd, vertx);
            try {
                test.run(influxd, vertx, collector);
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
        awaitCount(influxd, "SELECT count(size_bytes) FROM qatwatch_backup", expected);
    }

    /** Waits until the count {@code influxQl} answers is {@code expected}. */
    private static void awaitCount(Influxd influxd, String influxQl, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long seen = -1;
        while (System.nanoTime() < deadline) {
            seen = count(influxd, influxQl);
            if (seen == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + expected + " from " + influxQl + ", saw " + seen);
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
