package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.CollectorProcess;
import io.qatwatch.collector.testing.Influxd;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector as its own process: SIGKILL while an agent streams reports, restart, the agent redelivers
 * everything from its outbox, and every backup is stored exactly once. The same run checks that no token or
 * password reaches the collector's log.
 */
class CrashRecoveryTest {

    private static final int REPORTS = 40;
    private static final int BACKUPS_PER_REPORT = 5;
    /** Its backups, the accelerator row and the agent's health. */
    private static final int POINTS_PER_REPORT = BACKUPS_PER_REPORT + 2;
    private static final Instant BASE = Instant.now().minus(Duration.ofDays(2));
    private static final String INFLUX_PASSWORD = "pw-Influx-Never-Logged-7319";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void killedDuringIngestThenRedeliveredStoresEveryBackupOnceAndLogsNoSecret() throws Exception {
        Path data = dir.resolve("data");
        int port = Influxd.freePort();
        Path passwordFile = Files.writeString(dir.resolve("influx-password"), INFLUX_PASSWORD + "\n");
        Path config = Files.writeString(dir.resolve("collector.yaml"), """
                listen:
                  port: %d
                ingest:
                  reportsPerMinute: 10000
                influx:
                  url: http://127.0.0.1:%d
                  mode: v1
                  database: qatwatch
                  user: writer
                  passwordFile: %s
                  retryMaxSeconds: 1
                  timeoutSeconds: 1
                """.formatted(port, Influxd.freePort(), passwordFile));
        List<Path> logs = new ArrayList<>();

        String token;
        String oldToken;
        try (Database db = Database.open(data)) {
            TokenStore tokens = new TokenStore(db);
            token = tokens.add("sql01", TokenStore.Kind.AGENT, Instant.now());
            oldToken = tokens.add("sql-old", TokenStore.Kind.AGENT, Instant.now());
            tokens.revoke("sql-old", Instant.now());
        }

        List<byte[]> outbox = new ArrayList<>();
        for (int n = 1; n <= REPORTS; n++) {
            outbox.add(ReportJson.toBytes(TestReports.numbered(n, BACKUPS_PER_REPORT, BASE)));
        }
        Path collectorOutput = dir.resolve("collector.out");
        String[] serve = {"collector", "--config", config.toString(), "--data", data.toString()};

        Process first = CollectorProcess.start(log(logs), collectorOutput, port, serve);
        assertThat(post(port, oldToken, outbox.get(0))).isEqualTo(401);
        assertThat(post(port, token.substring(0, token.length() - 2) + "xx", outbox.get(0))).isEqualTo(401);
        AtomicInteger acknowledged = new AtomicInteger();
        CountDownLatch enough = new CountDownLatch(1);
        Thread agent = new Thread(() -> {
            for (byte[] report : outbox) {
                try {
                    if (post(port, token, report) != 202) {
                        return;
                    }
                } catch (Exception collectorGone) {
                    return;
                }
                if (acknowledged.incrementAndGet() == REPORTS / 3) {
                    enough.countDown();
                }
            }
            enough.countDown();
        });
        agent.start();
        assertThat(enough.await(60, TimeUnit.SECONDS)).isTrue();
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        agent.join(30_000);
        assertThat(acknowledged.get()).as("the kill landed mid-stream").isBetween(REPORTS / 3, REPORTS - 1);

        Process second = CollectorProcess.start(log(logs), collectorOutput, port, serve);
        try {
            int duplicates = 0;
            for (byte[] report : outbox) {
                HttpResponse<String> answer = send(port, token, report);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
                duplicates += answer.body().contains("\"duplicate\":true") ? 1 : 0;
            }
            assertThat(duplicates).as("reports acknowledged before the kill are recognised")
                    .isGreaterThanOrEqualTo(acknowledged.get());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            long spooled = -1;
            while (System.nanoTime() < deadline && spooled < REPORTS * POINTS_PER_REPORT) {
                spooled = get(port, "/metrics").lines().filter(l -> l.startsWith("qatwatch_influx_spool_points "))
                        .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(' ') + 1))).findFirst().orElse(-1);
                Thread.sleep(100);
            }
            assertThat(spooled).as("InfluxDB is down: every redelivered report's points wait in the spool")
                    .isGreaterThanOrEqualTo(REPORTS * POINTS_PER_REPORT);
        } finally {
            second.destroy();
            assertThat(second.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("qatwatch.db"))) {
            assertThat(scalar(db, "SELECT COUNT(*) FROM reports")).isEqualTo(REPORTS);
            assertThat(scalar(db, "SELECT COUNT(*) FROM backups")).isEqualTo(REPORTS * BACKUPS_PER_REPORT);
            assertThat(scalar(db, "SELECT COUNT(DISTINCT backup_set_id) FROM backups WHERE host = 'sql01'"))
                    .isEqualTo(REPORTS * BACKUPS_PER_REPORT);
            assertThat(scalar(db, "SELECT SUM(backups) FROM reports")).as("each backup counted by one report only")
                    .isEqualTo(REPORTS * BACKUPS_PER_REPORT);
        }

        String logged = readAll(logs) + Files.readString(collectorOutput, StandardCharsets.UTF_8);
        assertThat(logged).as("the logs were captured").contains("collector listening on")
                .contains("influx: write to");
        assertThat(logged).doesNotContain(secretOf(token)).doesNotContain(secretOf(oldToken))
                .doesNotContain(INFLUX_PASSWORD)
                .doesNotContain(java.util.Base64.getEncoder().encodeToString(
                        ("writer:" + INFLUX_PASSWORD).getBytes(StandardCharsets.UTF_8)));
    }

    private Path log(List<Path> logs) {
        Path file = dir.resolve("collector-" + logs.size() + ".log");
        logs.add(file);
        return file;
    }

    private static String secretOf(String token) {
        return token.substring("qw_".length() + 12 + 1);
    }

    private static String readAll(List<Path> files) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path f : files) {
            if (Files.exists(f)) {
                all.append(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return all.toString();
    }

    private int post(int port, String token, byte[] body) throws Exception {
        return send(port, token, body).statusCode();
    }

    private HttpResponse<String> send(int port, String token, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/reports"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static long scalar(Connection db, String sql) throws Exception {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
