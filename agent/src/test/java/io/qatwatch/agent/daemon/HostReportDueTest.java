package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsTestServer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host probe on a short cycle beside a SQL Server (the TDS test server over mssql-jdbc) and the real collector:
 * unchanged findings make no report, a change on disk does, and so does an hour; without a SQL Server every run
 * reports. The host is a copy of a Linux root folder, changed by writing real files into it.
 */
class HostReportDueTest {

    private static final Path HOST = Path.of("src/test/resources/hosts/linux-spr-4xxx-dc-up");

    @TempDir
    Path root;
    @TempDir
    Path agentData;
    @TempDir
    Path collectorData;

    private Vertx vertx;
    private Collector collector;
    private AgentDaemon daemon;
    private TdsTestServer sqlServer;
    private final AtomicInteger hostRuns = new AtomicInteger();
    /** How far the agent's clock is ahead of the real one. */
    private final AtomicReference<Duration> ahead = new AtomicReference<>(Duration.ZERO);

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        try (Stream<Path> files = Files.walk(HOST)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Path to = root.resolve(HOST.relativize(from).toString());
                if (Files.isSymbolicLink(from)) {
                    Files.createSymbolicLink(to, Files.readSymbolicLink(from));
                } else if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
        collector = Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1", 0), collectorData, Clock.systemUTC())
                .await(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.stop().await(10, TimeUnit.SECONDS);
        }
        collector.stop().await(10, TimeUnit.SECONDS);
        vertx.close().await(10, TimeUnit.SECONDS);
        if (sqlServer != null) {
            sqlServer.close();
        }
    }

    @Test
    void besideASqlServerUnchangedFindingsWaitAndAChangeOrAnHourIsReported() throws Exception {
        sqlServer = TdsTestServer.start(Scenario.fromResource("/sqlserver/scenarios/sql2022-ola-backup-failed.json"));
        start("sql01", true);
        await(() -> factsAt("sql01") != null, "the first host report, at start");
        Instant first = factsAt("sql01");
        long reports = reports();

        int runs = hostRuns.get();
        await(() -> hostRuns.get() >= runs + 4 && reports() >= reports + 2, "four more host runs and SQL Server reports meanwhile");
        assertThat(factsAt("sql01")).as("unchanged findings sent no host report").isEqualTo(first);
        assertThat(daemon.health().toJson().getJsonObject("probes").getJsonObject("qat").getString("at"))
                .as("/healthz still shows each run").isGreaterThan(first.toString());

        // a QAT library upgraded beside the old one: the next run reports it
        Files.writeString(root.resolve("usr/lib64/libqat.so.4.3.0"), "\u007fELF");
        await(() -> factsAt("sql01").isAfter(first) && qatJson("sql01").contains("libqat.so.4.3.0"), () -> "the new library at the collector: " + first + ", " + factsAt("sql01") + ", " + qatJson("sql01"));
        Instant changed = factsAt("sql01");

        int later = hostRuns.get();
        await(() -> hostRuns.get() >= later + 3, "three more runs");
        assertThat(factsAt("sql01")).as("the change is sent once").isEqualTo(changed);

        ahead.set(Duration.ofMinutes(61));
        await(() -> factsAt("sql01").isAfter(changed.plus(Duration.ofMinutes(60))), "the hourly report of unchanged findings");
    }

    @Test
    void withoutASqlServerEveryRunIsReported() throws Exception {
        start("host01", false);
        await(() -> factsAt("host01") != null, "the first host report");
        Instant first = factsAt("host01");
        await(() -> factsAt("host01").isAfter(first), "the next run's report, its findings unchanged");
        await(() -> reports() >= 3, "a report every run");
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        await(condition, () -> what);
    }

    private static void await(java.util.function.BooleanSupplier condition, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what.get());
            }
            Thread.sleep(25);
        }
    }

    private void start(String host, boolean withSql) throws Exception {
        String token = collector.tokens().add(host, TokenStore.Kind.AGENT, Instant.now());
        AgentConfig.Collector c = new AgentConfig.Collector(URI.create("http://127.0.0.1:" + collector.port()), null, null, null, true,
                Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMillis(500));
        AgentConfig.Schedule schedule = new AgentConfig.Schedule(Duration.ofMillis(300), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(300), Duration.ofMillis(50));
        List<SqlInstanceSettings> instances = List.of();
        if (withSql) {
            Path password = Files.writeString(agentData.resolve("sql-password"), "s3cret-Pa55\n");
            instances = List.of(new SqlInstanceSettings("PROD", sqlServer.jdbcUrl(), "qatwatch_monitor", password, null, false,
                    Duration.ofSeconds(5), Duration.ofSeconds(10), 1000));
        }
        AgentConfig config = new AgentConfig("due-agent", c, new OutboxSettings(8L << 20, 1L << 20, true, 5), schedule, 0, instances);
        HostInventoryProbe files = HostInventoryProbes.forRoot(root);
        HostInventoryProbe counted = () -> {
            HostInventory found = files.collect();
            hostRuns.incrementAndGet();
            return found;
        };
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.now().plus(ahead.get());
            }
        };
        daemon = AgentDaemon.start(vertx, config, agentData.resolve("agent"), token,
                new AgentDaemon.Probes(counted, s -> new JdbcSqlInstanceProbe(s, clock)), clock).await(30, TimeUnit.SECONDS);
    }

    private Instant factsAt(String host) {
        String at = hostColumn(host, "facts_at");
        return at == null ? null : Instant.ofEpochMilli(Long.parseLong(at));
    }

    private String qatJson(String host) {
        return String.valueOf(hostColumn(host, "qat_json"));
    }

    private long reports() {
        return Long.parseLong(query("SELECT COUNT(*) FROM reports", null));
    }

    private String hostColumn(String host, String column) {
        return query("SELECT " + column + " FROM hosts WHERE name = ?", host);
    }

    private String query(String sql, String parameter) {
        try {
            return collector.database().read(c -> {
                try (var s = c.prepareStatement(sql)) {
                    if (parameter != null) {
                        s.setString(1, parameter);
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
