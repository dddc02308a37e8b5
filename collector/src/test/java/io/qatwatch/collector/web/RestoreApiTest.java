package io.qatwatch.collector.web;

import static io.qatwatch.collector.testing.Restores.backup;
import static io.qatwatch.collector.testing.Restores.history;
import static io.qatwatch.collector.testing.Restores.instance;
import static io.qatwatch.collector.testing.Restores.observed;
import static io.qatwatch.collector.testing.Restores.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
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

    /**
     * Six nights on sql01/PROD: a full of Sales (100 GiB of data) each night, MS_XPRESS on the first three, QAT_DEFLATE on
     * the last three, each QAT_DEFLATE one restored into Sales_check the next hour, in 200, 400 and 300 seconds; log
     * backups every hour of the last night.
     */
    static void sixNights(RunningCollector running) throws Exception {
        var store = running.collector().store();
        Instant now = CLOCK.instant();
        long lsn = 1000;
        long id = 1;
        long[] restoreSeconds = {200, 400, 300};
        for (int n = 6; n >= 1; n--) {
            Instant night = now.minus(Duration.ofDays(n)).minus(Duration.ofHours(5));
            boolean qat = n <= 3;
            List<BackupRecord> backups = new ArrayList<>();
            long checkpoint = lsn + 5;
            backups.add(backup(id++, "Sales", "D", night, 600, 100 * GIB, 40 * GIB, qat ? "QAT_DEFLATE" : "MS_XPRESS", "UNC",
                    String.valueOf(lsn), String.valueOf(lsn + 10), String.valueOf(checkpoint), String.valueOf(checkpoint), null));
            lsn += 10;
            if (n == 1) {
                for (int h = 1; h <= 4; h++) {
                    backups.add(backup(id++, "Sales", "L", night.plus(Duration.ofHours(h)), 10, GIB, GIB / 4, "QAT_DEFLATE",
                            "UNC", String.valueOf(lsn), String.valueOf(lsn + 10), String.valueOf(lsn), String.valueOf(checkpoint),
                            null));
                    lsn += 10;
                }
            }
            List<RestoreRecord> history = new ArrayList<>();
            List<ObservedRestore> seen = new ArrayList<>();
            if (qat) {
                Instant start = night.plus(Duration.ofMinutes(30));
                BackupRecord restored = backups.get(0);
                history.add(history(n, "Sales_check", start.plusSeconds(1), "D", "SQL01\\PROD", "Sales", restored.finishedAt(),
                        "D"));
                seen.add(observed("Sales_check", "RESTORE DATABASE", start, restoreSeconds[3 - n], 100.0));
            }
            Instant at = night.plus(Duration.ofHours(6));
            store.store("sql01", report("sql01", at, instance("PROD", "SQL01\\PROD", at, List.of(Histories.db("Sales", "FULL")),
                    backups, history, seen)), at);
        }
    }

    @Test
    void theCompressionApiGivesEachAlgorithmItsRestoreSpeed() throws Exception {
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            sixNights(running);
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

    static HttpResponse<Buffer> get(RunningCollector running, String path, String token) throws Exception {
        return running.request(io.vertx.core.http.HttpMethod.GET, path, token).send().await(10, TimeUnit.SECONDS);
    }
}
