package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeliveryVerticleTest {

    private static final String TOKEN = "qwa_test_token_0123456789";

    @TempDir
    Path dir;

    private Vertx vertx;
    private Outbox outbox;
    private final DeliveryStatus status = new DeliveryStatus();

    @BeforeEach
    void setUp() throws IOException {
        vertx = Vertx.vertx();
        outbox = Outbox.open(dir.resolve("outbox"), new OutboxSettings(1 << 20, 1 << 16, true, 10));
    }

    @AfterEach
    void tearDown() throws IOException {
        vertx.close().await();
        outbox.close();
    }

    @Test
    void collectorDownWhileReportsPileUpThenUpEveryReportArrivesOnceInOrder() throws Exception {
        StubCollector collector = new StubCollector(TOKEN);
        int port = collector.start(vertx, 0);
        collector.stop();
        deploy(port, TOKEN, Duration.ofMillis(300));

        List<String> ids = appendReports(0, 6);
        await(() -> status.view().consecutiveFailures() >= 2, "delivery failing while the collector is down");
        assertThat(outbox.stats().depth()).isEqualTo(6);
        assertThat(status.view().lastFailure()).contains("no answer");

        collector.start(vertx, port);
        // the outbox empties before the status records the delivery: wait for both
        await(() -> outbox.stats().depth() == 0 && status.view().lastDeliveredAt() != null, "outbox drained once the collector is up");
        assertThat(collector.received).containsExactlyElementsOf(ids);
    }

    @Test
    void aRefusedReportIsParkedOnceAndTheNextOnesStillGo() throws Exception {
        StubCollector collector = new StubCollector(TOKEN)
                .then(400, null, new JsonObject().put("error", "must not be blank").put("field", "agent.name"));
        deploy(collector.start(vertx, 0), TOKEN, Duration.ofMillis(200));

        List<String> ids = appendReports(0, 3);
        await(() -> outbox.stats().depth() == 0, "outbox drained");
        // a later report delivered shows the refused one was not tried again meanwhile
        ids.addAll(appendReports(3, 4));
        await(() -> collector.storedIds.contains(ids.get(3)), "the next report stored");
        assertThat(collector.received).as("the refused report is sent once, never again").containsExactlyElementsOf(ids);
        assertThat(collector.storedIds).containsExactlyInAnyOrder(ids.get(1), ids.get(2), ids.get(3));
        assertThat(outbox.stats().parkedTotal()).isEqualTo(1);
        try (var parked = Files.list(dir.resolve("outbox/parked"))) {
            Path reason = parked.filter(p -> p.toString().endsWith(".reason.txt")).findFirst().orElseThrow();
            assertThat(Files.readString(reason)).contains("HTTP 400").contains("must not be blank").contains("field agent.name");
        }
        assertThat(status.view().lastFailure()).contains(ids.get(0)).contains("must not be blank");
    }

    @Test
    void tooManyRequestsWaitsAsLongAsTheCollectorAsks() throws Exception {
        StubCollector collector = new StubCollector(TOKEN).then(429, "1", null);
        deploy(collector.start(vertx, 0), TOKEN, Duration.ofMillis(50));

        long start = System.nanoTime();
        List<String> ids = appendReports(0, 1);
        await(() -> outbox.stats().depth() == 0, "delivered after Retry-After");
        long waitedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(waitedMillis).as("Retry-After: 1 is honoured over the 50 ms backoff").isGreaterThanOrEqualTo(900);
        assertThat(collector.received).containsExactly(ids.get(0), ids.get(0));
        assertThat(collector.storedIds).containsExactly(ids.get(0));
    }

    @Test
    void serverErrorsAreRetriedAndARepeatIsHarmless() throws Exception {
        StubCollector collector = new StubCollector(TOKEN).then(503, null, null).then(500, null, null);
        deploy(collector.start(vertx, 0), TOKEN, Duration.ofMillis(100));
        List<String> ids = appendReports(0, 2);
        await(() -> outbox.stats().depth() == 0, "delivered after two server errors");
        assertThat(collector.storedIds).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(outbox.stats().parkedTotal()).isZero();
    }

    @Test
    void aWrongTokenKeepsTheReportsAndWaitsTheLongestBackoff() throws Exception {
        StubCollector collector = new StubCollector(TOKEN);
        deploy(collector.start(vertx, 0), "qwa_wrong_token", Duration.ofSeconds(30));
        appendReports(0, 2);
        await(() -> status.view().consecutiveFailures() >= 1, "the 401 is seen");
        Thread.sleep(500);
        assertThat(collector.requests).as("one try, then the long wait").hasValue(1);
        assertThat(outbox.stats().depth()).as("a wrong token never costs a report").isEqualTo(2);
        assertThat(outbox.stats().parkedTotal()).isZero();
        assertThat(status.view().lastFailure()).contains("HTTP 401").contains("collector.tokenFile");
        assertThat(Duration.between(status.view().lastFailureAt(), status.view().nextAttemptAt())).isEqualTo(Duration.ofSeconds(30));
    }

    private void deploy(int port, String token, Duration maxBackoff) {
        CollectorClient client = new CollectorClient(vertx, URI.create("http://127.0.0.1:" + port), token, null,
                Duration.ofSeconds(2), Duration.ofSeconds(5));
        Backoff backoff = new Backoff(Duration.ofMillis(Math.min(50, maxBackoff.toMillis())), maxBackoff, Math::random);
        vertx.deployVerticle(new DeliveryVerticle(outbox, client, backoff, Clock.systemUTC(), true, status)).await();
    }

    private List<String> appendReports(int from, int to) throws IOException {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String id = String.format("report-%08d", i);
            outbox.append(id, ("{\"reportId\":\"" + id + "\",\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
            ids.add(id);
            vertx.eventBus().publish(DeliveryVerticle.WAKE_ADDRESS, null);
        }
        return ids;
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        // generous: a machine at load 15 was seen to need more than 15 s; a passing run never waits for it
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }
}
