package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.sqlserver.HighWaterMarks;
import io.qatwatch.agent.ship.Backoff;
import io.qatwatch.agent.ship.CollectorClient;
import io.qatwatch.agent.probe.sqlserver.HistoryMarks;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.DeliveryStatus;
import io.qatwatch.agent.ship.DeliveryVerticle;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsTestServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a backlog of backup history: page after page while the collector keeps up, waiting for deliveries when it
 * does not, and the end of the catch-up, which is when the agent gives back the heap the backlog grew; and the
 * histories' high-water marks, which move once a read's report is in the outbox. Reports go through the real
 * delivery loop to an HTTP server on loopback that answers like the collector.
 */
class SqlInstanceVerticleTest {

    @TempDir
    Path data;

    private Vertx vertx;
    private Outbox outbox;
    private final AtomicInteger caughtUp = new AtomicInteger();
    /** While set, the collector holds its answers (a slow or busy collector); released, it answers them all. */
    private final AtomicBoolean holding = new AtomicBoolean();
    private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();
    private HttpServer collector;

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        outbox = Outbox.open(data.resolve("outbox"), new OutboxSettings(64L << 20, 4L << 20, false, 5));
        collector = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            if (holding.get()) {
                held.add(req);
            } else {
                accept(req);
            }
        })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        CollectorClient client = new CollectorClient(vertx, URI.create("http://127.0.0.1:" + collector.actualPort()), "t",
                null, Duration.ofSeconds(5), Duration.ofSeconds(30));
        vertx.deployVerticle(new DeliveryVerticle(outbox, client, new Backoff(Duration.ofMillis(50), Duration.ofSeconds(1),
                () -> 0.5), Clock.systemUTC(), true, new DeliveryStatus())).await(10, TimeUnit.SECONDS);
    }

    private static void accept(HttpServerRequest req) {
        req.response().setStatusCode(202).end("{\"reportId\":\"x\",\"duplicate\":false}");
    }

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
        outbox.close();
    }

    @Test
    void aBacklogOfThreePagesEndsInOneCatchUp() throws Exception {
        FakeMsdb msdb = new FakeMsdb("PROD", 25, 10);
        deploy(msdb);
        awaitCalls(msdb, 6);
        assertThat(msdb.askedAfter).startsWith(-1L, 10L, 20L, 25L);
        assertThat(caughtUp).hasValue(1);
    }

    @Test
    void aBacklogWaitsForTheCollectorInsteadOfFillingTheOutbox() throws Exception {
        holding.set(true);
        FakeMsdb msdb = new FakeMsdb("PROD", 50, 10);
        deploy(msdb);
        awaitCalls(msdb, 2);
        // the first page's report is being delivered, the second waits: with the pause of 20 ms, 8 more pages would
        // have been read in this time had reading not waited for the collector
        Thread.sleep(300);
        assertThat(msdb.askedAfter).containsExactly(-1L, 10L);
        assertThat(outbox.stats().depth()).isEqualTo(2);

        holding.set(false);
        held.forEach(SqlInstanceVerticleTest::accept);
        awaitCalls(msdb, 6);
        assertThat(msdb.askedAfter).startsWith(-1L, 10L, 20L, 30L, 40L, 50L);
        assertThat(caughtUp).hasValue(1);
    }

    @Test
    void historyThatFitsOnePageIsNoCatchUp() throws Exception {
        FakeMsdb msdb = new FakeMsdb("PROD", 7, 10);
        deploy(msdb);
        awaitCalls(msdb, 4);
        assertThat(caughtUp).hasValue(0);
    }

    @Test
    void eachHistorysMarkIsKeptOnDiskAndTheNextReadAsksAboveIt() throws Exception {
        // the real probe over mssql-jdbc against a scenario with job runs, CommandLog rows and no restores
        try (TdsTestServer server = TdsTestServer.start(Scenario.fromResource("/sqlserver/scenarios/sql2022-ola-backup-failed.json"))) {
            Path password = data.resolve("sql-password");
            Files.writeString(password, "s3cret-Pa55\n");
            SqlInstanceSettings settings = new SqlInstanceSettings("PROD", server.jdbcUrl(), "qatwatch_monitor", password, null, false,
                    Duration.ofSeconds(5), Duration.ofSeconds(10), 1000);
            HighWaterMarks marks = new HighWaterMarks(data.resolve("marks"));
            marks.put("PROD", HighWaterMarks.History.RESTORES, 3);
            deploy(new JdbcSqlInstanceProbe(settings, Clock.systemUTC()), marks);
            // The second cycle's reads ask above the first one's marks, and are sent only after those marks are on disk
            // (the cursor advances before the next cycle starts). Wait for all three batches the test asserts: the
            // job-history read comes before the CommandLog read in a cycle, so waiting for the first alone raced the
            // second (CI once saw the job-history batch and not yet the CommandLog one). Room for a loaded machine: two
            // cycles of JDBC logins and queries once took more than 20 s under a load of 16.
            List<String> secondReads = List.of("h.instance_id > 88212", "cl.ID > 120395", "rh.restore_history_id > 3");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!secondReads.stream().allMatch(read -> server.batches().stream().anyMatch(b -> b.contains(read)))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(new HighWaterMarks(data.resolve("marks")).of("PROD"))
                    .isEqualTo(new HistoryMarks(41232L, 88212L, 120395L, 3L));
            for (String read : secondReads) {
                assertThat(server.batches()).as("a batch asking %s", read).anyMatch(b -> b.contains(read));
            }
        }
    }

    private void deploy(FakeMsdb msdb) throws Exception {
        deploy(msdb, new HighWaterMarks(data.resolve("marks")));
    }

    private void deploy(SqlInstanceProbe probe, HighWaterMarks marks) throws Exception {
        Clock clock = Clock.systemUTC();
        AgentHealth health = new AgentHealth(clock, clock.instant(), "test", new DeliveryStatus());
        ReportPublisher publisher = new ReportPublisher(vertx, outbox, clock, "sql01", "test", clock.instant(), health);
        AgentConfig.Schedule schedule = new AgentConfig.Schedule(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(100), Duration.ofMillis(20));
        vertx.deployVerticle(new SqlInstanceVerticle("PROD", probe, publisher, marks, schedule, clock, caughtUp::incrementAndGet))
                .await(10, TimeUnit.SECONDS);
    }

    /** Waits for {@code calls} probe calls, then a little longer for the last one's report and hook. */
    private static void awaitCalls(FakeMsdb msdb, int calls) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (msdb.calls.get() < calls && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(msdb.calls.get()).as("probe calls").isGreaterThanOrEqualTo(calls);
        Thread.sleep(200);
    }
}
