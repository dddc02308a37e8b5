package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.WindowsJson;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Synthetic but realistic msdb histories, an injected clock, and exactly the alerts a DBA should get. */
class BackupWindowScenarioTest {

    private static final CalendarConfig RETAIL = new CalendarConfig("retail", "Europe/Berlin",
            Map.of("mon-sun", "07:00-19:00"), List.of(), 60);
    private static final CalendarConfig OFFICE = new CalendarConfig("office", "Europe/Berlin",
            Map.of("mon-fri", "07:00-19:00"), List.of(), 60);

    private static AlertsConfig config(CalendarConfig calendar) {
        return new AlertsConfig(List.of(calendar), null, null, null, null, null, null).validate();
    }

    /**
     * A 2 TB database growing 1 % (20 GB) a week, one nightly full at 00:05 to a dedupe appliance at
     * 100 MB/s (decimal), business 07:00 every day. Hand calculation:
     * duration(k) = (2e12 + k·2e10/7) / 1e8 s = 20 000 + 28.571·k s, so
     * margin(k) = 415 − 333.333 − 0.47619·k = 81.667 − 0.47619·k minutes;
     * under the 60-minute safety margin when k > 21.667 / 0.47619 = 45.5, i.e. night 46:
     * 2026-01-05 + 46 days = 2026-02-20. Size growth over nights 9–29: 20 GB a week over the median size
     * (night 19, 2.054 TB) = 0.97 % a week.
     */
    private static List<BackupRecord> growingNightlyFull(LocalDate d0, int nights) {
        List<BackupRecord> out = new ArrayList<>();
        for (int k = 0; k < nights; k++) {
            long bytes = 2_000_000_000_000L + Math.round(k * 20_000_000_000.0 / 7);
            out.add(backup("Archive", "D", berlin(d0.plusDays(k), 0, 5), Math.round(bytes / 1e8), bytes, "MS_XPRESS", "VIRTUAL_DEVICE"));
        }
        return out;
    }

    private static FleetState oneInstance(String host, String instance, List<BackupRecord> backups, Instant now,
                                          List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs,
                                          List<io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup> running) {
        return new FleetState(List.of(Histories.host(host, now.minusSeconds(60),
                Histories.instance(instance, now.minusSeconds(60), dbs, backups, running))));
    }

    @Test
    void twoTerabytesGrowingOnePercentAWeekCreepsAndTheForecastMatchesTheHandCalculation() {
        LocalDate d0 = LocalDate.of(2026, 1, 5);
        AlertEvaluator evaluator = config(RETAIL).evaluator();

        Instant early = berlin(d0.plusDays(20), 8, 0);
        Evaluation e1 = evaluator.evaluate(oneInstance("sql-fra-01", "PROD", growingNightlyFull(d0, 21), early,
                List.of(Histories.db("Archive", "SIMPLE")), List.of()), early);
        CreepTrend t1 = e1.analysis().instances().get(0).creep().get(NightKind.FULL);
        assertThat(t1.forecastDate()).isEqualTo(LocalDate.of(2026, 2, 20));
        assertThat(t1.daysUntilForecast()).isEqualTo(26L);
        assertThat(e1.alerts()).as("26 days ahead is beyond the 21-day horizon").isEmpty();

        Instant now = berlin(d0.plusDays(29), 8, 0);
        Evaluation e = evaluator.evaluate(oneInstance("sql-fra-01", "PROD", growingNightlyFull(d0, 30), now,
                List.of(Histories.db("Archive", "SIMPLE")), List.of()), now);
        assertThat(fired(e.alerts())).containsExactly("backup-window-creep sql-fra-01 / PROD [full]");
        CreepTrend t = e.analysis().instances().get(0).creep().get(NightKind.FULL);
        assertThat(t.slopeMinutesPerDay()).isCloseTo(-0.47619, within(0.001));
        assertThat(t.projectedMarginMinutes()).isCloseTo(81.667 - 0.47619 * 29, within(0.02));
        assertThat(t.nights()).hasSize(21);
        assertThat(t.forecastDate()).isEqualTo(LocalDate.of(2026, 2, 20));
        assertThat(t.daysUntilForecast()).isEqualTo(17L);
        assertThat(t.drivers()).singleElement().satisfies(d -> {
            assertThat(d.database()).isEqualTo("Archive");
            assertThat(d.durationSlopeMinutesPerDay()).isCloseTo(0.47619, within(0.001));
            assertThat(d.sizeGrowthPercentPerWeek()).isCloseTo(0.97, within(0.01));
        });
        Alert a = e.alerts().get(0);
        assertThat(a.summary()).isEqualTo("Backup window margin shrinks 0.48 min/day; under 1 h 00 min by 2026-02-20");
        assertThat(a.details())
                .contains("-0.48 min/day over the last 21 full nights")
                .contains("on the night before 2026-02-20 (in 17 days)")
                .contains("Archive +0.48 min/day (now 5 h 47 min, 2.08 TB, size +0.97 %/week)")
                .contains("2026-02-03 1 h 08 min");
        assertThat(a.series()).hasSize(14);

        io.vertx.core.json.JsonObject api = WindowsJson.of(e.analysis().instance("SQL-FRA-01", "prod").orElseThrow());
        assertThat(api.getJsonArray("windows")).hasSize(30);
        assertThat(api.getJsonArray("windows").getJsonObject(29).getLong("marginSeconds")).isEqualTo(4071L);
        assertThat(api.getJsonArray("trends").getJsonObject(0).getString("forecastDate")).isEqualTo("2026-02-20");
    }

    /**
     * Weekly full on Sunday 22:10 (3 TB + 60 GB a week at 150 MB/s) and differentials Mon–Fri 23:00. Hand
     * calculation for the full nights: duration(w) = 20 000 + 400·w s; margin(w) = 530 − 333.33 − 6.667·w
     * = 196.67 − 6.667·w minutes; week 20 gives 63.3, week 21 gives 56.7 < 60: Monday of week 21 = 2026-06-01.
     */
    @Test
    void weeklyFullNightsAreComparedOnlyWithWeeklyFullNights() {
        LocalDate firstSunday = LocalDate.of(2026, 1, 4);
        List<BackupRecord> history = new ArrayList<>();
        for (int w = 0; w < 20; w++) {
            LocalDate sunday = firstSunday.plusWeeks(w);
            long bytes = 3_000_000_000_000L + w * 60_000_000_000L;
            history.add(backup("Warehouse", "D", berlin(sunday, 22, 10), bytes / 150_000_000L, bytes, "QAT_DEFLATE", "LOCAL"));
            for (int d = 1; d <= 5; d++) {
                history.add(backup("Warehouse", "I", berlin(sunday.plusDays(d), 23, 0), 333, 50_000_000_000L, "QAT_DEFLATE", "LOCAL"));
            }
        }
        Instant tuesday = berlin(firstSunday.plusWeeks(19).plusDays(2), 8, 0);
        history.removeIf(b -> b.startedAt().isAfter(tuesday));
        FleetState fleet = oneInstance("sql-ber-02", "DWH", history, tuesday, List.of(Histories.db("Warehouse", "SIMPLE")), List.of());

        Evaluation e = config(OFFICE).evaluator().evaluate(fleet, tuesday);

        assertThat(fired(e.alerts())).containsExactly("backup-window-creep sql-ber-02 / DWH [full]");
        FleetAnalysis.InstanceAnalysis ia = e.analysis().instances().get(0);
        CreepTrend full = ia.creep().get(NightKind.FULL);
        assertThat(full.nights()).hasSize(9).allSatisfy(n -> assertThat(n.morning().getDayOfWeek()).isEqualTo(DayOfWeek.MONDAY));
        assertThat(full.slopeMinutesPerDay()).isCloseTo(-6.667 / 7, within(0.01));
        assertThat(full.forecastDate()).isEqualTo(LocalDate.of(2026, 6, 1));
        assertThat(full.daysUntilForecast()).isEqualTo(13L);
        CreepTrend diff = ia.creep().get(NightKind.DIFFERENTIAL);
        assertThat(diff.slopeMinutesPerDay()).isCloseTo(0.0, within(1e-9));
        assertThat(diff.forecastDate()).isNull();
        assertThat(ia.windows().stream().filter(w -> w.kind() == NightKind.FULL).map(NightlyWindow::morning))
                .allSatisfy(m -> assertThat(m.getDayOfWeek()).isEqualTo(DayOfWeek.MONDAY));
    }
}
