package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat channel whose server never answers and one that answers 503 to everything, on the same host and port as a
 * healthy one, with 120 groups raised at once: the healthy channel gets all 120 at once (its own connections), the
 * evaluation completes without waiting for the dead channel's deliveries and so does the next one, and the failing
 * channel retries at most {@link AlertService#CHANNEL_BACKLOG} groups, new ones beyond put off and counted.
 */
@ExtendWith(VertxExtension.class)
class ChannelIsolationTest {

    private static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");
    private static final int HOSTS = 120;
    /** The dead channel's timeout: longer than anything the test waits for, so it never ends a request here. */
    private static final int DEAD_TIMEOUT_SECONDS = 60;

    private Vertx vertx;
    private Database db;
    private HttpServer server;
    private final Queue<Instant> healthy = new ConcurrentLinkedQueue<>();
    private final AtomicInteger deadRequests = new AtomicInteger();
    private final AtomicInteger failingRequests = new AtomicInteger();
    private AlertService service;
    private io.qatwatch.collector.alert.rule.AlertEvaluator evaluator;

    @BeforeEach
    void start(Vertx vertx, @TempDir Path dir) throws Exception {
        this.vertx = vertx;
        server = vertx.createHttpServer().requestHandler(req -> {
            if (req.path().equals("/dead")) {
                deadRequests.incrementAndGet();
                return;
            }
            if (req.path().equals("/failing")) {
                req.body().onSuccess(b -> {
                    failingRequests.incrementAndGet();
                    req.response().setStatusCode(503).end("down for maintenance");
                });
                return;
            }
            req.body().onSuccess(b -> {
                healthy.add(Instant.now());
                req.response().setStatusCode(200).end("ok");
            });
        });
        int port = await(server.listen(0, "127.0.0.1")).actualPort();
        db = Database.open(dir);
        ChannelConfig dead = new ChannelConfig("webhook", "dead", "http://127.0.0.1:" + port + "/dead", null, null, null,
                null, DEAD_TIMEOUT_SECONDS, null, null, null, null, null, null, null, null, null);
        ChannelConfig failing = new ChannelConfig("webhook", "failing", "http://127.0.0.1:" + port + "/failing", null,
                null, null, null, 5, null, null, null, null, null, null, null, null, null);
        ChannelConfig ops = new ChannelConfig("webhook", "ops", "http://127.0.0.1:" + port + "/ops", null, null, null,
                null, 5, null, null, null, null, null, null, null, null, null);
        AlertsConfig config = new AlertsConfig(null, null, null, null, null,
                new PipelineConfig(List.of("rule", "host"), 240, 1, 4, "https://qatwatch.example.test/", null, null, null),
                List.of(dead, failing, ops)).validate();
        List<io.qatwatch.collector.dispatch.Notifier> notifiers = Notifiers.create(vertx, config.channels(),
                new Secrets(Map.of()));
        evaluator = config.evaluator();
        service = new AlertService(vertx, db, evaluator, config.pipeline(), notifiers, new Random(7));
        await(service.start());
    }

    @AfterEach
    void stop() throws Exception {
        await(server.close());
        db.close();
    }

    @Test
    void aDeadChannelNeitherDelaysTheEvaluationNorAnotherChannelAndAFailingOnesBacklogIsBounded() throws Exception {
        long started = System.nanoTime();
        AlertService.Result first = await(service.started(() -> evaluator.analyse(fleet(HOSTS), T0), T0));
        Duration evaluated = Duration.ofNanos(System.nanoTime() - started);
        assertThat(first.sent()).hasSize(3 * HOSTS);
        assertThat(first.firstTries().isComplete()).as("the dead channel's first tries are still waiting").isFalse();
        assertThat(evaluated).as("the evaluation did not wait for a delivery").isLessThan(Duration.ofSeconds(DEAD_TIMEOUT_SECONDS));

        waitFor(() -> healthy.size() >= HOSTS, 30);
        Duration healthyTook = Duration.ofNanos(System.nanoTime() - started);
        assertThat(healthy).as("each group once").hasSize(HOSTS);
        assertThat(healthyTook).as("every message of the healthy channel, while the dead one hangs")
                .isLessThan(Duration.ofSeconds(DEAD_TIMEOUT_SECONDS / 2));
        waitFor(() -> failingRequests.get() >= HOSTS && service.channelHealth().get("failing").failed() >= HOSTS, 30);

        // the next minute: 10 more hosts silent; the evaluation runs while the dead channel's deliveries still hang,
        // and the failing channel, retrying 120 groups, puts the 10 new ones off
        int more = 10;
        AlertService.Result second = await(service.started(() -> evaluator.analyse(fleet(HOSTS + more), T0.plusSeconds(60)),
                T0.plusSeconds(60)));
        assertThat(second.evaluation()).isNotNull();
        assertThat(service.delivering()).isTrue();
        waitFor(() -> healthy.size() >= HOSTS + more, 30);
        assertThat(healthy).hasSize(HOSTS + more);

        ChannelHealth.Snapshot failingHealth = service.channelHealth().get("failing");
        assertThat(failingHealth.dropped()).as("new groups while %d were retried", AlertService.CHANNEL_BACKLOG)
                .isEqualTo(more);
        assertThat(failingHealth.lastError()).contains("groups being retried for this channel already");
        assertThat(service.channelHealth().get("ops").dropped()).isZero();
        // the server has them all; the channel's answers may still be on their way back
        waitFor(() -> service.channelHealth().get("ops").delivered() >= HOSTS + more, 10);
        assertThat(service.channelHealth().get("ops").delivered()).isEqualTo(HOSTS + more);
        // the dead channel's own pool: one request per connection reaches it, however many groups wait
        waitFor(() -> deadRequests.get() == Notifiers.CONNECTIONS_PER_CHANNEL, 10);
    }

    private static FleetState fleet(int hosts) {
        Map<String, Instant> lastSeen = new LinkedHashMap<>();
        for (int i = 0; i < hosts; i++) {
            lastSeen.put(String.format("sql-%03d", i), T0.minus(Duration.ofMinutes(30)));
        }
        return fleet(lastSeen);
    }

    private static FleetState fleet(Map<String, Instant> lastSeen) {
        return new FleetState(lastSeen.entrySet().stream()
                .map(e -> new FleetState.HostState(e.getKey(), null, e.getValue(), null, null, null, List.of())).toList());
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private void waitFor(BooleanSupplier condition, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("condition within " + seconds + " s (healthy channel got "
                + "%d, the dead one %d requests)", healthy.size(), deadRequests.get()).isTrue();
    }
}
