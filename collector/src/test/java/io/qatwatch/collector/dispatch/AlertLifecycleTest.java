package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An alert's life in chat with an injected clock: acknowledged, worse, forecast moving, flapping. A scripted rule
 * says what fires at each step; the pipeline, SQLite and a webhook server on loopback are real.
 */
@ExtendWith(VertxExtension.class)
class AlertLifecycleTest {

    private static final Instant T0 = Instant.parse("2026-12-01T02:00:00Z");

    private final Loopback hook = new Loopback();
    private final AtomicReference<List<Alert>> firing = new AtomicReference<>(List.of());
    private final CollectorMetrics metrics = new CollectorMetrics();
    private Vertx vertx;
    private Database db;
    private AlertsConfig config;
    private List<Notifier> notifiers;

    @BeforeEach
    void start(Vertx vertx, @TempDir Path dir) throws Exception {
        this.vertx = vertx;
        int port = await(hook.start(vertx));
        db = Database.open(dir);
        config = new AlertsConfig(null, null, null, null, null,
                new PipelineConfig(List.of("rule", "host"), 240, 1, 4, "https://qatwatch.example.test/", 3, 3, 360),
                List.of(ChannelConfig.webhook("webhook", "http://127.0.0.1:" + port + "/hook"))).validate();
        notifiers = Notifiers.create(vertx, config.channels(), new Secrets(Map.of()));
    }

    @AfterEach
    void stop() throws Exception {
        await(hook.stop());
        db.close();
    }

    private AlertService service() throws Exception {
        AlertEvaluator scripted = new AlertEvaluator(config.analysis(), config.rules(),
                Map.of("scripted", (fleet, rules) -> firing.get()));
        AlertService s = new AlertService(vertx, db, scripted, config.pipeline(), notifiers, new Random(3), metrics);
        await(s.start());
        return s;
    }

    private static Alert creep(Severity severity, LocalDate forecast) {
        return new Alert("backup-window-creep", severity, "sql-fra-01", "PROD", null, "full",
                "Backup window margin shrinks 2.10 min/day; under 1 h 00 min by " + forecast, "why",
                List.of(new Fact("Forecast", "the night before " + forecast)), List.of(), forecast);
    }

    private static Alert silent(Severity severity) {
        return new Alert("agent-silent", severity, "sql-x", null, null, null, "Agent on sql-x silent", "why", List.of(), List.of());
    }

    /** What the channel was told at {@code at}: the reasons of the messages sent. */
    private List<String> at(AlertService s, Instant at) throws Exception {
        AlertService.Result r = await(s.evaluate(new FleetState(List.of()), at));
        List<String> reasons = new ArrayList<>();
        r.sent().forEach(line -> reasons.add(line.substring(line.lastIndexOf(' ') + 1)));
        return reasons;
    }

    private JsonObject lastMessage() {
        return hook.received.get(hook.received.size() - 1).body();
    }

    private static List<String> remarks(JsonObject message) {
        List<String> out = new ArrayList<>();
        message.getJsonArray("alerts").forEach(a -> ((JsonObject) a).getJsonArray("remarks").forEach(r -> out.add((String) r)));
        return out;
    }

    @Test
    void anAcknowledgedAlertStopsRepeatingAndIsAnnouncedAgainWhenItsSeverityRises() throws Exception {
        AlertService s = service();
        firing.set(List.of(silent(Severity.WARNING)));
        assertThat(at(s, T0)).containsExactly("FIRST");
        String id = silent(Severity.WARNING).id();

        Acknowledgement ack = await(s.acknowledge(id, "oncall", "rebooting the host", null, T0.plusSeconds(600)));
        assertThat(ack.severity()).isEqualTo(Severity.WARNING);
        assertThat(s.json(s.alert(id), T0.plusSeconds(600)).getJsonObject("acknowledged").getString("by")).isEqualTo("oncall");

        assertThat(at(s, T0.plus(Duration.ofHours(4)))).as("no repeat while acknowledged").isEmpty();
        AlertService restarted = service();
        assertThat(at(restarted, T0.plus(Duration.ofHours(8)))).as("the acknowledgement survives a restart").isEmpty();
        assertThat(restarted.json(restarted.alert(id), T0.plus(Duration.ofHours(8))).getBoolean("silenced"))
                .as("acknowledged is not silenced: it stays visible as firing").isFalse();

        firing.set(List.of(silent(Severity.CRITICAL)));
        Instant worse = T0.plus(Duration.ofHours(8)).plusSeconds(60);
        assertThat(at(restarted, worse)).containsExactly("CHANGED");
        assertThat(remarks(lastMessage())).singleElement().asString()
                .isEqualTo("Acknowledged by oncall at 2026-12-01 02:10 UTC; lifted: severity rose from warning to critical");
        assertThat(restarted.acknowledgement(id, worse)).as("lifted").isNull();
        assertThat(at(restarted, worse.plus(Duration.ofHours(4)))).as("repeats again").containsExactly("REPEAT");

        List<String> history = await(restarted.history(id)).stream()
                .map(e -> e.kind().label() + (e.by() == null ? "" : " by " + e.by())).toList();
        assertThat(history).containsExactly("fired", "notified", "acknowledged by oncall", "severity",
                "acknowledgement-lifted", "notified", "notified");
        assertThat(hook.received).hasSize(3);
    }

    @Test
    void anAcknowledgementThatExpiresLetsRepeatsResumeAndNotesStayWithTheHistory() throws Exception {
        AlertService s = service();
        firing.set(List.of(silent(Severity.WARNING)));
        at(s, T0);
        String id = silent(Severity.WARNING).id();
        await(s.acknowledge(id, "oncall", null, T0.plus(Duration.ofHours(5)), T0.plusSeconds(60)));
        await(s.note(id, "oncall", "vendor ticket 4711 opened", T0.plusSeconds(120)));
        assertThat(at(s, T0.plus(Duration.ofHours(4)))).isEmpty();
        assertThat(at(s, T0.plus(Duration.ofHours(5)))).as("expired: the repeat is due").containsExactly("REPEAT");

        firing.set(List.of());
        assertThat(at(s, T0.plus(Duration.ofHours(6)))).containsExactly("RESOLVED");
        await(s.note(id, "lead", "root cause: a full disk", T0.plus(Duration.ofHours(7))));
        List<String> history = await(s.history(id)).stream()
                .map(e -> e.kind().label() + (e.text() == null ? "" : ": " + e.text())).toList();
        assertThat(history).contains("note: vendor ticket 4711 opened", "note: root cause: a full disk",
                "acknowledgement-expired: acknowledged by oncall until 2026-12-01 07:00 UTC");
        assertThat(history.get(history.size() - 1)).isEqualTo("note: root cause: a full disk");
        String refused = await(s.acknowledge(id, "oncall", null, null, T0.plus(Duration.ofHours(7))).transform(r ->
                Future.succeededFuture(r.failed() ? r.cause().getMessage() : "acknowledged")));
        assertThat(refused).as("a resolved alert cannot be acknowledged").contains("is firing");
    }

    @Test
    void aForecastMovingTenDaysEarlierIsAnnouncedOnceAndMovingLaterIsNot() throws Exception {
        AlertService s = service();
        firing.set(List.of(creep(Severity.WARNING, LocalDate.parse("2027-01-30"))));
        assertThat(at(s, T0)).containsExactly("FIRST");

        firing.set(List.of(creep(Severity.WARNING, LocalDate.parse("2027-01-28"))));
        assertThat(at(s, T0.plusSeconds(60))).as("two days is within renotifyShiftDays").isEmpty();

        firing.set(List.of(creep(Severity.WARNING, LocalDate.parse("2027-01-20"))));
        assertThat(at(s, T0.plusSeconds(120))).containsExactly("EARLIER");
        assertThat(lastMessage().getString("reason")).isEqualTo("earlier");
        assertThat(remarks(lastMessage())).containsExactly("Now under the safety margin by 20 Jan 2027, was 30 Jan 2027");
        assertThat(at(s, T0.plusSeconds(180))).as("once").isEmpty();

        firing.set(List.of(creep(Severity.WARNING, LocalDate.parse("2027-02-10"))));
        assertThat(at(s, T0.plusSeconds(240))).as("later is not news").isEmpty();
        firing.set(List.of(creep(Severity.WARNING, LocalDate.parse("2027-01-18"))));
        assertThat(at(s, T0.plusSeconds(300)))
                .as("measured against what was announced (20 Jan), not the last evaluation").isEmpty();

        firing.set(List.of());
        assertThat(at(s, T0.plusSeconds(360))).as("past the horizon the rule stops: resolved").containsExactly("RESOLVED");
        assertThat(hook.received).hasSize(3);
    }

    @Test
    void aFlappingAlertIsSaidToFlapAndHeldUntilItIsSteady() throws Exception {
        AlertService s = service();
        List<Alert> on = List.of(silent(Severity.WARNING));
        List<String> told = new ArrayList<>();
        Instant t = T0;
        for (int cycle = 0; cycle < 5; cycle++) {
            firing.set(on);
            told.addAll(at(s, t));
            t = t.plus(Duration.ofMinutes(20));
            firing.set(List.of());
            told.addAll(at(s, t));
            t = t.plus(Duration.ofMinutes(20));
        }
        // fired, resolved, fired again (1), resolved, again (2), resolved, again (3: flapping) — then held.
        assertThat(told).containsExactly("FIRST", "RESOLVED", "FIRST", "RESOLVED", "FIRST", "RESOLVED", "FIRST");
        assertThat(remarks(lastMessage())).singleElement().asString().startsWith("Flapping: resolved and fired again 3 times in the last 6 h");
        assertThat(s.json(s.alert(on.get(0).id()), t).getBoolean("flapping")).isTrue();

        firing.set(on);
        assertThat(at(s, t.plus(Duration.ofHours(4)))).as("repeats held while it flaps").isEmpty();
        firing.set(List.of());
        Instant quiet = t.plus(Duration.ofHours(4)).plusSeconds(60);
        assertThat(at(s, quiet)).isEmpty();
        assertThat(at(s, quiet.plus(Duration.ofHours(6)))).as("steady for the window: the resolution is told once")
                .containsExactly("RESOLVED");
        assertThat(at(s, quiet.plus(Duration.ofHours(7)))).isEmpty();
        assertThat(await(s.history(on.get(0).id())).stream().map(e -> e.kind().label()))
                .contains("flapping", "steady");
        PrometheusText scraped = new PrometheusText();
        metrics.writeTo(scraped);
        assertThat(scraped.toString()).contains("qatwatch_notifications_sent_total{channel=\"webhook\"} 8");
    }

    /**
     * docs/alerts.md: flapping lasts until the alert "has not fired again for the window". Its re-firings at 00:40,
     * 01:20 and 02:00 make it flap; it fires again at 07:00 and resolves at 07:10. At 09:30 the third-newest re-firing
     * has left the 6 h window, but the newest is 2.5 h old: still flapping, nothing announced. Only at 13:01 (6 h after
     * 07:00) is it steady, and its resolution announced once.
     */
    @Test
    void aFlappingAlertStaysFlappingUntilItHasNotFiredAgainForTheWholeWindow() throws Exception {
        AlertService s = service();
        List<Alert> on = List.of(silent(Severity.WARNING));
        String id = on.get(0).id();
        List<String> told = new ArrayList<>();
        Instant t = T0;
        for (int cycle = 0; cycle < 4; cycle++) {
            firing.set(on);
            told.addAll(at(s, t));
            firing.set(List.of());
            told.addAll(at(s, t.plus(Duration.ofMinutes(20))));
            t = t.plus(Duration.ofMinutes(40));
        }
        assertThat(told).containsExactly("FIRST", "RESOLVED", "FIRST", "RESOLVED", "FIRST", "RESOLVED", "FIRST");
        Instant refired = T0.plus(Duration.ofHours(5));
        firing.set(on);
        assertThat(at(s, refired)).as("a re-firing while it flaps is held").isEmpty();
        firing.set(List.of());
        assertThat(at(s, refired.plus(Duration.ofMinutes(10)))).isEmpty();

        Instant later = T0.plus(Duration.ofHours(7)).plus(Duration.ofMinutes(30));
        assertThat(at(s, later)).as("fired again 2.5 h ago: not steady").isEmpty();
        assertThat(s.json(s.alert(id), later).getBoolean("flapping")).isTrue();
        assertThat(await(s.history(id)).stream().map(e -> e.kind().label())).doesNotContain("steady");

        Instant almost = refired.plus(Duration.ofHours(6)).minusSeconds(60);
        assertThat(at(s, almost)).as("a minute before the window has passed since 07:00").isEmpty();
        Instant steady = refired.plus(Duration.ofHours(6)).plusSeconds(60);
        assertThat(at(s, steady)).as("steady for the whole window: the resolution is told once").containsExactly("RESOLVED");
        assertThat(s.json(s.alert(id), steady).getBoolean("flapping")).isFalse();
        assertThat(await(s.history(id))).filteredOn(e -> e.kind().label().equals("steady")).singleElement()
                .satisfies(e -> assertThat(e.at()).isEqualTo(steady));
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
