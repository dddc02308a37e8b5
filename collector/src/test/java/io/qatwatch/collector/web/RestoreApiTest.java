package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Restores;
import io.qatwatch.collector.testing.RunningCollector;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Observed restores over real HTTP (issue 30): a host that restore-tests its QAT_DEFLATE fulls every night shows its
 * restore speed in {@code /api/v1/compression} beside the backup speed.
 */
class RestoreApiTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);
    static final long GIB = 1L << 30;

    @TempDir
    Path data;

    @Test
    void theCompressionApiGivesEachAlgorithmItsRestoreSpeed() throws Exception {
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            Restores.sixNights(running.collector().store(), CLOCK.instant(), true);
            String reader = running.token("grafana", TokenStore.Kind.READ);
            running.evaluate();

            HttpResponse<Buffer> answer = get(running, "/api/v1/compression?database=Sales", reader);
            assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
            JsonObject row = answer.bodyAsJsonArray().getJsonObject(0);
            JsonArray algorithms = row.getJsonArray("algorithms");
            JsonObject xpress = algorithms.getJsonObject(0);
            JsonObject qat = algorithms.getJsonObject(1);
            assertThat(xpress.getString("algorithm")).isEqualTo("MS_XPRESS");
            assertThat(xpress.getInteger("restores")).as("no MS_XPRESS backup was restored").isZero();
            assertThat(xpress.getValue("medianRestoreMbps")).isNull();
            assertThat(qat.getString("algorithm")).isEqualTo("QAT_DEFLATE");
            assertThat(qat.getInteger("restores")).isEqualTo(3);
            // 100 GiB in 200, 300 and 400 s: the median is the 300 s restore's
            assertThat(qat.getDouble("medianRestoreMbps")).isEqualTo(Math.round(100 * 1024 / 300.0 * 100) / 100.0);
            assertThat(qat.getDouble("medianMbps")).as("its backups' speed beside it").isEqualTo(Math.round(100 * 1024 / 600.0 * 100) / 100.0);
        }
    }

    @Test
    void theRestorePlanSaysHowLongItWouldTakeAndTheDatabasePageShowsIt() throws Exception {
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            Restores.sixNights(running.collector().store(), CLOCK.instant(), true);
            String reader = running.token("grafana", TokenStore.Kind.READ);
            running.evaluate();

            HttpResponse<Buffer> answer = get(running, "/api/v1/databases/sql01/PROD/Sales/restore-plan", reader);
            assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
            JsonObject body = answer.bodyAsJsonObject();
            assertThat(body.getJsonObject("plan").getInteger("files")).as("the newest full and the four logs since").isEqualTo(5);
            JsonObject estimate = body.getJsonObject("restoreEstimate");
            assertThat(estimate.fieldNames()).containsExactly("bytes", "dataBytes", "minutes", "basis", "parts", "summary");
            assertThat(estimate.getLong("bytes")).isEqualTo(40 * GIB + GIB);
            assertThat(estimate.getLong("dataBytes")).isEqualTo(104 * GIB);
            // 104 GiB at the median restore speed, 100 GiB in 300 s: 312 s
            assertThat(estimate.getDouble("minutes")).isEqualTo(5.2);
            assertThat(estimate.getString("basis")).isEqualTo("restore-speed");
            JsonArray parts = estimate.getJsonArray("parts");
            assertThat(parts).hasSize(2);
            JsonObject full = parts.getJsonObject(0);
            assertThat(full.fieldNames()).containsExactly("kind", "backups", "bytes", "dataBytes", "algorithm", "target", "mbps",
                    "basis", "samples", "anyTarget", "minutes", "restorableOn", "restoreBurden");
            assertThat(full.getString("kind")).isEqualTo("FULL");
            assertThat(full.getString("algorithm")).isEqualTo("QAT_DEFLATE");
            assertThat(full.getString("target")).isEqualTo("UNC");
            assertThat(full.getDouble("mbps")).isEqualTo(Math.round(100 * 1024 / 300.0 * 100) / 100.0);
            assertThat(full.getInteger("samples")).isEqualTo(3);
            assertThat(full.getDouble("minutes")).isEqualTo(5.0);
            assertThat(full.getJsonArray("restorableOn")).as("sql01 sent no QAT facts: no host known able to restore").isEmpty();
            assertThat(full.getString("restoreBurden")).isEqualTo("restorable on 0 of 1 probed host (it sent no QAT facts yet)");
            JsonObject logs = parts.getJsonObject(1);
            assertThat(logs.getString("kind")).isEqualTo("LOG");
            assertThat(logs.getInteger("backups")).isEqualTo(4);
            assertThat(logs.getDouble("minutes")).isEqualTo(0.2);

            HttpResponse<Buffer> page = get(running, "/hosts/sql01/PROD/Sales", reader);
            assertThat(page.statusCode()).isEqualTo(200);
            String html = page.bodyAsString();
            String section = html.substring(html.indexOf("<div id=\"restore-estimate\">"), html.indexOf("<h3>Restore plan</h3>"));
            assertThat(section).contains("About <strong>5.2 min</strong> to restore 104.0 GiB of data (41.0 GiB to read), at this "
                            + "host's measured restore speed")
                    .contains("<td data-label=\"Part\">full</td><td class=\"num\" data-label=\"Backups\">1</td>")
                    .contains("<td data-label=\"Basis\">restore-speed (3)</td><td class=\"num\" data-label=\"Minutes\">5.0</td>")
                    .contains("QAT_DEFLATE: restorable on 0 of 1 probed host (it sent no QAT facts yet).")
                    .doesNotContain("Not estimated");
        }
    }

    static HttpResponse<Buffer> get(RunningCollector running, String path, String token) throws Exception {
        return running.request(io.vertx.core.http.HttpMethod.GET, path, token).send().await(10, TimeUnit.SECONDS);
    }
}
