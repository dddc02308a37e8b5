package io.qatwatch.collector.dispatch;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The creep rule on a real history, evaluated every morning with an injected clock, through the pipeline to a
 * webhook on loopback: the forecast jumps ten days earlier when the database's growth speeds up.
 */
@ExtendWith(VertxExtension.class)
class MovingForecastScenarioTest {

    private static final LocalDate D0 = LocalDate.of(2026, 1, 5);
    private static final CalendarConfig RETAIL = new CalendarConfig("retail", "Europe/Berlin",
            Map.of("mon-sun", "07:00-19:00"), List.of(), 60);

    private final Loopback hook = new Loopback();
    private Database db;

    @AfterEach
    void stop() throws Exception {
        await(hook.stop());
        db.close();
    }

    /**
     * Archive, 2 TB, one nightly full at 00:05 at 100 MB/s, grows 20 GB a week for 30 nights (the forecast is
     * 2026-02-20, BackupWindowScenarioTest works it out by hand), then 90 GB a week: Theil–Sen shrugs off the first
     * faster nights, and on the eighth the fitted slope turns and the forecast is 2026-02-10.
     */
    private static List<BackupRecord> archive(int nights) {
        List<BackupRecord> out = new ArrayList<>();
        for (int k = 0; k < nights; k++) {
            long bytes = Math.round(2e12 + Math.min(k, 29) * 20e9 / 7 + Math.max(0, k - 29) * 90e9 / 7);
            out.add(backup("Archive", "D", berlin(D0.plusDays(k), 0, 5), Math.round(bytes / 1e8), bytes, "MS_XPRESS",
                    "VIRTUAL_DEVICE"));
        }
        return out;
    }

    private static FleetState fleet(int nights, Instant now) {
        return new FleetState(List.of(Histories.host("sql-fra-01", now.minusSeconds(60), Histories.instance("PROD",
                now.minusSeconds(60), List.of(Histories.db("Archive", "SIMPLE")), archive(nights), List.of()))));
    }

    @Test
    void aForecastTenDaysEarlierIsAnnouncedOnceAndLiftsTheAcknowledgement(Vertx vertx, @TempDir Path dir) throws Exception {
        int port = await(hook.start(vertx));
        db = Database.open(dir);
        AlertsConfig config = new AlertsConfig(List.of(RETAIL), null, null, null, null, null,
                List.of(ChannelConfig.webhook("webhook", "http://127.0.0.1:" + port + "/hook"))).validate();
        AlertService s = new AlertService(vertx, db, config.evaluator(), config.pipeline(),
                Notifiers.create(vertx, config.channels(), new Secrets(Map.of())), new Random(5));
        await(s.start());

        Map<LocalDate, String> told = new LinkedHashMap<>();
        Map<LocalDate, LocalDate> forecasts = new LinkedHashMap<>();
        for (int nights = 30; nights <= 42; nights++) {
            LocalDate morning = D0.plusDays(nights - 1);
            Instant now = berlin(morning, 8, 0);
            AlertService.Result r = await(s.evaluate(fleet(nights, now), now));
            told.put(morning, String.join(",", r.sent().stream().map(line -> line.substring(line.lastIndexOf(' ') + 1)).toList()));
            AlertRecord creep = s.activeAlerts().stream().filter(a -> a.alert().rule().equals("backup-window-creep"))
                    .findFirst().orElseThrow();
            forecasts.put(morning, creep.alert().forecast());
            if (r.sent().stream().anyMatch(line -> line.endsWith("FIRST") || line.endsWith("EARLIER"))) {
                await(s.acknowledge(creep.id(), "oncall", "archive load", null, now.plusSeconds(300)));
            }
        }

        assertThat(forecasts.get(LocalDate.of(2026, 2, 3))).isEqualTo("2026-02-20");
        assertThat(forecasts.get(LocalDate.of(2026, 2, 9))).as("three days earlier: not news").isEqualTo("2026-02-17");
        assertThat(forecasts.get(LocalDate.of(2026, 2, 10))).isEqualTo("2026-02-10");
        assertThat(forecasts.get(LocalDate.of(2026, 2, 15))).as("then it moves later day by day").isEqualTo("2026-02-15");
        Map<LocalDate, String> expected = new LinkedHashMap<>();
        for (LocalDate d = LocalDate.of(2026, 2, 3); !d.isAfter(LocalDate.of(2026, 2, 15)); d = d.plusDays(1)) {
            expected.put(d, "");
        }
        expected.put(LocalDate.of(2026, 2, 3), "FIRST");
        expected.put(LocalDate.of(2026, 2, 10), "EARLIER");
        assertThat(told).isEqualTo(expected);

        JsonObject earlier = hook.received.get(1).body();
        assertThat(earlier.getString("reason")).isEqualTo("earlier");
        List<Object> remarks = earlier.getJsonArray("alerts").getJsonObject(0).getJsonArray("remarks").getList();
        assertThat(remarks).containsExactly("Now under the safety margin by 10 Feb, was 20 Feb",
                "Acknowledged by oncall at 2026-02-03 07:05 UTC; lifted: forecast moved earlier to 2026-02-10, was 2026-02-20");
        assertThat(hook.received).hasSize(2);
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
