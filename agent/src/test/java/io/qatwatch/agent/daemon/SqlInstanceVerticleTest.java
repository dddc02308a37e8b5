package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.sqlserver.HighWaterMarks;
import io.qatwatch.agent.ship.DeliveryStatus;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxSettings;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end of a backlog catch-up, which is when the agent gives back the heap the backlog grew. */
class SqlInstanceVerticleTest {

    @TempDir
    Path data;

    private Vertx vertx;
    private Outbox outbox;
    private final AtomicInteger caughtUp = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        outbox = Outbox.open(data.resolve("outbox"), new OutboxSettings(64L << 20, 4L << 20, false, 5));
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
    void historyThatFitsOnePageIsNoCatchUp() throws Exception {
        FakeMsdb msdb = new FakeMsdb("PROD", 7, 10);
        deploy(msdb);
        awaitCalls(msdb, 4);
        assertThat(caughtUp).hasValue(0);
    }

    private void deploy(FakeMsdb msdb) throws Exception {
        Clock clock = Clock.systemUTC();
        AgentHealth health = new AgentHealth(clock, clock.instant(), "test", new DeliveryStatus());
        ReportPublisher publisher = new ReportPublisher(vertx, outbox, clock, "sql01", "test", clock.instant(), health);
        AgentConfig.Schedule schedule = new AgentConfig.Schedule(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(100), Duration.ofMillis(20));
        vertx.deployVerticle(new SqlInstanceVerticle("PROD", msdb, publisher, new HighWaterMarks(data.resolve("marks")),
                schedule, clock, caughtUp::incrementAndGet)).await(10, TimeUnit.SECONDS);
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
