package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite store the collector cannot trust: a file with a page of garbage in its backups table is refused at start
 * with what to do; garbage met while running turns ingest into 503 and {@code /healthz} into a failure, and nothing
 * more is written.
 */
class DamagedStoreTest {

    private static final Instant BASE = Instant.now().minus(Duration.ofDays(1));

    @TempDir
    Path data;

    @Test
    void aDamagedFileIsRefusedAtStartWithWhatToDo() throws Exception {
        try (Database db = Database.open(data)) {
            SqlReportStore store = new SqlReportStore(db);
            for (int n = 1; n <= 3; n++) {
                store.store("sql01", TestReports.numbered(n, 60, BASE), BASE);
            }
        }
        garbageOnTheBackupsRootPage(data.resolve("qatwatch.db"));
        Vertx vertx = Vertx.vertx();
        try {
            assertThatThrownBy(() -> Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1", 0), data,
                    Clock.systemUTC()).await(30, TimeUnit.SECONDS))
                    .hasMessageContaining(data.resolve("qatwatch.db") + " is damaged")
                    .hasMessageContaining("the collector does not start on a damaged store")
                    .hasMessageContaining("qatwatch collector store backup --to FILE");
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFileThatIsNoDatabaseIsRefusedTheSameWay() throws Exception {
        Files.createDirectories(data);
        byte[] noise = new byte[64 * 1024];
        new Random(7).nextBytes(noise);
        Files.write(data.resolve("qatwatch.db"), noise);
        assertThatThrownBy(() -> Database.open(data)).hasMessageContaining(" is damaged")
                .hasMessageContaining("store backup");
    }

    @Test
    void damageMetWhileRunningIs503AndAFailingHealthzAndNothingMoreIsWritten() throws Exception {
        try (RunningCollector running = RunningCollector.start(data, Clock.systemUTC())) {
            String token = running.token("sql01", TokenStore.Kind.AGENT);
            for (int n = 1; n <= 3; n++) {
                assertThat(post(running, token, n).statusCode()).isEqualTo(202);
            }
            Database db = running.collector().database();
            // everything into the file itself, so that what readers read next comes from it: a checkpoint that met a
            // reader or the collector's own checkpointer is busy (1) and leaves pages in the WAL, where readers would
            // still find the backups' root page intact; so until one is not (seen failing once under load)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int busy;
            do {
                busy = db.write(c -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                        return rs.next() ? rs.getInt(1) : -1;
                    }
                });
            } while (busy != 0 && System.nanoTime() < deadline);
            assertThat(busy).as("PRAGMA wal_checkpoint(TRUNCATE) busy flag").isZero();
            garbageOnTheBackupsRootPage(data.resolve("qatwatch.db"));
            // the alert stage reading backups is how a collector meets the damage
            assertThatThrownBy(() -> StoreKinds.scalar(db, "SELECT SUM(size_bytes) FROM backups"))
                    .hasMessageContaining("malformed");

            HttpResponse<Buffer> refused = post(running, token, 4);
            assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(503);
            assertThat(refused.getHeader("Retry-After")).isNotNull();
            assertThat(refused.bodyAsJsonObject().getString("error")).contains("damaged");
            HttpResponse<Buffer> health = running.get("/healthz", null);
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.bodyAsJsonObject().getString("reason")).isEqualTo("store_corrupt");
            assertThat(running.get("/metrics", null).bodyAsString())
                    .contains("qatwatch_store_problem{reason=\"store_corrupt\"} 1");
            assertThatThrownBy(() -> StoreKinds.update(db, "DELETE FROM reports")).hasMessageContaining("nothing more is written");
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM reports")).isEqualTo(3);
        }
    }

    private static HttpResponse<Buffer> post(RunningCollector running, String token, int n) throws Exception {
        return running.postReport(token, ReportJson.toBytes(TestReports.numbered(n, 60, BASE)), false);
    }

    /** 4 KiB of garbage over the backups table's root page, behind SQLite's back, as a failing disk would write it. */
    static void garbageOnTheBackupsRootPage(Path file) throws Exception {
        int root;
        int pageSize;
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'backups'")) {
                rs.next();
                root = rs.getInt(1);
            }
            try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
                rs.next();
                pageSize = rs.getInt(1);
            }
        }
        byte[] garbage = new byte[pageSize];
        new Random(42).nextBytes(garbage);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek((long) (root - 1) * pageSize);
            f.write(garbage);
        }
    }
}
