package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.AgentMain;
import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.config.AgentConfigLoader;
import io.qatwatch.agent.daemon.AgentDaemon;
import io.qatwatch.agent.daemon.LiveProbes;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qatwatch agent} as a real process: health on loopback, SIGTERM, and what it left behind. */
class AgentProcessTest {

    @TempDir
    Path dir;

    @Test
    void sigtermStopsWithinSecondsAndTheReportsWrittenSurviveForTheNextStart() throws Exception {
        Vertx vertx = Vertx.vertx();
        Path collectorData = Files.createDirectories(dir.resolve("collector"));
        Collector collector = startCollector(vertx, collectorData, 0);
        int collectorPort = collector.port();
        String token = collector.tokens().add("sql05", TokenStore.Kind.AGENT, Instant.now());
        collector.stop().await(10, TimeUnit.SECONDS);

        int healthPort = freePort();
        Path tokenFile = Files.writeString(dir.resolve("agent.token"), token + "\n");
        Path config = Files.writeString(dir.resolve("agent.yaml"), """
                agent:
                  name: process-test
                collector:
                  url: http://127.0.0.1:%d
                  tokenFile: agent.token
                  maxBackoff: 2s
                health:
                  port: %d
                """.formatted(collectorPort, healthPort));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
        Path data = dir.resolve("data");

        Process agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), AgentMain.class.getName(),
                "agent", "--config", config.toString(), "--data", data.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        JsonObject health = null;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/healthz"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                health = new JsonObject(r.body());
                if (health.getLong("reportsWritten") >= 1 && health.getJsonObject("delivery").getString("lastFailure") != null) {
                    assertThat(r.statusCode()).isEqualTo(200);
                    break;
                }
            } catch (java.io.IOException notYet) {
                assertThat(agent.isAlive()).as("agent running; log: " + log()).isTrue();
            }
            Thread.sleep(100);
        }
        assertThat(health).as("healthz answered; log: " + log()).isNotNull();
        assertThat(health.getString("status")).isEqualTo("ok");
        assertThat(health.getJsonObject("outbox").getLong("depth")).isEqualTo(1);
        assertThat(health.getJsonObject("delivery").getString("lastFailure")).contains("no answer");

        long sent = System.nanoTime();
        agent.destroy();
        assertThat(agent.waitFor(5, TimeUnit.SECONDS)).as("stopped within 5 s of SIGTERM; log: " + log()).isTrue();
        long stopMillis = (System.nanoTime() - sent) / 1_000_000;
        assertThat(agent.exitValue()).isEqualTo(143);
        assertThat(log()).contains("qatwatch agent stopped; 1 report(s) wait in the outbox").doesNotContain(token);

        String reportId;
        try (Outbox outbox = Outbox.open(data.resolve("outbox"), new OutboxSettings(64L << 20, 4L << 20, true, 20))) {
            assertThat(outbox.stats().corruptTotal()).isZero();
            reportId = outbox.peek().orElseThrow().reportId();
        }

        collector = startCollector(vertx, collectorData, collectorPort);
        AgentConfig restarted = AgentConfigLoader.load(config, Map.of()).config();
        AgentDaemon daemon = AgentDaemon.start(vertx, restarted, data, token, LiveProbes.create(Clock.systemUTC()), Clock.systemUTC())
                .await(30, TimeUnit.SECONDS);
        try {
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (countReports(collector, reportId) == 0 && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(countReports(collector, reportId)).as("the report written before SIGTERM arrives after the restart").isEqualTo(1);
        } finally {
            daemon.stop().await(10, TimeUnit.SECONDS);
            collector.stop().await(10, TimeUnit.SECONDS);
            vertx.close().await(10, TimeUnit.SECONDS);
        }
        assertThat(stopMillis).isLessThan(5000);
    }

    @Test
    void aBadConfigStopsTheStartWithTheKeyAndExitCode2() throws Exception {
        Path config = Files.writeString(dir.resolve("agent.yaml"), "collector:\n  url: https://c.example.org\n  tokenFile: nope.token\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = AgentMain.run("agent", "--config", config.toString(), "--data", dir.resolve("data").toString());
        } finally {
            System.setErr(original);
        }
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("collector.tokenFile").contains("cannot read");
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("agent.log"));
        } catch (java.io.IOException e) {
            return "(no log)";
        }
    }

    private static Collector startCollector(Vertx vertx, Path data, int port) throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", port);
        return Collector.start(vertx, config, data, Clock.systemUTC()).await(30, TimeUnit.SECONDS);
    }

    private static int countReports(Collector collector, String reportId) throws Exception {
        return collector.database().read(c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM reports WHERE report_id = '" + reportId + "'")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
