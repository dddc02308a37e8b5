package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/compression} and the status page's verdicts from a real collector: reports stored through the
 * real store (the QAT mode changing on the way, so each QAT_DEFLATE backup is judged in the mode it ran in), one
 * evaluation of the alert stage, then the API over HTTP with its filters.
 */
class CompressionApiTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);
    private static final long GB = 1_000_000_000L;
    private static final QatFacts QAT_INSTALLED = new QatFacts(List.of(), new QatSoftware(List.of(), List.of(), List.of(),
            List.of(new SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.9.0", null)), List.of(), List.of(),
            List.of()), false);
    private static final QatFacts NOTHING = new QatFacts(List.of(), QatSoftware.none(), false);

    @TempDir
    Path data;

    private static AcceleratorStatus qat(String mode) {
        return new AcceleratorStatus("QAT", mode, "HARDWARE".equals(mode) ? "HARDWARE_MODE_ENTERPRISE_SKU"
                : "SOFTWARE_MODE_SOFTWARE_FORCE_OVERRIDE", "HARDWARE".equals(mode), "1.9.0-0008", null);
    }

    private static AgentReport report(String host, Instant at, QatFacts qat, List<AcceleratorStatus> accelerators,
                                      List<BackupRecord> backups) {
        List<String> dbs = backups.stream().map(BackupRecord::databaseName).distinct().toList();
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("PROD", at, null, List.of(), accelerators,
                dbs.isEmpty() ? null : dbs.stream().map(d -> Histories.db(d, "FULL")).toList(), backups, List.of(), List.of(), null);
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, qat, null, List.of(instance), List.of());
    }

    private static BackupRecord full(long id, String db, Instant start, long seconds, String algorithm, boolean copyOnly,
                                     String target) {
        return new BackupRecord(id, db, Histories.guid(db), "D", copyOnly, start, start.plusSeconds(seconds), true, 400 * GB,
                160 * GB, algorithm, true, "NO_Encryption", null, null, "DISK", target);
    }

    @Test
    void theComparisonIsServedWithItsFiltersAndTheStatusPageShowsTheVerdicts() throws Exception {
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            var store = running.collector().store();
            Instant now = CLOCK.instant();
            long id = 1;
            for (int n = 6; n >= 1; n--) {
                Instant night = now.minus(Duration.ofDays(n));
                // the evening report says which mode QAT is in; it fell back to software three nights ago
                List<AcceleratorStatus> mode = List.of(qat(n >= 4 ? "HARDWARE" : "SOFTWARE"));
                store.store("sql01", report("sql01", night.minus(Duration.ofHours(10)), QAT_INSTALLED, mode, List.of()),
                        night.minus(Duration.ofHours(10)));
                List<BackupRecord> backups = List.of(
                        full(id++, "Sales", night.minus(Duration.ofHours(6)), 1000 + n, "MS_XPRESS", false, "UNC"),
                        full(id++, "Sales", night.minus(Duration.ofHours(4)), n >= 4 ? 400 + n : 700 + n, "QAT_DEFLATE", true, "UNC"));
                store.store("sql01", report("sql01", night, QAT_INSTALLED, mode, backups), night);
                if (n <= 3) {
                    store.store("sql02", report("sql02", night, NOTHING, List.of(),
                            List.of(full(100 + n, "Hr", night.minus(Duration.ofHours(5)), 900, "MS_XPRESS", false, "LOCAL"))), night);
                }
            }
            String reader = running.token("grafana", TokenStore.Kind.READ);
            running.evaluate();

            assertThat(get(running, "/api/v1/compression", null).statusCode()).isEqualTo(401);
            HttpResponse<Buffer> all = get(running, "/api/v1/compression", reader);
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.getHeader("X-Total-Count")).isEqualTo("2");
            JsonArray rows = all.bodyAsJsonArray();
            JsonObject sales = rows.getJsonObject(0);
            assertThat(sales.fieldNames()).containsExactly("host", "instance", "database", "backupType", "target", "encrypted",
                    "algorithms", "baseline", "alternative", "current", "verdict", "speedGainPercent", "sizeGainPercent",
                    "cpuGainPercent", "gains", "cpuNote");
            assertThat(List.of(sales.getString("host"), sales.getString("instance"), sales.getString("database"),
                    sales.getString("backupType"), sales.getString("target"), sales.getString("baseline"),
                    sales.getString("alternative"), sales.getString("current"), sales.getString("verdict")))
                    .containsExactly("sql01", "PROD", "Sales", "full", "UNC", "MS_XPRESS", "QAT_DEFLATE (HARDWARE)", "MS_XPRESS",
                            "FASTER");
            assertThat(sales.getJsonObject("encrypted").getMap()).containsEntry("tde", false).containsEntry("backup", false);
            JsonArray algorithms = sales.getJsonArray("algorithms");
            assertThat(algorithms.stream().map(a -> ((JsonObject) a).getString("label")).toList())
                    .as("each QAT_DEFLATE test judged in the mode it ran in")
                    .containsExactly("MS_XPRESS", "QAT_DEFLATE (HARDWARE)", "QAT_DEFLATE (SOFTWARE)");
            JsonObject hw = algorithms.getJsonObject(1);
            assertThat(hw.getString("algorithm")).isEqualTo("QAT_DEFLATE");
            assertThat(hw.getString("mode")).isEqualTo("HARDWARE");
            assertThat(hw.getValue("level")).isNull();
            assertThat(hw.getInteger("backups")).isEqualTo(3);
            assertThat(hw.getInteger("copyOnlyBackups")).isEqualTo(3);
            assertThat(hw.getDouble("medianSeconds")).isEqualTo(405.0);
            assertThat(hw.getDouble("medianMbps")).isEqualTo(Math.round(400 * GB / 1_048_576.0 / 405 * 100) / 100.0);
            assertThat(hw.getDouble("medianRatio")).isEqualTo(2.5);
            assertThat(hw.getString("verdict")).isEqualTo("FASTER");
            assertThat(algorithms.getJsonObject(0).getValue("verdict")).as("the baseline has none").isNull();
            // MS_XPRESS took 1001..1006 s: its median MB/s is the mean of the 1003 s and 1004 s nights'
            double gain = (1 / 405.0) / ((1 / 1003.0 + 1 / 1004.0) / 2) - 1;
            assertThat(sales.getDouble("speedGainPercent")).isEqualTo(Math.round(gain * 1000) / 10.0);
            assertThat(sales.getString("gains")).as("the gains in words, no CPU gain where no poll saw CPU")
                    .startsWith(String.format(Locale.ROOT, "speed gain +%.1f %% (faster), size gain ", gain * 100))
                    .doesNotContain("CPU gain");
            assertThat(rows.getJsonObject(1).getString("verdict")).isEqualTo("SINGLE_ALGORITHM");
            assertThat(rows.getJsonObject(1).getValue("gains")).as("nothing to gain against with one algorithm").isNull();

            assertThat(databases(get(running, "/api/v1/compression?verdict=faster", reader))).containsExactly("sql01 Sales");
            assertThat(databases(get(running, "/api/v1/compression?host=SQL0*&database=h?", reader))).containsExactly("sql02 Hr");
            assertThat(databases(get(running, "/api/v1/compression?instance=TEST", reader))).isEmpty();
            HttpResponse<Buffer> page = get(running, "/api/v1/compression?limit=1", reader);
            assertThat(databases(page)).containsExactly("sql01 Sales");
            assertThat(page.getHeader("Link")).isEqualTo("</api/v1/compression?limit=1&offset=1>; rel=\"next\"");
            assertThat(databases(get(running, "/api/v1/compression?limit=1&offset=1", reader))).containsExactly("sql02 Hr");
            HttpResponse<Buffer> bad = get(running, "/api/v1/compression?verdict=BETTER", reader);
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.bodyAsJsonObject().getString("field")).isEqualTo("verdict");
            assertThat(bad.bodyAsJsonObject().getString("error")).contains("FASTER_AND_SMALLER").contains("'BETTER'");

            String status = get(running, "/", null).bodyAsString();
            String compression = status.substring(status.indexOf("<section id=\"compression\">"));
            assertThat(compression).contains("<p class=\"host-verdict\">QAT_DEFLATE (HARDWARE): faster to the share for 1 of 1 "
                    + "database; QAT_DEFLATE (SOFTWARE): faster to the share for 1 of 1 database</p>")
                    .contains("QAT_DEFLATE backups are restorable on 1 of 2 probed hosts: sql01.")
                    .as("sql02 compared nothing: named, its rows on its own page").contains("<p class=\"nothing-compared\" "
                            + "id=\"compression-nothing-compared\">Nothing compared on 1 host of this page (each database went to "
                            + "each target with one algorithm only): <a class=\"host-link\" href=\"/hosts/sql02\">sql02</a>.</p>");
            String sql02 = get(running, "/hosts/sql02", null).bodyAsString();
            assertThat(sql02.substring(sql02.indexOf("<section id=\"compression\">"))).contains("data-host=\"sql02\"")
                    .contains("<tr data-verdict=\"SINGLE_ALGORITHM\">");
        }
    }

    private static List<String> databases(HttpResponse<Buffer> response) {
        assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        response.bodyAsJsonArray().forEach(r -> out.add(((JsonObject) r).getString("host") + " " + ((JsonObject) r).getString("database")));
        return out;
    }

    private static HttpResponse<Buffer> get(RunningCollector running, String path, String token) throws Exception {
        return running.request(io.vertx.core.http.HttpMethod.GET, path, token).send().await(10, TimeUnit.SECONDS);
    }
}
