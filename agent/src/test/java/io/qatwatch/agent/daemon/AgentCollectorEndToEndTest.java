package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.sqlserver.HighWaterMarks;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.agent.ship.SmallDisk;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent daemon and the real collector, both in-process, over loopback HTTP: the "done when" of delivery. */
class AgentCollectorEndToEndTest {

    @TempDir
    Path agentData;
    @TempDir
    Path collectorData;

    private Vertx vertx;
    /** Where the agent keeps its outbox and state: {@link #agentData}, or a small disk for the disk-full drill. */
    private Path agentDir;
    private SmallDisk disk;
    private Collector collector;
    private AgentDaemon daemon;
    private final AtomicInteger hostRuns = new AtomicInteger();

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        agentDir = agentData;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.stop().await(10, TimeUnit.SECONDS);
        }
        if (collector != null) {
            collector.stop().await(10, TimeUnit.SECONDS);
        }
        vertx.close().await(10, TimeUnit.SECONDS);
        if (disk != null) {
            disk.close();
        }
    }

    @Test
    void collectorDownWhileTheAgentReportsThenUpEveryReportArrivesExactlyOnce() throws Exception {
        int port = startCollector(0, 10_000);
        String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, Instant.now());
        collector.stop().await(10, TimeUnit.SECONDS);
        collector = null;

        FakeMsdb msdb = new FakeMsdb("PROD", 45, 10);
        startAgent(port, token, new OutboxSettings(8L << 20, 1L << 20, true, 5), Duration.ofMillis(300), msdb);
        await(() -> msdb.calls.get() >= 4 && hostRuns.get() >= 1, "reports piling up while the collector is down");
        assertThat(daemon.outbox().stats().depth()).isGreaterThanOrEqualTo(4);
        assertThat(daemon.health().toJson().getJsonObject("delivery").getString("lastFailure")).contains("no answer");

        startCollector(port, 10_000);
        await(() -> count("SELECT COUNT(*) FROM backups") == 45, "all 45 backup rows at the collector");
        await(() -> daemon.outbox().stats().depth() == 0, "outbox drained");
        daemon.stop().await(10, TimeUnit.SECONDS);
        long written = daemon.health().reportsWritten();
        daemon = null;

        long left;
        try (Outbox reopened = Outbox.open(agentData.resolve("outbox"), new OutboxSettings(8L << 20, 1L << 20, true, 5))) {
            left = reopened.stats().depth();
        }
        assertThat(count("SELECT COUNT(*) FROM reports") + left).as("every report written is stored once or still waits")
                .isEqualTo(written);
        assertThat(metric("qatwatch_reports_duplicate_total")).as("nothing was sent twice").isZero();
        assertThat(msdb.askedAfter).as("high-water marks: first sync, then page by page, never backwards")
                .startsWith(-1L, 10L, 20L, 30L, 40L).isSorted();
        assertThat(new HighWaterMarks(agentData.resolve("state").resolve(AgentDaemon.HIGH_WATER_MARKS)).afterBackupSetId("PROD"))
                .isEqualTo(45L);
    }

    @Test
    void whenTheOutboxIsFullTheOldestAreDroppedAndTheCountReachesTheCollector() throws Exception {
        int port = startCollector(0, 10_000);
        String token = collector.tokens().add("sql02", TokenStore.Kind.AGENT, Instant.now());
        collector.stop().await(10, TimeUnit.SECONDS);
        collector = null;

        startAgent(port, token, new OutboxSettings(6 * 1024, 2 * 1024, true, 5), Duration.ofMillis(200), null, Duration.ofMillis(40));
        await(() -> daemon.outbox().stats().droppedTotal() >= 5, "reports dropped while the collector is down");

        startCollector(port, 10_000);
        await(() -> {
            JsonNode agent = latestAgentInfo("sql02");
            return agent != null && agent.path("outboxDroppedTotal").asLong() >= 5;
        }, "the drop count at the collector");
        long droppedAtCollector = latestAgentInfo("sql02").path("outboxDroppedTotal").asLong();
        assertThat(droppedAtCollector).isLessThanOrEqualTo(daemon.outbox().stats().droppedTotal());
        assertThat(metric("qatwatch_reports_duplicate_total")).isZero();
    }

    @Test
    void aReportTheCollectorRefusesIsParkedAndDeliveryGoesOn() throws Exception {
        int port = startCollector(0, 10_000);
        String token = collector.tokens().add("sql03", TokenStore.Kind.AGENT, Instant.now());
        FakeMsdb msdb = new FakeMsdb("PROD", 0, 10);
        msdb.nameOverride = "not a valid name";
        startAgent(port, token, new OutboxSettings(8L << 20, 1L << 20, true, 5), Duration.ofMillis(200), msdb);

        await(() -> daemon.outbox().stats().parkedTotal() >= 1, "the refused report parked");
        msdb.nameOverride = null;
        int before = count("SELECT COUNT(*) FROM reports");
        await(() -> count("SELECT COUNT(*) FROM reports") > before + 2, "later reports still delivered");

        long parked = daemon.outbox().stats().parkedTotal();
        assertThat(metricSum("qatwatch_reports_rejected_total")).as("each refused report was sent once, never looped")
                .isEqualTo(parked);
        Path reason;
        try (var files = Files.list(agentData.resolve("outbox/parked"))) {
            reason = files.filter(p -> p.toString().endsWith(".reason.txt")).sorted().findFirst().orElseThrow();
        }
        assertThat(Files.readString(reason)).contains("HTTP 400").contains("instances[0].name");
        assertThat(daemon.health().toJson().getJsonObject("outbox").getLong("parkedTotal")).isEqualTo(parked);
    }

    @Test
    void afterACrashMidAppendTheRestartedAgentDeliversEveryIntactReportAndTellsTheCollectorOfTheTornOne() throws Exception {
        Path outboxDir = agentData.resolve("outbox");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-cp", System.getProperty("java.class.path"), "io.qatwatch.agent.ship.OutboxWriterProcess",
                outboxDir.toString(), "torn").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()))
                .lines().takeWhile(l -> !l.equals("TORN")).toList();
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        List<String> appended = lines.stream().filter(l -> l.startsWith("APPENDED ")).map(l -> l.split(" ")[2]).toList();
        assertThat(appended).hasSize(5);

        int port = startCollector(0, 10_000);
        String token = collector.tokens().add("sql04", TokenStore.Kind.AGENT, Instant.now());
        startAgent(port, token, new OutboxSettings(64L << 20, 256L << 10, true, 5), Duration.ofMillis(200), null);
        await(() -> count("SELECT COUNT(*) FROM reports WHERE report_id LIKE 'proc-%'") == 5, "the five intact reports");
        await(() -> {
            JsonNode agent = latestAgentInfo("sql04");
            return agent != null && agent.path("outboxCorruptTotal").asLong() == 1;
        }, "the torn record counted at the collector");
        assertThat(daemon.outbox().stats().corruptTotal()).isEqualTo(1);
    }

    @Test
    void onAFullDiskTheReportsThatCannotBeWrittenAreCountedAndTheCountReachesTheCollectorWhenSpaceReturns() throws Exception {
        disk = SmallDisk.mount(agentData.resolve("small-disk"), 1024);
        agentDir = disk.path();
        int port = startCollector(0, 100_000);
        String token = collector.tokens().add("sql05", TokenStore.Kind.AGENT, Instant.now());
        startAgent(port, token, new OutboxSettings(512 * 1024, 64 * 1024, true, 5), Duration.ofMillis(200), null,
                Duration.ofMillis(40));
        await(() -> count("SELECT COUNT(*) FROM reports") >= 3, "reports delivered before the disk fills");

        disk.fill();
        await(() -> daemon.outbox().stats().lostTotal() >= 5, "reports lost to the full disk");
        var health = daemon.health().toJson();
        assertThat(health.getString("status")).isEqualTo("degraded");
        assertThat(health.getJsonObject("outbox").getString("appendError")).contains("No space left");
        assertThat(health.getJsonObject("outbox").getLong("lostTotal")).isGreaterThanOrEqualTo(5);
        long lostWhileFull = daemon.outbox().stats().lostTotal();

        disk.free();
        await(() -> {
            JsonNode agent = latestAgentInfo("sql05");
            return agent != null && agent.path("outboxLostTotal").asLong() >= lostWhileFull;
        }, "the lost count at the collector");
        await(() -> daemon.health().healthy(), "the agent healthy again once it can write");
        long lost = daemon.outbox().stats().lostTotal();
        assertThat(daemon.health().toJson().getJsonObject("outbox").getLong("lostTotal")).isEqualTo(lost);
        assertThat(latestAgentInfo("sql05").path("outboxLostTotal").asLong()).isBetween(lostWhileFull, lost);
        String page = vertx.createHttpClient().request(io.vertx.core.http.HttpMethod.GET, collector.port(), "127.0.0.1", "/?host=sql05")
                .compose(r -> r.send()).compose(r -> r.body()).await(10, TimeUnit.SECONDS).toString();
        assertThat(page).as("the status page says the agent lost reports").containsPattern("lost \\d+ reports");

        daemon.stop().await(10, TimeUnit.SECONDS);
        daemon = null;
        try (Outbox reopened = Outbox.open(agentDir.resolve("outbox"), new OutboxSettings(512 * 1024, 64 * 1024, true, 5))) {
            assertThat(reopened.stats().corruptTotal()).as("the failed appends left no torn record").isZero();
            assertThat(reopened.stats().lostTotal()).isEqualTo(lost);
        }
    }

    private void startAgent(int port, String token, OutboxSettings outbox, Duration maxBackoff, FakeMsdb msdb) throws Exception {
        startAgent(port, token, outbox, maxBackoff, msdb, Duration.ofHours(1));
    }

    private void startAgent(int port, String token, OutboxSettings outbox, Duration maxBackoff, FakeMsdb msdb, Duration hostEvery)
            throws Exception {
        AgentConfig d = AgentConfig.defaults();
        AgentConfig.Collector c = new AgentConfig.Collector(URI.create("http://127.0.0.1:" + port), null, null, null, true,
                Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofMillis(50), maxBackoff);
        AgentConfig.Schedule schedule = new AgentConfig.Schedule(hostEvery, Duration.ofHours(1), Duration.ofSeconds(2),
                Duration.ofMillis(300), Duration.ofMillis(50));
        List<SqlInstanceSettings> instances = msdb == null ? List.of() : List.of(AgentConfig.instanceDefaults("PROD", "jdbc:sqlserver://127.0.0.1:1"));
        AgentConfig config = new AgentConfig("e2e-agent", c, outbox, schedule, 0, instances);
        HostInventoryProbe host = () -> {
            hostRuns.incrementAndGet();
            return new HostInventory(null, null, null, List.of(ProbeStatus.ok("host", 1), ProbeStatus.ok("qat", 1),
                    ProbeStatus.failed("licence", 0, "x".repeat(900), null)));
        };
        Function<SqlInstanceSettings, SqlInstanceProbe> sql = s -> msdb;
        daemon = AgentDaemon.start(vertx, config, agentDir, token, new AgentDaemon.Probes(host, sql), Clock.systemUTC())
                .await(30, TimeUnit.SECONDS);
    }

    private int startCollector(int port, int reportsPerMinute) throws Exception {
        CollectorConfig d = CollectorConfig.defaults();
        CollectorConfig config = d.withListen("127.0.0.1", port)
                .withIngest(new IngestConfig(d.ingest().maxBodyBytes(), reportsPerMinute));
        collector = Collector.start(vertx, config, collectorData, Clock.systemUTC()).await(30, TimeUnit.SECONDS);
        return collector.port();
    }

    private int count(String sql) {
        try {
            return collector.database().read(c -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
        } catch (SQLException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode latestAgentInfo(String host) {
        try {
            return collector.database().read(c -> {
                try (var s = c.prepareStatement("SELECT agent_json FROM hosts WHERE name = ?")) {
                    s.setString(1, host);
                    try (ResultSet rs = s.executeQuery()) {
                        return rs.next() && rs.getString(1) != null ? ReportJson.mapper().readTree(rs.getString(1)) : null;
                    }
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long metric(String name) throws Exception {
        return metricSum(name);
    }

    /** Sums every series of a Prometheus counter on the collector's {@code /metrics}. */
    private long metricSum(String name) throws Exception {
        String text = vertx.createHttpClient().request(io.vertx.core.http.HttpMethod.GET, collector.port(), "127.0.0.1", "/metrics")
                .compose(r -> r.send()).compose(r -> r.body()).await(10, TimeUnit.SECONDS).toString();
        long sum = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(25);
        }
    }
}
