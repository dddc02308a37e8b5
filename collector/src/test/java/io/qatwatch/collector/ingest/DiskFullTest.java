package io.qatwatch.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.SmallDisk;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's own disk fills (its SQLite store on a 6 MiB tmpfs, a real {@code SQLITE_FULL}): reports are
 * answered 503 with {@code Retry-After} (the agent keeps them), {@code /healthz} fails and {@code /metrics} says
 * {@code store_full}; when space returns, ingest resumes without a restart, every refused report sent again is stored
 * once, and the store passes its integrity check.
 */
class DiskFullTest {

    private static final int BACKUPS = 40;
    private static final Instant BASE = Instant.now().minus(Duration.ofDays(1));

    @TempDir
    Path tmp;

    @Test
    void aFullDiskIs503WithRetryAfterAndEveryRefusedReportIsStoredOnceSpaceReturns() throws Exception {
        Clock clock = Clock.systemUTC();
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 6);
             RunningCollector running = RunningCollector.start(disk.dir().resolve("data"), clock)) {
            String token = running.token("sql01", TokenStore.Kind.AGENT);
            int n = 0;
            for (; n < 3; n++) {
                assertThat(post(running, token, n).statusCode()).isEqualTo(202);
            }
            disk.fill();

            List<Integer> refused = new ArrayList<>();
            HttpResponse<Buffer> first503 = null;
            // the WAL may still have room of its own: post until the disk says no (bounded)
            while (refused.isEmpty() && n < 500) {
                HttpResponse<Buffer> answer = post(running, token, n);
                assertThat(answer.statusCode()).as(answer.bodyAsString()).isIn(202, 503);
                if (answer.statusCode() == 503) {
                    refused.add(n);
                    first503 = answer;
                }
                n++;
            }
            assertThat(first503).as("the full disk was never met").isNotNull();
            assertThat(first503.getHeader("Retry-After")).isEqualTo(Integer.toString(IngestHandler.FULL_RETRY_SECONDS));
            assertThat(first503.bodyAsJsonObject().getString("error")).contains("disk is full");
            for (int more = 0; more < 5; more++, n++) {
                assertThat(post(running, token, n).statusCode()).isEqualTo(503);
                refused.add(n);
            }
            HttpResponse<Buffer> health = running.get("/healthz", null);
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.bodyAsJsonObject().getString("reason")).isEqualTo("store_full");
            String metrics = running.get("/metrics", null).bodyAsString();
            assertThat(metrics).contains("qatwatch_store_problem{reason=\"store_full\"} 1")
                    .contains("qatwatch_reports_rejected_total{reason=\"store_full\"} " + refused.size());

            disk.free();
            // as the agent does: its outbox sends the refused reports again, then the next ones
            for (int r : refused) {
                HttpResponse<Buffer> again = post(running, token, r);
                assertThat(again.statusCode()).as(again.bodyAsString()).isEqualTo(202);
                assertThat(again.bodyAsJsonObject().getBoolean("duplicate")).isFalse();
            }
            assertThat(post(running, token, n).statusCode()).isEqualTo(202);
            n++;
            assertThat(running.get("/healthz", null).statusCode()).isEqualTo(200);
            assertThat(running.get("/metrics", null).bodyAsString()).contains("qatwatch_store_problem{reason=\"store_full\"} 0");

            var db = running.collector().database();
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM reports")).isEqualTo(n);
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM backups")).isEqualTo((long) n * BACKUPS);
            assertThat(StoreKinds.text(db, "PRAGMA integrity_check")).isEqualTo("ok");
        }
    }

    private static HttpResponse<Buffer> post(RunningCollector running, String token, int n) throws Exception {
        return running.postReport(token, ReportJson.toBytes(TestReports.numbered(n + 1, BACKUPS, BASE)), false);
    }
}
