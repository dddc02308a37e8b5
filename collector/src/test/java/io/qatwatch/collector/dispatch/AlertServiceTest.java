package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The whole pipeline with an injected clock, the real SQLite store and a real webhook server on loopback. */
@ExtendWith(VertxExtension.class)
class AlertServiceTest {

    private static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");

    private final Loopback server = new Loopback();
    private Vertx vertx;
    private Database db;
    private AlertsConfig config;
    private List<Notifier> notifiers;

    @BeforeEach
    void start(Vertx vertx, @TempDir Path dir) throws Exception {
        this.vertx = vertx;
        int port = await(server.start(vertx));
        db = Database.open(dir);
        ChannelConfig hook = new ChannelConfig("webhook", "ops", "http://127.0.0.1:" + port + "/hook", null, null, null, null,
                2, null, null, null, null, null, null, null, null, null);
        config = new AlertsConfig(null, null, null, null, null,
                new PipelineConfig(List.of("rule"), 240, 1, 4, "https://qatwatch.example.test/", null, null, null), List.of(hook)).validate();
        notifiers = Notifiers.create(vertx, config.channels(), new Secrets(Map.of()));
    }

    @AfterEach
    void stop() throws Exception {
        await(server.stop());
        db.close();
    }

    private AlertService service() throws Exception {
        AlertService s = new AlertService(vertx, db, config.evaluator(), config.pipeline(), notifiers, new Random(7));
        await(s.start());
        return s;
    }

    /** Hosts whose agents last reported at the given instants. */
    private static FleetState fleet(Map<String, Instant> lastSeen) {
        return new FleetState(lastSeen.entrySet().stream()
                .map(e -> new FleetState.HostState(e.getKey(), null, e.getValue(), null, null, null, List.of())).toList());
    }

    @Test
    void firstThenQuietThenRepeatThenResolvedAcrossARestart() throws Exception {
        AlertService s = service();
        FleetState silent = fleet(Map.of("sql-x", T0.minus(Duration.ofMinutes(30))));

        AlertService.Result r = await(s.evaluate(silent, T0));
        assertThat(r.sent()).containsExactly("ops rule=agent-silent FIRST");
        JsonObject first = server.received.get(0).body();
        assertThat(first.getString("reason")).isEqualTo("first");
        assertThat(first.getJsonArray("alerts").getJsonObject(0).getString("summary")).isEqualTo("Agent on sql-x silent since 2026-11-30T05:30Z");

        assertThat(await(s.evaluate(silent, T0.plusSeconds(60))).sent()).isEmpty();

        AlertService restarted = service();
        assertThat(restarted.activeAlerts()).singleElement().satisfies(a -> assertThat(a.since()).isEqualTo(T0));
        assertThat(await(restarted.evaluate(silent, T0.plusSeconds(120))).sent()).as("the log survived the restart").isEmpty();
        JsonArray api = restarted.activeAlertsJson();
        assertThat(api.getJsonObject(0).fieldNames()).contains("id", "rule", "severity", "host", "instance", "database",
                "summary", "details", "since");
        assertThat(api.getJsonObject(0).getString("since")).isEqualTo("2026-11-30T06:00:00Z");

        assertThat(await(restarted.evaluate(silent, T0.plus(Duration.ofHours(4)))).sent()).containsExactly("ops rule=agent-silent REPEAT");

        Instant back = T0.plus(Duration.ofHours(4)).plusSeconds(300);
        assertThat(await(restarted.evaluate(fleet(Map.of("sql-x", back)), back)).sent())
                .containsExactly("ops rule=agent-silent RESOLVED");
        JsonObject resolved = server.received.get(2).body();
        assertThat(resolved.getString("status")).isEqualTo("resolved");
        assertThat(resolved.getJsonArray("alerts").getJsonObject(0).getString("resolvedAt")).isEqualTo(back.toString());
        assertThat(restarted.activeAlerts()).isEmpty();
        assertThat(await(restarted.evaluate(fleet(Map.of("sql-x", back)), back.plusSeconds(60))).sent()).isEmpty();
        assertThat(server.received).hasSize(3);
        // the host page lists it as resolved for a week, then it is forgotten
        assertThat(restarted.resolvedAlerts("SQL-X", 50)).singleElement().satisfies(a -> {
            assertThat(a.since()).isEqualTo(T0);
            assertThat(a.resolvedAt()).isEqualTo(back);
        });
        assertThat(restarted.resolvedAlerts("sql-y", 50)).isEmpty();
        Instant weekLater = back.plus(AlertService.KEEP_RESOLVED).plusSeconds(60);
        await(restarted.evaluate(fleet(Map.of("sql-x", weekLater)), weekLater));
        assertThat(restarted.resolvedAlerts("sql-x", 50)).isEmpty();
    }

    @Test
    void aFailingEndpointIsRetriedNeverLosesTheAlertAndGetsOnlyTheLatestStateAfterRecovery() throws Exception {
        server.then(500, null).then(0, null).then(429, "2");
        AlertService s = service();

        await(s.evaluate(fleet(Map.of("sql-x", T0.minusSeconds(3600))), T0));
        // While the channel is down, a second host goes silent: the group changes but is not queued twice.
        await(s.evaluate(fleet(Map.of("sql-x", T0.minusSeconds(3600), "sql-y", T0.minusSeconds(1800))), T0.plusSeconds(60)));
        waitFor(() -> !s.delivering(), 30);

        // 500, no answer, 429, then delivered (a reply slower than the timeout on a loaded machine adds a retry).
        int requests = server.received.size();
        assertThat(requests).isGreaterThanOrEqualTo(4);
        Duration honoured = Duration.between(server.received.get(2).at(), server.received.get(3).at());
        assertThat(honoured).as("Retry-After: 2").isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        JsonArray delivered = server.received.get(requests - 1).body().getJsonArray("alerts");
        assertThat(delivered.stream().map(o -> ((JsonObject) o).getString("host"))).containsExactlyInAnyOrder("sql-x", "sql-y");

        assertThat(await(s.evaluate(fleet(Map.of("sql-x", T0.minusSeconds(3600), "sql-y", T0.minusSeconds(1800))),
                T0.plusSeconds(120))).sent()).isEmpty();
        assertThat(server.received).hasSize(requests);
    }

    @Test
    void aSilenceMutesUntilItExpires() throws Exception {
        AlertService s = service();
        FleetState silent = fleet(Map.of("sql-x", T0.minusSeconds(3600)));
        Silence sil = await(s.silence("agent-silent", "sql-*", null, null, "decommissioning", "dba", T0, T0.plusSeconds(3600)));

        assertThat(await(s.evaluate(silent, T0)).sent()).isEmpty();
        assertThat(s.activeAlertsJson().getJsonObject(0).getBoolean("silenced")).isTrue();
        assertThat(service().silences(T0.plusSeconds(60))).as("stored").extracting(Silence::id).containsExactly(sil.id());

        assertThat(await(s.expireSilence(sil.id(), T0.plusSeconds(600)))).isTrue();
        assertThat(await(s.evaluate(silent, T0.plusSeconds(660))).sent()).containsExactly("ops rule=agent-silent FIRST");
        assertThat(server.received).hasSize(1);
    }

    /**
     * One instance whose Monday-night window ran 30 minutes into business hours (default calendar: Mon-Fri 07:00-19:00
     * UTC) and whose later nights had no full or differential backup; the agent reports at {@code now}.
     */
    private static FleetState breachedOnMondayThenNoWindow(Instant now) {
        Instant monday = Instant.parse("2026-11-30T00:00:00Z");
        List<BackupRecord> backups = new java.util.ArrayList<>();
        for (int d = 7; d >= 1; d--) {
            Instant start = monday.minus(Duration.ofDays(d)).plus(Duration.ofHours(1));
            backups.add(Histories.backup("Sales", "D", start, 3600, 50_000_000_000L, "QAT_DEFLATE", "LOCAL"));
        }
        backups.add(Histories.backup("Sales", "D", monday.plus(Duration.ofHours(4)), 3 * 3600 + 1800, 50_000_000_000L,
                "QAT_DEFLATE", "LOCAL"));
        return new FleetState(List.of(Histories.host("sql-x", now,
                Histories.instance("PROD", now, List.of(Histories.db("Sales", "SIMPLE")), backups, List.of()))));
    }

    private List<String> breachNotices(AlertService s, Instant now) throws Exception {
        return await(s.evaluate(breachedOnMondayThenNoWindow(now), now)).sent().stream()
                .filter(n -> n.contains("rule=backup-window-breach")).toList();
    }

    @Test
    void aBreachEndsWhenTheNextNightBeginsAndStaysEndedOnTheFollowingBusinessDays() throws Exception {
        // docs/alerts.md: the latest finished night's window ended after business start "until the next night begins"
        AlertService s = service();
        Instant monday = Instant.parse("2026-11-30T00:00:00Z");
        assertThat(breachNotices(s, monday.plus(Duration.ofMinutes(7 * 60 + 45)))).containsExactly("ops rule=backup-window-breach FIRST");
        assertThat(breachNotices(s, monday.plus(Duration.ofHours(10)))).as("within the repeat interval").isEmpty();
        assertThat(breachNotices(s, monday.plus(Duration.ofMinutes(19 * 60 + 5)))).as("Monday night has begun")
                .containsExactly("ops rule=backup-window-breach RESOLVED");
        for (int day = 1; day <= 4; day++) {
            for (int hour : new int[] {7, 9, 13, 18, 22}) {
                Instant now = monday.plus(Duration.ofDays(day)).plus(Duration.ofHours(hour)).plus(Duration.ofMinutes(5));
                assertThat(breachNotices(s, now)).as("%s: the Monday breach is history", now).isEmpty();
                assertThat(s.activeAlerts()).as("%s", now).noneMatch(a -> a.alert().rule().equals("backup-window-breach"));
            }
        }
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static void waitFor(BooleanSupplier condition, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).as("condition within " + seconds + " s").isTrue();
    }
}
