package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.agDb;
import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.copyOnly;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.encrypted;
import static io.qatwatch.collector.testing.Histories.qat;
import static io.qatwatch.collector.testing.Histories.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert stage's incremental analysis against a fresh one from the store: the same SQLite store is fed
 * reports over several days (nightly fulls and differentials, log backups every cycle, a late report for a
 * past night, a section change, a new host, history leaving the lookback period, a prune), and after every
 * cycle the {@link LiveFleet}'s analysis and alerts must equal a full evaluation of the whole store.
 */
class LiveFleetTest {

    private static final Instant T0 = Instant.parse("2026-11-02T06:20:00Z");
    /** A lookback shorter than the history, so nights leave it while the test runs. */
    private static final AlertsConfig CONFIG = new AlertsConfig(null, null, null, new WindowSettings(false, false, 21),
            null, null, null).validate();
    private static final String CERT = "0xA1B2C3";

    private final List<String> rulesSeen = new ArrayList<>();
    private boolean overlapsSeen;
    private static final List<AgentJob> CREEP_JOBS = List.of(Jobs.otherJob("IDX", "IndexOptimize"));
    private static final List<AgentJob> STEADY_JOBS = List.of(Jobs.backupJob("BAK", "DatabaseBackup", List.of("Sales")));
    private final Set<String> verdictsSeen = new TreeSet<>();
    private long reports;
    private int rebuilt;

    @Test
    void everyCycleEqualsAFreshEvaluationOfTheStore(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            // 28 nights of history before T0, for a steady host, a creeping one and an availability group
            for (int night = -28; night < 0; night++) {
                store(store, "sql-steady", T0.plus(Duration.ofDays(night)), steady(night), List.of(), steadyAccelerators(false));
                store(store, "sql-creep", T0.plus(Duration.ofDays(night)), creeping(night), List.of(), List.of());
                storeJobs(store, "sql-creep", T0.plus(Duration.ofDays(night)), CREEP_JOBS, List.of(indexOptimize(night)), null);
                store(store, "sql-ag1", T0.plus(Duration.ofDays(night)), primary(night), List.of(), List.of());
                store(store, "sql-ag2", T0.plus(Duration.ofDays(night)), secondary(night), List.of(), List.of());
            }
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            AlertEvaluator evaluator = CONFIG.evaluator();

            LiveFleet.Refresh first = compare(live, store, evaluator, T0);
            assertThat(first.rebuilt()).as("the first refresh builds every instance").isEqualTo(4);

            Instant now = T0;
            int mornings = 0;
            int nightBackups = 0;
            for (int cycle = 1; cycle <= 40; cycle++) {
                now = now.plus(Duration.ofMinutes(73));
                rebuilt = 0;
                // the night that started (or starts) at the latest 22:00 UTC before now + 1 h
                int night = (int) Duration.between(evening(0).minus(Duration.ofHours(1)), now).toDays();
                if (cycle == 1) {
                    LiveFleet.Refresh morning = compare(live, store, evaluator, now);
                    assertThat(morning.rebuilt()).as("last night's windows finished at 07:00, in memory").isZero();
                    assertThat(compare(live, store, evaluator, now).rebuilt()).as("nothing changed").isZero();
                }
                // log backups on every cycle: they must not rebuild anything
                store(store, "sql-steady", now, List.of(backup("Sales", "L", now.minusSeconds(300), 20, 1L << 20,
                        "QAT_DEFLATE", "UNC")), List.of(), steadyAccelerators(cycle >= 25));
                LiveFleet.Refresh quiet = compare(live, store, evaluator, now);
                if (cycle == 1) {
                    assertThat(quiet.rebuilt()).as("a log backup is no reason to rebuild").isZero();
                    assertThat(quiet.newBackups()).isEqualTo(1);
                }
                if (isNight(now)) {
                    // tonight's backups arrive while the night runs, once they finished
                    store(store, "sql-steady", now, finishedBy(now, steady(night)), List.of(
                            running("Billing", now.minusSeconds(1800), 40, 1800)), steadyAccelerators(cycle >= 25));
                    store(store, "sql-creep", now, finishedBy(now, creeping(night)), List.of(), List.of());
                    store(store, "sql-ag1", now, finishedBy(now, primary(night)), List.of(), List.of());
                }
                Instant tonight = indexOptimize(night).startedAt().plusSeconds(indexOptimize(night).durationSeconds());
                if (!tonight.isAfter(now)) {
                    // stored again every cycle once it finished: stored once, and no reason to read the instance again
                    storeJobs(store, "sql-creep", now, CREEP_JOBS, List.of(indexOptimize(night)), null);
                }
                if (cycle == 5 || cycle == 12) {
                    // the steady host's backup job fails, then succeeds: backup-job-failed fires and resolves
                    String status = cycle == 5 ? "FAILED" : "SUCCEEDED";
                    storeJobs(store, "sql-steady", now, STEADY_JOBS, List.of(
                            Jobs.step(10L * cycle, "BAK", "DatabaseBackup", 1, "DatabaseBackup", status, now.minusSeconds(600), 60,
                                    Jobs.OLA_FAILURE, null, null),
                            Jobs.outcome(10L * cycle + 1, "BAK", "DatabaseBackup", status, now.minusSeconds(600), 61, "done")),
                            cycle == 5 ? List.of(Jobs.restore(1, "Sales_check", now.minusSeconds(900), "sql-steady", "Sales",
                                    Histories.guid("Sales"), null)) : null);
                }
                if (cycle == 33) {
                    // a full of a database far larger than the rest: tonight becomes the only full night and every
                    // earlier night of the host turns differential, so both creep fits change in memory
                    store(store, "sql-steady", now, List.of(backup("Archive", "D", now.minusSeconds(1200), 600, 4L << 40,
                            "QAT_DEFLATE", "UNC")), List.of(), steadyAccelerators(true));
                }
                if (cycle == 21) {
                    // a clock running two hours fast: a backup that starts in the future
                    store(store, "sql-ag2", now, List.of(backup("master", "D", now.plus(Duration.ofHours(2)), 60, 1L << 30,
                            "MS_XPRESS", "UNC")), List.of(), List.of());
                }
                if (cycle == 10) {
                    // a backlogged agent reports a differential for a night five days ago
                    store(store, "sql-ag1", now, List.of(backup("AgSales", "I", T0.minus(Duration.ofDays(5)).minusSeconds(7 * 3600),
                            4000, 30L << 30, "MS_XPRESS", "UNC")), List.of(), List.of());
                }
                if (cycle == 36) {
                    // a VSS snapshot full of Bigger, far larger than Big's fulls: its size is an estimate, so it weighs
                    // nothing in a night's kind (NightlyWindows.classify), in memory as in a fresh read
                    assertThat(isNight(now)).isTrue();
                    store(store, "sql-creep", now, List.of(new BackupRecord(90_036, "Bigger", Histories.guid("Bigger"), "D", false,
                            now.minusSeconds(900), now.minusSeconds(870), true, 8L << 40, null, null, false, "NO_Encryption",
                            null, null, "VIRTUAL_DEVICE", "UNC", null, true)), List.of(), List.of());
                }
                if (cycle == 15) {
                    store(store, "sql-new", now, steady(night - 1), List.of(), List.of());
                }
                if (cycle == 30) {
                    store.prune(now.minus(Duration.ofDays(22)), now.minus(Duration.ofDays(1)));
                }
                LiveFleet.Refresh last = compare(live, store, evaluator, now);
                if (cycle == 32 || cycle == 33) {
                    List<NightKind> kinds = last.analysis().instance("sql-steady", "MSSQLSERVER").orElseThrow().windows().stream()
                            .filter(w -> !w.businessStart().isAfter(last.analysis().now())).map(NightlyWindow::kind).distinct().toList();
                    assertThat(kinds).as("kinds of sql-steady's finished nights in cycle %d", cycle)
                            .containsExactly(cycle == 32 ? NightKind.FULL : NightKind.DIFFERENTIAL);
                }
                // rebuilt: a late backup (10), a new host (15), a backup from the future when it comes and when it
                // starts (21, 23), changed sections (25)
                int expected = Set.of(10, 15, 21, 23, 25).contains(cycle) ? 1 : 0;
                assertThat(rebuilt).as("instances rebuilt from the store in cycle %d at %s: mornings, nights leaving the "
                        + "lookback period and tonight's backups are worked out in memory", cycle, now).isEqualTo(expected);
                mornings += now.atZone(java.time.ZoneOffset.UTC).getHour() == 7 ? 1 : 0;
                nightBackups += isNight(now) ? 1 : 0;
            }
            assertThat(mornings).as("cycles just after a night finished").isGreaterThanOrEqualTo(2);
            assertThat(nightBackups).as("cycles with backups for the open night").isGreaterThanOrEqualTo(10);
            assertThat(new TreeSet<>(rulesSeen)).as("the fleet fires what the comparison should cover")
                    .contains("backup-missing", "backup-window-creep", "qat-config-mismatch", "cert-key-not-backed-up",
                            "backup-throughput-drop", "backup-job-failed");
            assertThat(fullsSeen).as("baseline fulls compared").isGreaterThan(100);
            assertThat(overlapsSeen).as("the creep alert names IndexOptimize, from the kept nights as from all").isTrue();
        assertThat(verdictsSeen).as("verdicts compared, and HR's QAT_DEFLATE in the mode it ran in before and after cycle 25")
                .contains("FASTER MS_XPRESS QAT_DEFLATE", "SINGLE_ALGORITHM QAT_DEFLATE (HARDWARE)",
                        "NOT_ENOUGH_DATA QAT_DEFLATE (HARDWARE) QAT_DEFLATE (NONE)");
        }
    }

    private static List<BackupRecord> finishedBy(Instant now, List<BackupRecord> backups) {
        return backups.stream().filter(b -> !b.finishedAt().isAfter(now)).toList();
    }

    private static boolean isNight(Instant now) {
        int hour = now.atZone(java.time.ZoneOffset.UTC).getHour();
        return hour >= 21 || hour < 5;
    }

    private LiveFleet.Refresh compare(LiveFleet live, SqlReportStore store, AlertEvaluator evaluator, Instant now)
            throws Exception {
        LiveFleet.Refresh refresh = live.refresh(store, now);
        rebuilt += refresh.rebuilt();
        FleetAnalysis incremental = refresh.analysis();
        FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()),
                CONFIG.analysis(), now);
        List<Alert> alerts = FreshComparison.assertSameAsFresh(incremental, fresh, evaluator,
                CONFIG.analysis().windows().lookbackDays());
        alerts.forEach(a -> rulesSeen.add(a.rule()));
        overlapsSeen |= alerts.stream().anyMatch(a -> a.details().contains("IndexOptimize now overlaps"));
        incremental.compression().rows().forEach(r -> verdictsSeen.add(r.comparison().verdict()
                + r.comparison().algorithms().stream().map(e -> " " + e.stats().method().label()).reduce("", String::concat)));
        for (MergedDatabase m : fresh.databases().values()) {
            fullsSeen += FreshComparison.fulls(m).size();
        }
        return refresh;
    }

    private int fullsSeen;

    private void store(SqlReportStore store, String host, Instant at, List<BackupRecord> backups,
                       List<RunningBackup> runningBackups, List<AcceleratorStatus> accelerators) throws Exception {
        List<DatabaseInfo> dbs = switch (host) {
            case "sql-ag1" -> List.of(agDb("AgSales", "agSales", "PRIMARY"), db("master", "SIMPLE"));
            case "sql-ag2" -> List.of(agDb("AgSales", "agSales", "SECONDARY"), db("master", "SIMPLE"));
            case "sql-creep" -> List.of(db("Big", "SIMPLE"), db("Bigger", "SIMPLE"));
            default -> List.of(db("Sales", "FULL"), db("Billing", "SIMPLE"), db("HR", "SIMPLE"));
        };
        List<CertificateInfo> certs = host.equals("sql-steady")
                ? List.of(new CertificateInfo("BackupCert", CERT, null, null, true)) : List.of();
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, List.of(), accelerators, dbs,
                backups, runningBackups, certs, null);
        store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of()),
                at.plusSeconds(1 + reports++ % 3));
    }

    /** IndexOptimize on sql-creep's night {@code n}: it starts two minutes earlier each night before the window ends. */
    private static JobRun indexOptimize(int night) {
        Instant e = evening(night).plus(Duration.ofMinutes(240 + 6L * (night + 28)));
        long seconds = 3 * 3600 + 240L * (night + 28);
        return Jobs.outcome(night + 1000, "IDX", "IndexOptimize", "SUCCEEDED",
                e.plusSeconds(seconds).minus(Duration.ofMinutes(10 + 2L * (night + 28))), 3 * 3600, "ok");
    }

    /** A report of only SQL Server Agent's sections (the others not read this cycle). */
    private void storeJobs(SqlReportStore store, String host, Instant at, List<AgentJob> jobs, List<JobRun> runs,
                           List<io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord> restores) throws Exception {
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, null, null, null, null, null, null,
                null, null, null, SqlInstanceSnapshot.JOBS_AVAILABLE, jobs, runs, null, List.of(), null, restores, null);
        store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of()),
                at.plusSeconds(1 + reports++ % 3));
    }

    private static List<AcceleratorStatus> steadyAccelerators(boolean broken) {
        return List.of(broken ? qat("NONE", "NONE_ACCELERATOR_LIBRARY_NOT_FOUND") : qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU"));
    }

    /** Night {@code n} (0 = the night ending on the morning of T0's day + 0 days), starting 22:00 UTC the evening before. */
    private static Instant evening(int night) {
        return T0.plus(Duration.ofDays(night)).truncatedTo(java.time.temporal.ChronoUnit.DAYS).minus(Duration.ofHours(2));
    }

    private static List<BackupRecord> steady(int night) {
        Instant e = evening(night);
        boolean full = Math.floorMod(night, 7) == 0;
        // Sales takes an encrypted full every night, three times slower from T0 on: a throughput drop
        return List.of(
                encrypted("Sales", e, night >= 0 ? 3600 : 1200, 100L << 30, "AES_256", CERT),
                backup("Billing", full ? "D" : "I", e.plusSeconds(1800), full ? 900 : 300, full ? 50L << 30 : 5L << 30,
                        "MS_XPRESS", "UNC"),
                backup("HR", full ? "D" : "I", e.plusSeconds(3600), 200, 2L << 30, "QAT_DEFLATE", "UNC"),
                backup("Sales", "L", e.plusSeconds(5400), 30, 1L << 28, "QAT_DEFLATE", "UNC"));
    }

    /** A window starting later and lasting longer every night: creep. */
    private static List<BackupRecord> creeping(int night) {
        Instant e = evening(night).plus(Duration.ofMinutes(240 + 6L * (night + 28)));
        long seconds = 3 * 3600 + 240L * (night + 28);
        // Bigger's differentials alternate between QAT_DEFLATE and the slower MS_XPRESS: a verdict, and a remedy
        boolean odd = Math.floorMod(night, 2) == 1;
        return List.of(backup("Big", Math.floorMod(night, 7) == 0 ? "D" : "I", e, seconds, 300L << 30, "QAT_DEFLATE", "UNC"),
                backup("Bigger", "I", e.plusSeconds(seconds), odd ? 900 : 600, 30L << 30, odd ? "MS_XPRESS" : "QAT_DEFLATE", "UNC"));
    }

    private static List<BackupRecord> primary(int night) {
        Instant e = evening(night).plus(Duration.ofMinutes(30));
        return List.of(backup("AgSales", Math.floorMod(night, 7) == 0 ? "D" : "I", e, 2400, 80L << 30, "MS_XPRESS", "UNC"),
                backup("AgSales", "L", e.plusSeconds(7200), 60, 1L << 28, "MS_XPRESS", "UNC"));
    }

    private static List<BackupRecord> secondary(int night) {
        Instant e = evening(night).plus(Duration.ofMinutes(90));
        return Math.floorMod(night, 7) == 3 ? List.of(copyOnly("AgSales", "D", e, 3000, 80L << 30)) : List.of();
    }
}
