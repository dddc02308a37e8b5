package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * QAT over time with an injected clock: reports stored in the real SQLite store, the alert stage's live fleet
 * reading what changed, the pipeline telling a webhook on loopback. Each host reports every few minutes; what the
 * accelerator status says changes between reports.
 */
@ExtendWith(VertxExtension.class)
class QatOverTimeScenarioTest {

    private static final Instant NIGHT = Instant.parse("2026-12-01T01:50:00Z");
    private static final AcceleratorStatus HARDWARE = new AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU",
            true, "1.9.0-0008", "2.5.0.0014");
    private static final AcceleratorStatus FELL_BACK = new AcceleratorStatus("QAT", "SOFTWARE",
            "SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND", false, "1.9.0-0008", "2.5.0.0014");
    private static final AcceleratorStatus UPGRADED = new AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU",
            true, "2.0.1-0003", "2.5.0.0014");

    private final Loopback hook = new Loopback();
    private Database db;
    private SqlReportStore store;
    private LiveFleet fleet;
    private AlertService service;
    private int reports;

    @AfterEach
    void stop() throws Exception {
        await(hook.stop());
        if (db != null) {
            db.close();
        }
    }

    private void start(Vertx vertx, Path dir, List<HostGroupConfig> groups) throws Exception {
        int port = await(hook.start(vertx));
        db = Database.open(dir);
        store = new SqlReportStore(db);
        AlertsConfig config = new AlertsConfig(null, null, groups, null, null, null,
                List.of(ChannelConfig.webhook("webhook", "http://127.0.0.1:" + port + "/hook"))).validate();
        fleet = new LiveFleet(config.analysis(), host -> Set.of());
        service = new AlertService(vertx, db, config.evaluator(), config.pipeline(),
                Notifiers.create(vertx, config.channels(), new Secrets(Map.of())), new Random(1));
        await(service.start());
    }

    private void report(String host, Instant at, AcceleratorStatus qat) throws Exception {
        report(host, at, qat, null);
    }

    private void report(String host, Instant at, AcceleratorStatus qat, QatFacts probe) throws Exception {
        store.store(host, TestReports.accelerator(++reports, at, qat, probe), at.plusSeconds(1));
    }

    /** One evaluation at {@code now}; what it told chat about QAT rules, as "rule host reason". */
    private List<String> evaluate(Instant now) throws Exception {
        AlertService.Result r = await(service.evaluate(() -> fleet.refresh(store, now).analysis(), now));
        return r.sent().stream().filter(line -> line.contains("rule=qat-"))
                .map(line -> line.replaceAll("^webhook rule=(\\S+?),host=(\\S+?),instance=\\S+ (\\S+)$", "$1 $2 $3")).toList();
    }

    private List<Alert> firing(String rule) {
        return service.activeAlerts().stream().map(AlertRecord::alert).filter(a -> a.rule().equals(rule)).toList();
    }

    @Test
    void aHardwareToSoftwareFallbackAt0200FiresWithItsTimeAndResolvesWhenTheHardwareIsBack(Vertx vertx, @TempDir Path dir)
            throws Exception {
        start(vertx, dir, List.of());
        report("sql01", NIGHT, HARDWARE);
        report("sql01", NIGHT.plus(Duration.ofMinutes(5)), HARDWARE);
        assertThat(evaluate(NIGHT.plus(Duration.ofMinutes(6)))).isEmpty();

        Instant fellBack = Instant.parse("2026-12-01T02:00:00Z");
        report("sql01", fellBack, FELL_BACK);
        assertThat(evaluate(fellBack.plusSeconds(60))).containsExactly("qat-fallback sql01 FIRST");
        Alert alert = firing("qat-fallback").get(0);
        assertThat(alert.summary()).isEqualTo("QAT backup compression fell back from hardware to software mode at "
                + "Tue 2026-12-01 02:00 UTC: SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND");
        assertThat(alert.details()).contains("Fell back: Tue 2026-12-01 02:00 UTC, the first report showing it; before: "
                        + "HARDWARE (HARDWARE_MODE_ENTERPRISE_SKU) since Tue 2026-12-01 01:50 UTC")
                .contains("Hardware gone: detected until then, not since");
        JsonObject told = hook.received.stream().map(Loopback.Received::body)
                .map(b -> b.getJsonArray("alerts").getJsonObject(0)).filter(a -> a.getString("rule").equals("qat-fallback"))
                .findFirst().orElseThrow();
        assertThat(told.getString("summary")).contains("at Tue 2026-12-01 02:00 UTC");

        report("sql01", fellBack.plus(Duration.ofMinutes(5)), FELL_BACK);
        assertThat(evaluate(fellBack.plus(Duration.ofMinutes(6)))).isEmpty();
        Instant back = Instant.parse("2026-12-01T06:30:00Z");
        report("sql01", back, HARDWARE);
        assertThat(evaluate(back.plusSeconds(60))).containsExactly("qat-fallback sql01 RESOLVED");
        assertThat(firing("qat-fallback")).isEmpty();

        List<AcceleratorChange> timeline = store.acceleratorChanges("sql01", "MSSQLSERVER", NIGHT.minus(Duration.ofDays(30)));
        assertThat(timeline).extracting(c -> c.at() + " " + c.accelerators().get(0).modeDesc())
                .containsExactly("2026-12-01T01:50:00Z HARDWARE", "2026-12-01T02:00:00Z SOFTWARE", "2026-12-01T06:30:00Z HARDWARE");
    }

    @Test
    void aLibraryUpgradeOnOneHostOfAGroupRaisesDriftUntilTheOthersFollow(Vertx vertx, @TempDir Path dir) throws Exception {
        start(vertx, dir, List.of(new HostGroupConfig("fra", "default", List.of("sql-fra-*"), null, null)));
        for (String h : List.of("sql-fra-01", "sql-fra-02", "sql-fra-03", "sql-ny-01")) {
            report(h, NIGHT, HARDWARE);
        }
        assertThat(evaluate(NIGHT.plusSeconds(60))).isEmpty();

        Instant upgrade = Instant.parse("2026-12-01T09:00:00Z");
        report("sql-fra-02", upgrade, UPGRADED);
        report("sql-ny-01", upgrade, UPGRADED);
        assertThat(evaluate(upgrade.plusSeconds(60))).containsExactlyInAnyOrder("qat-change sql-fra-02 FIRST",
                "qat-change sql-ny-01 FIRST", "qat-version-drift sql-fra-02 FIRST");
        Alert drift = firing("qat-version-drift").get(0);
        assertThat(drift.summary()).isEqualTo("QAT library / driver 2.0.1-0003 / 2.5.0.0014 differs from the rest of "
                + "host group fra (1.9.0-0008 / 2.5.0.0014 on 2 of 3)");
        assertThat(drift.details()).contains("1.9.0-0008 / 2.5.0.0014: sql-fra-01/MSSQLSERVER, sql-fra-03/MSSQLSERVER; "
                + "2.0.1-0003 / 2.5.0.0014: sql-fra-02/MSSQLSERVER");
        assertThat(firing("qat-change")).extracting(Alert::summary)
                .contains("QAT library 1.9.0-0008 → 2.0.1-0003 at Tue 2026-12-01 09:00 UTC");

        Instant later = upgrade.plus(Duration.ofHours(73));
        report("sql-fra-01", later, UPGRADED);
        assertThat(evaluate(later.plusSeconds(60))).as("two of three upgraded: sql-fra-03 is the odd one now")
                .containsExactlyInAnyOrder("qat-change sql-fra-02 RESOLVED", "qat-change sql-ny-01 RESOLVED",
                        "qat-change sql-fra-01 FIRST", "qat-version-drift sql-fra-02 RESOLVED",
                        "qat-version-drift sql-fra-03 FIRST");
        report("sql-fra-03", later.plusSeconds(600), UPGRADED);
        assertThat(evaluate(later.plusSeconds(660))).contains("qat-version-drift sql-fra-03 RESOLVED");
        assertThat(firing("qat-version-drift")).isEmpty();
    }

    @Test
    void anInstanceSetUpForQatOnAHostWithoutQatSoftwareIsFlagged(Vertx vertx, @TempDir Path dir) throws Exception {
        start(vertx, dir, List.of());
        QatFacts bare = new QatFacts(List.of(), QatSoftware.none(), false);
        report("sql01", NIGHT, new AcceleratorStatus("QAT", "NONE", "NONE_ACCELERATOR_LIBRARY_NOT_FOUND", false, null, null), bare);
        assertThat(evaluate(NIGHT.plusSeconds(60))).containsExactlyInAnyOrder("qat-fallback sql01 FIRST",
                "qat-software-missing sql01 FIRST");
        assertThat(firing("qat-software-missing").get(0).details())
                .contains("'hardware offload enabled' = 1")
                .contains("accelerator status NONE (NONE_ACCELERATOR_LIBRARY_NOT_FOUND)");
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
