package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadDriverTest {

    private Vertx vertx;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void fixedRateSendsExactlyRateTimesDurationAndTheBareServerParsesThemAll() throws Exception {
        int port = ServeCommand.deployBare(vertx, 2);
        List<LoadDriver.Agent> agents = agents(3, Map.of());
        try (LoadDriver driver = new LoadDriver(port, "/api/v1/reports", agents, 4)) {
            LoadDriver.Run run = driver.fixedRate(200, Duration.ofMillis(500));
            assertThat(run.sent()).isEqualTo(100);
            assertThat(run.accepted()).isEqualTo(100);
            assertThat(run.statuses()).containsExactly(Map.entry(202, 100L));
            assertThat(run.latencies().count()).isEqualTo(100);
            assertThat(run.acceptedPerSecond()).isEqualTo(200.0);
        }
    }

    @Test
    void errorsAreCountedAsFailuresNotLatencies() throws Exception {
        int port = ServeCommand.deployBare(vertx, 1);
        try (LoadDriver driver = new LoadDriver(port, "/no/such/path", agents(1, Map.of()), 2)) {
            LoadDriver.Run run = driver.maxRate(2, Duration.ofMillis(200));
            assertThat(run.sent()).isPositive();
            assertThat(run.accepted()).isZero();
            assertThat(run.failed()).isEqualTo(run.sent());
            assertThat(run.statuses()).containsOnlyKeys(404);
            assertThat(run.latencies().count()).isZero();
        }
    }

    @Test
    void theRealCollectorAcceptsAndStoresEveryReportTheDriverSends(@TempDir Path data) throws Exception {
        CollectorConfig config = ServeCommand.benchConfig(null, null);
        Collector collector = Collector.start(vertx, config, data, Clock.systemUTC()).await(30, TimeUnit.SECONDS);
        try {
            Map<String, String> tokens = Map.of(
                    "sql0", collector.tokens().add("sql0", TokenStore.Kind.AGENT, Instant.now()),
                    "sql1", collector.tokens().add("sql1", TokenStore.Kind.AGENT, Instant.now()));
            try (LoadDriver driver = new LoadDriver(collector.port(), "/api/v1/reports", agents(2, tokens), 4)) {
                LoadDriver.Run closed = driver.maxRate(4, Duration.ofMillis(300));
                LoadDriver.Run open = driver.fixedRate(40, Duration.ofMillis(500));
                assertThat(closed.failed()).isZero();
                assertThat(open.accepted()).isEqualTo(20);
                long reports = closed.accepted() + open.accepted();
                long stored = 0;
                for (String host : tokens.keySet()) {
                    stored += collector.store().backups(host, SimulatedAgent.INSTANCE, Instant.EPOCH).size();
                }
                assertThat(stored).isEqualTo(reports * ReportTemplate.BACKUPS_PER_REPORT);
            }
        } finally {
            collector.stop().await(10, TimeUnit.SECONDS);
        }
    }

    private static List<LoadDriver.Agent> agents(int n, Map<String, String> tokens) {
        List<LoadDriver.Agent> agents = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ReportTemplate t = ReportTemplate.of(new SimulatedAgent(i), Instant.now(), "test");
            agents.add(new LoadDriver.Agent(t, tokens.getOrDefault(t.host(), "qw_none")));
        }
        return agents;
    }
}
