package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.qat;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated week of the alert stage's minutes, each held to a fresh evaluation of the same store: 120 evaluations
 * while hosts report their nights, log backups and accelerator changes (qat-change and qat-fallback come and go, also
 * on a host that does not report in between), and while tags move hosts from one business
 * calendar to another (by the agent's own tags and by the collector's), so that an instance's nights must be worked out
 * again under its new calendar. Between minutes nothing of an unchanged instance is built again: its
 * {@link InstanceState} is the same object.
 */
class EvaluateWhatChangedTest {

    /** A Monday, ten minutes past midnight UTC. */
    private static final Instant T0 = Instant.parse("2026-11-02T00:10:00Z");
    private static final Duration STEP = Duration.ofMinutes(84);
    private static final int EVALUATIONS = 120;
    /** Shorter than the history stored before T0, so nights leave the lookback period during the week. */
    private static final int LOOKBACK_DAYS = 10;
    /**
     * Tokyo's business day starts at 00:00 UTC with a 30-minute margin: the nights that end well before 07:00 UTC's
     * business day spill into it, so the windows and their margins differ between the two calendars.
     */
    private static final AlertsConfig CONFIG = new AlertsConfig(
            List.of(CalendarConfig.builtIn(), new CalendarConfig("tokyo", "Asia/Tokyo", Map.of("mon-fri", "09:00-18:00"),
                    null, 30)),
            "default",
            List.of(new HostGroupConfig("apac-site", "tokyo", null, null, List.of("site=tyo")),
                    new HostGroupConfig("apac-team", "tokyo", null, null, List.of("team=apac"))),
            new WindowSettings(false, false, LOOKBACK_DAYS), null, null, null).validate();
    private static final List<String> HOSTS = List.of("sql-logs", "sql-mover", "sql-still", "sql-team");

    /** The collector's own tags of each host (the {@code tagsOf} of the stage), changed by the test. */
    private final Map<String, Set<String>> collectorTags = new HashMap<>();
    /** Every backup each host takes over the history and the week, each stored once it finished. */
    private final Map<String, List<BackupRecord>> taken = new HashMap<>();
    private long reports;

    @Test
    void everyMinuteOfAWeekEqualsAFreshEvaluationWhileTagsMoveHostsBetweenCalendars(@TempDir Path dir) throws Exception {
        for (String host : HOSTS) {
            List<BackupRecord> all = new ArrayList<>();
            for (int night = -14; night <= 8; night++) {
                all.addAll(night(host, night));
            }
            taken.put(host, all);
        }
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            for (String host : HOSTS) {
                report(store, host, T0.minusSeconds(60), Instant.MIN, T0.minusSeconds(60), "fra", 0);
            }
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> collectorTags.getOrDefault(h, Set.of()));
            AlertEvaluator evaluator = CONFIG.evaluator();
            Map<String, InstanceState> before = new HashMap<>();
            Map<String, String> calendarBefore = new HashMap<>();
            Set<String> moved = new TreeSet<>();
            Set<String> rules = new TreeSet<>();
            int stillKept = 0;
            int changeMinutes = 0;
            int stillChange = 0;
            boolean stillChangeEnded = false;
            Instant previous = T0.minusSeconds(60);
            for (int n = 0; n < EVALUATIONS; n++) {
                Instant now = T0.plus(STEP.multipliedBy(n));
                // the agent's own tags move sql-mover to Tokyo's calendar and back; the collector's move sql-team there
                String site = n >= 40 && n < 85 ? "tyo" : "fra";
                if (n == 60) {
                    collectorTags.put("sql-team", Set.of("team=apac"));
                }
                if (n == 100) {
                    collectorTags.remove("sql-team");
                }
                Instant from = previous;
                for (String host : HOSTS) {
                    boolean hasNew = taken.get(host).stream().anyMatch(b -> b.finishedAt().isAfter(from)
                            && !b.finishedAt().isAfter(now));
                    // sql-still reports only when it has a backup to send: between them nothing of it changes
                    if (!host.equals("sql-still") || hasNew) {
                        report(store, host, now, previous, now, site, n);
                    }
                }
                LiveFleet.Refresh refresh = live.refresh(store, now);
                FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(),
                        h -> collectorTags.getOrDefault(h, Set.of())), CONFIG.analysis(), now);
                List<Alert> alerts = FreshComparison.assertSameAsFresh(refresh.analysis(), fresh, evaluator, LOOKBACK_DAYS);
                alerts.forEach(a -> rules.add(a.rule()));
                changeMinutes += alerts.stream().anyMatch(a -> a.rule().equals("qat-change") && a.host().equals("sql-logs")) ? 1 : 0;
                boolean stillChanged = alerts.stream().anyMatch(a -> a.rule().equals("qat-change") && a.host().equals("sql-still"));
                stillChange += stillChanged ? 1 : 0;
                stillChangeEnded |= stillChange > 0 && !stillChanged;
                for (InstanceAnalysis ia : refresh.analysis().instances()) {
                    String calendar = CONFIG.analysis().calendarNameFor(ia.host().host(), ia.instance().name(), ia.host().tags());
                    String was = calendarBefore.put(ia.scope(), calendar);
                    if (was != null && !was.equals(calendar)) {
                        moved.add(ia.scope() + " " + was + ">" + calendar);
                    }
                    if (ia.instance() == before.put(ia.scope(), ia.instance()) && ia.scope().startsWith("sql-still/")) {
                        stillKept++;
                    }
                }
                if (n % 10 == 5) {
                    // the same minute again, nothing stored since: every instance's state is the one it had
                    LiveFleet.Refresh again = live.refresh(store, now);
                    assertThat(again.rebuilt()).isZero();
                    for (int i = 0; i < again.analysis().instances().size(); i++) {
                        assertThat(again.analysis().instances().get(i).instance()).as("state of %s at %s, again",
                                again.analysis().instances().get(i).scope(), now)
                                .isSameAs(refresh.analysis().instances().get(i).instance());
                    }
                }
                previous = now;
            }
            assertThat(moved).as("calendar moves the week went through").containsExactlyInAnyOrder(
                    "sql-mover/MSSQLSERVER default>tokyo", "sql-mover/MSSQLSERVER tokyo>default",
                    "sql-team/MSSQLSERVER default>tokyo", "sql-team/MSSQLSERVER tokyo>default");
            assertThat(rules).as("what the comparison covers").contains("backup-window-creep", "qat-fallback",
                    "qat-config-mismatch", "qat-change", "agent-silent");
            assertThat(changeMinutes).as("minutes qat-change fired: from the upgrade (evaluation 30) for its 72 hours")
                    .isEqualTo(52);
            assertThat(stillChange).as("minutes sql-still's qat-change fired").isGreaterThan(40);
            assertThat(stillChangeEnded).as("sql-still's qat-change ended 72 hours after, without a report").isTrue();
            assertThat(stillKept).as("minutes where sql-still, which reports only its nights' backups, kept its state")
                    .isBetween(40, EVALUATIONS - 8);
        }
    }

    /**
     * Stores a report of {@code host} collected {@code at}, with the backups that finished in ({@code from}, {@code upTo}]
     * ({@code from} MIN: every one before).
     */
    private void report(SqlReportStore store, String host, Instant at, Instant from, Instant upTo, String site,
                        int evaluation) throws Exception {
        List<BackupRecord> backups = taken.get(host).stream()
                .filter(b -> b.finishedAt().isAfter(from) && !b.finishedAt().isAfter(upTo)).toList();
        List<DatabaseInfo> dbs = List.of(db("Sales", "FULL"), db("Stock", "SIMPLE"));
        // the QAT library of sql-logs and sql-still is upgraded at evaluation 30 (qat-change for 72 hours), then lost at 70
        // (qat-fallback); sql-still reports it only with its next backups, and its qat-change ends between two reports
        List<AcceleratorStatus> accelerators = !host.equals("sql-logs") && !host.equals("sql-still") ? List.of()
                : evaluation >= 70 ? List.of(new AcceleratorStatus("QAT", "NONE", "NONE_ACCELERATOR_LIBRARY_NOT_FOUND", false,
                        "1.10.0-0002", "2.5.0.0014"))
                : evaluation >= 30 ? List.of(new AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", true,
                        "1.10.0-0002", "2.5.0.0014"))
                : List.of(qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU"));
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, List.of(), accelerators, dbs,
                backups, List.of(), List.of(), null);
        Map<String, String> tags = host.equals("sql-mover") ? Map.of("site", site) : Map.of("site", "fra");
        store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0, null, tags), null, null, null, List.of(instance), List.of()),
                at.plusSeconds(1 + reports++ % 3));
    }

    /** The evening night {@code n} starts on: 22:00 UTC the day before T0's day + n. */
    private static Instant evening(int night) {
        return T0.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(night)).minus(Duration.ofHours(2));
    }

    /** What {@code host} backs up on night {@code n}. */
    private static List<BackupRecord> night(String host, int n) {
        Instant e = evening(n);
        boolean full = Math.floorMod(n, 7) == 6;
        int age = n + 14;
        return switch (host) {
            // a window starting later and lasting longer each night, past 00:00 UTC: creep, and Tokyo's morning
            case "sql-mover", "sql-team" -> List.of(
                    backup("Sales", full ? "D" : "I", e.plus(Duration.ofMinutes(30 + 4L * age)), 5400 + 300L * age,
                            (full ? 400L : 60L) << 30, "MS_XPRESS", "UNC"),
                    backup("Stock", "D", e.plus(Duration.ofMinutes(200 + 5L * age)), 1200, 20L << 30, "MS_XPRESS", "UNC"));
            // fulls at 01:00 UTC, half an hour
            case "sql-still" -> List.of(
                    backup("Sales", "D", e.plusSeconds(3 * 3600), 1800, 90L << 30, "MS_XPRESS", "UNC"),
                    backup("Stock", "D", e.plusSeconds(3 * 3600 + 1800), 600, 10L << 30, "MS_XPRESS", "UNC"));
            // nightly differentials in QAT_DEFLATE and a log backup every two hours
            default -> {
                List<BackupRecord> out = new ArrayList<>(List.of(
                        backup("Sales", full ? "D" : "I", e, 2400, (full ? 200L : 30L) << 30, "QAT_DEFLATE", "UNC"),
                        backup("Stock", "I", e.plusSeconds(2700), 900, 8L << 30, "MS_XPRESS", "UNC")));
                for (int h = 0; h < 24; h += 2) {
                    out.add(backup("Sales", "L", e.plus(Duration.ofHours(h)).plusSeconds(600), 40, 1L << 28, "QAT_DEFLATE",
                            "UNC"));
                }
                yield out;
            }
        };
    }
}
