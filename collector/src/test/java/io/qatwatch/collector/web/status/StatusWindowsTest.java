package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The alert pipeline's window analysis of a creeping instance, turned into the page's chart. */
class StatusWindowsTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final LocalDate FIRST_NIGHT = LocalDate.of(2026, 1, 5);

    @Test
    void aCreepingNightlyFullBecomesThirtyBarsAndTheForecastOfTheAnalysis() {
        Instant now = berlin(FIRST_NIGHT.plusDays(34), 8, 0);
        Evaluation e = (new AlertsConfig(List.of(new CalendarConfig("retail", "Europe/Berlin",
                Map.of("mon-sun", "07:00-19:00"), List.of(), 60)), null, null, null, null, null, null).validate()).evaluator()
                .evaluate(fleet(35, now), now);

        List<StatusView.InstanceWindows> windows = StatusWindows.of(e.analysis(), Set.of("sql-fra-01"));
        assertThat(windows).hasSize(1);
        assertThat(StatusWindows.of(e.analysis(), Set.of("sql-fra-02"))).as("only the page's hosts").isEmpty();
        StatusView.InstanceWindows w = windows.get(0);
        assertThat(w.host()).isEqualTo("sql-fra-01");
        assertThat(w.instance()).isEqualTo("PROD");
        assertThat(w.zone()).isEqualTo(BERLIN);
        assertThat(w.safetyMarginMinutes()).isEqualTo(60);
        assertThat(w.nights()).as("the last 30 of 35 nights").hasSize(30);
        assertThat(w.nights().get(29).morning()).isEqualTo(FIRST_NIGHT.plusDays(34));
        assertThat(w.nights()).allMatch(n -> n.marginSeconds() > 0 && "FULL".equals(n.kind()));
        assertThat(w.trend().kind()).isEqualTo("FULL");
        assertThat(w.trend().slopeMinutesPerDay()).isNegative();
        assertThat(w.trend().forecastDate()).isAfter(FIRST_NIGHT.plusDays(34));

        String page = StatusPage.render(StatusFixture.of(now, List.of(), List.of(), windows, null));
        assertThat(page).contains("<h3><a class=\"host-link\" href=\"/hosts/sql-fra-01\">sql-fra-01</a> / PROD</h3>").contains("data-nights=\"30\"")
                .contains("Projected under the 1 h 00 min safety margin on")
                .contains("(in " + w.trend().daysUntilForecast() + " days)");
        assertThat(page.split("<rect class=\"bar ok", -1)).as("30 nights with a safe margin").hasSize(31);
    }

    /**
     * The same instance with IndexOptimize running 04:30 to 06:30 every night (inside the window, which ends about
     * 05:40) and the backup job itself: the host page's chart marks IndexOptimize's overlap beside every bar, never the
     * backup job; the database's last restore test (on sql-dr, ten days ago: not the older one, nor the newer RESTORE
     * VERIFYONLY, which restores nothing) is listed under it, and counted under the fleet page's compact chart.
     */
    @Test
    void theChartMarksOverlappingJobsAndThePageShowsTheLastRestoreTest() {
        Instant now = berlin(FIRST_NIGHT.plusDays(34), 8, 0);
        FleetState plain = fleet(35, now);
        FleetState.InstanceState p = plain.hosts().get(0).instances().get(0);
        List<io.qatwatch.protocol.SqlInstanceSnapshot.JobRun> runs = new ArrayList<>();
        for (int k = 0; k < 35; k++) {
            runs.add(io.qatwatch.collector.testing.Jobs.outcome(2 * k + 1, "IDX", "IndexOptimize - USER_DATABASES",
                    "SUCCEEDED", berlin(FIRST_NIGHT.plusDays(k), 4, 30), 7200, "ok"));
            runs.add(io.qatwatch.collector.testing.Jobs.outcome(2 * k + 2, "BAK", "DatabaseBackup - FULL", "SUCCEEDED",
                    berlin(FIRST_NIGHT.plusDays(k), 0, 5), 20000, "ok"));
        }
        var jobs = List.of(io.qatwatch.collector.testing.Jobs.otherJob("IDX", "IndexOptimize - USER_DATABASES"),
                io.qatwatch.collector.testing.Jobs.backupJob("BAK", "DatabaseBackup - FULL", List.of("Archive")));
        var restore = io.qatwatch.collector.testing.Jobs.restore(1, "Archive_check", now.minus(java.time.Duration.ofDays(10)),
                "SQL-FRA-01", "Archive", "guid-archive", null);
        FleetState.InstanceState withJobs = new FleetState.InstanceState(p.name(), p.collectedAt(), null, List.of(), List.of(),
                p.databases(), List.of(), List.of(), List.of(), p.backups(), List.of(), null,
                new io.qatwatch.collector.store.JobActivity("AVAILABLE", jobs, runs, List.of(), List.of()));
        var older = io.qatwatch.collector.testing.Jobs.restore(2, "Archive_old", now.minus(java.time.Duration.ofDays(20)),
                "SQL-FRA-01", "Archive", "GUID-ARCHIVE", null);
        var verify = new io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord(3, "Archive", now.minus(java.time.Duration.ofDays(2)),
                "V", "SQL-FRA-01", "Archive", "guid-archive", null, now.minus(java.time.Duration.ofDays(3)), "D");
        FleetState.InstanceState dr = new FleetState.InstanceState("DR", now.minusSeconds(60), null, List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), null,
                new io.qatwatch.collector.store.JobActivity("AVAILABLE", List.of(), List.of(), List.of(),
                        List.of(older, restore, verify)));
        FleetState fleet = new FleetState(List.of(
                new FleetState.HostState("sql-fra-01", Set.of(), now.minusSeconds(60), null, null, null, List.of(withJobs)),
                new FleetState.HostState("sql-dr", Set.of(), now.minusSeconds(60), null, null, null, List.of(dr))));
        Evaluation e = (new AlertsConfig(List.of(new CalendarConfig("retail", "Europe/Berlin",
                Map.of("mon-sun", "07:00-19:00"), List.of(), 60)), null, null, null, null, null, null).validate()).evaluator()
                .evaluate(fleet, now);

        StatusView.InstanceWindows w = StatusWindows.of(e.analysis(), Set.of("sql-fra-01")).get(0);
        assertThat(w.nights()).allSatisfy(n -> assertThat(n.jobs()).singleElement().satisfies(j -> {
            assertThat(j.job()).isEqualTo("IndexOptimize - USER_DATABASES");
            assertThat(j.to()).as("clipped to the window").isEqualTo(n.lastFinish());
        }));
        assertThat(w.restoreTests()).singleElement().satisfies(t -> {
            assertThat(t.database()).isEqualTo("Archive");
            assertThat(t.where()).isEqualTo("sql-dr/DR as Archive_check");
        });
        DatabaseInfo archive = fleet.hosts().get(0).instances().get(0).databases().get(0);
        assertThat(StatusWindows.lastRestores(e.analysis(), List.of(archive)).get(archive))
                .as("the fleet page's one pass over the fleet's restores finds what RestoreTests.last finds")
                .isEqualTo(io.qatwatch.collector.analysis.RestoreTests.last(e.analysis(), archive).orElseThrow());
        StringBuilder host = new StringBuilder();
        WindowsSection.chart(host, w, 1);
        assertThat(host.toString().split("<rect class=\"job\"", -1)).as("a mark on each of the 30 nights").hasSize(31);
        String restored = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(restore.restoredAt().atZone(BERLIN));
        assertThat(host.toString()).contains("data-job=\"IndexOptimize - USER_DATABASES\"").doesNotContain("data-job=\"DatabaseBackup")
                .contains("Last restore test: <span data-database=\"Archive\">Archive " + restored
                        + " on sql-dr/DR as Archive_check</span>");
        String page = StatusPage.render(StatusFixture.of(now, List.of(), List.of(), List.of(w), null));
        assertThat(page).doesNotContain("<rect class=\"job\"").contains("<p class=\"restore-tests\">Restore tests in the "
                + "lookback period: 1 of 1 database, the latest Archive " + restored + " on sql-dr/DR as Archive_check.</p>");
    }

    /** A 2 TB database growing 20 GB a week, one full at 00:05 at 100 MB/s: about 28 s longer each night. */
    private static FleetState fleet(int nights, Instant now) {
        List<BackupRecord> backups = new ArrayList<>();
        for (int k = 0; k < nights; k++) {
            long bytes = 2_000_000_000_000L + Math.round(k * 20_000_000_000.0 / 7);
            Instant start = berlin(FIRST_NIGHT.plusDays(k), 0, 5);
            backups.add(new BackupRecord(1000 + k, "Archive", "guid-archive", "D", false, start,
                    start.plusSeconds(Math.round(bytes / 1e8)), true, bytes, bytes / 3, "QAT_DEFLATE", true, null, null, null,
                    "VIRTUAL_DEVICE", "VIRTUAL_DEVICE"));
        }
        FleetState.InstanceState instance = new FleetState.InstanceState("PROD", now.minusSeconds(60), null, List.of(),
                List.of(), List.of(new DatabaseInfo("Archive", "guid-archive", "SIMPLE", "NONE", null, null, null)), List.of(),
                List.of(), List.of(), backups);
        return new FleetState(List.of(new FleetState.HostState("sql-fra-01", Set.of(), now.minusSeconds(60), null, null, null,
                List.of(instance))));
    }

    private static Instant berlin(LocalDate date, int hour, int minute) {
        return date.atTime(LocalTime.of(hour, minute)).atZone(BERLIN).toInstant();
    }
}
