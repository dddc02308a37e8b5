package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.SpillForecast;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The availability-group case and the seed cases (1 TB at ~900 MB/s over a share, 2 TB of blobs at 450 MB/s). */
class FleetScenarioTest {

    private static final AlertsConfig CONFIG = new AlertsConfig(List.of(new CalendarConfig("office", "Europe/Berlin",
            Map.of("mon-fri", "07:00-19:00"), List.of(), 60)), null, null, null, null, null, null).validate();
    private static final long MIB = 1_048_576L;

    /** Copy-only fulls at 01:00 and log backups every 30 minutes, all taken on the secondary replica. */
    private static List<BackupRecord> secondaryBackups(LocalDate from, int days) {
        List<BackupRecord> out = new ArrayList<>();
        for (int d = 0; d < days; d++) {
            LocalDate day = from.plusDays(d);
            out.add(Histories.copyOnly("Sales", "D", berlin(day, 1, 0), 40 * 60, 500_000_000_000L));
            for (int half = 0; half < 48; half++) {
                out.add(backup("Sales", "L", berlin(day, 0, 0).plusSeconds(half * 1800L), 20, 2_000_000_000L, "MS_XPRESS", "UNC"));
            }
        }
        return out;
    }

    @Test
    void backupsOnTheSecondaryProtectTheDatabaseAndRaiseNoFalseMissingOrBreach() {
        LocalDate from = LocalDate.of(2026, 9, 1);
        Instant now = berlin(LocalDate.of(2026, 9, 16), 8, 0); // a Wednesday
        List<BackupRecord> onSecondary = secondaryBackups(from, 16);
        onSecondary.removeIf(b -> b.startedAt().isAfter(now));
        FleetState.HostState primary = Histories.host("sql-a", now,
                Histories.instance("MSSQLSERVER", now, List.of(Histories.agDb("Sales", "agSales", "PRIMARY")), List.of(), List.of()));
        FleetState.HostState secondary = Histories.host("sql-b", now,
                Histories.instance("MSSQLSERVER", now, List.of(Histories.agDb("Sales", "agSales", "SECONDARY")), onSecondary, List.of()));

        Evaluation e = CONFIG.evaluator().evaluate(new FleetState(List.of(primary, secondary)), now);

        assertThat(e.alerts()).isEmpty();
        // agents before issue 14 sent no group_database_id: the group's and the database's names identify it
        FleetAnalysis.MergedDatabase sales = e.analysis().databases().get("ag:agsales/sales");
        assertThat(sales.host()).isEqualTo("sql-a");
        assertThat(sales.replicas()).containsExactly("sql-a/MSSQLSERVER", "sql-b/MSSQLSERVER");
        assertThat(e.analysis().availabilityGroupWindows().get("agSales")).isNotEmpty()
                .allSatisfy(w -> assertThat(w.breached()).isFalse());
        // The secondary's copy-only fulls form its nightly windows (a secondary can take no other full).
        assertThat(e.analysis().instances().get(1).windows()).isNotEmpty();

        // Without the secondary's msdb, the primary alone would look unprotected: the merge is what prevents it.
        Evaluation alone = CONFIG.evaluator().evaluate(new FleetState(List.of(primary)), now);
        assertThat(fired(alone.alerts())).containsExactly(
                "backup-missing sql-a / MSSQLSERVER / Sales [full or differential]",
                "backup-missing sql-a / MSSQLSERVER / Sales [full]",
                "backup-missing sql-a / MSSQLSERVER / Sales [log]");
    }

    /** Ledger: 1 TB nightly full at ~900 MB/s to a UNC share; Blobs: 2 TB right after it at ~450 MB/s to disk. */
    private static List<BackupRecord> seedHistory(LocalDate from, int nights, double ledgerLastMbps) {
        List<BackupRecord> out = new ArrayList<>();
        for (int k = 0; k < nights; k++) {
            double jitter = 1 + 0.02 * Math.sin(k * 1.7);
            double ledgerMbps = k == nights - 1 ? ledgerLastMbps : 900 * jitter;
            long ledgerBytes = 1_000_000_000_000L;
            long ledgerSeconds = Math.round(ledgerBytes / (ledgerMbps * MIB));
            Instant start = berlin(from.plusDays(k), 1, 0);
            out.add(backup("Ledger", "D", start, ledgerSeconds, ledgerBytes, "QAT_DEFLATE", "UNC"));
            long blobBytes = 2_000_000_000_000L;
            long blobSeconds = Math.round(blobBytes / (450 * (2 - jitter) * MIB));
            out.add(backup("Blobs", "D", start.plusSeconds(ledgerSeconds + 30), blobSeconds, blobBytes, "MS_XPRESS", "LOCAL"));
        }
        return out;
    }

    private static FleetState seedFleet(List<BackupRecord> history, Instant collectedAt, List<RunningBackup> running) {
        List<DatabaseInfo> dbs = List.of(Histories.db("Ledger", "SIMPLE"), Histories.db("Blobs", "SIMPLE"));
        return new FleetState(List.of(Histories.host("sql-ldn-01", collectedAt,
                Histories.instance("PROD", collectedAt, dbs, history, running))));
    }

    @Test
    void seedCasesOnlyTheShareThatSlowedDownIsFlaggedAgainstItsOwnBaseline() {
        LocalDate from = LocalDate.of(2026, 9, 1);
        Instant now = berlin(from.plusDays(14), 8, 0); // Tue 15 September, after night 14
        Evaluation steady = CONFIG.evaluator().evaluate(seedFleet(seedHistory(from, 15, 900), now, List.of()), now);
        assertThat(steady.alerts()).as("450 MB/s is normal for the blob database; 900 MB/s for the ledger").isEmpty();

        Evaluation e = CONFIG.evaluator().evaluate(seedFleet(seedHistory(from, 15, 400), now, List.of()), now);
        assertThat(fired(e.alerts())).containsExactly("backup-throughput-drop sql-ldn-01 / PROD / Ledger [QAT_DEFLATE|UNC]");
        Alert drop = e.alerts().get(0);
        // 1e12 B / (400 MiB/s) = 2384 s → 1e12 / 1048576 / 2384 = 400.0 MB/s; the baseline median is ~900 MB/s.
        assertThat(drop.summary()).startsWith("Full backup of Ledger ran at 400.0 MB/s, 55.");
        assertThat(drop.details()).contains("Algorithm and target: QAT_DEFLATE UNC").contains("median of the previous 14 fulls");
    }

    @Test
    void runningBlobBackupIsForecastToSpillWhileThereIsTimeThenBreaches() {
        LocalDate from = LocalDate.of(2026, 9, 1);
        List<BackupRecord> history = seedHistory(from, 14, 900);
        LocalDate morning = from.plusDays(14); // Tue 15 September
        Instant started = berlin(morning, 5, 30);

        // 06:00: 25 % after 30 minutes → 90 minutes to go → 07:30, half an hour into business hours.
        Instant six = berlin(morning, 6, 0);
        Evaluation e = CONFIG.evaluator().evaluate(
                seedFleet(history, six, List.of(Histories.running("Blobs", started, 25.0, 1800))), six);
        assertThat(fired(e.alerts())).containsExactly("backup-window-spill-forecast sql-ldn-01 / PROD / Blobs");
        SpillForecast f = e.analysis().instances().get(0).spills().get(0);
        assertThat(f.predictedFinish()).isEqualTo(berlin(morning, 7, 30));
        assertThat(f.tailSeconds()).as("Blobs is the last backup of the job").isZero();
        assertThat(f.marginSeconds()).isEqualTo(-30 * 60);
        assertThat(f.leadTimeSeconds()).isEqualTo(60 * 60);
        assertThat(e.alerts().get(0).summary()).isEqualTo("Backup window predicted to end 30 min into business hours on 2026-09-15");
        assertThat(e.alerts().get(0).details()).contains("Time left to act: 1 h 00 min");

        // 07:40: still running inside business hours → breach, and the forecast has done its job.
        Instant late = berlin(morning, 7, 40);
        Evaluation running = CONFIG.evaluator().evaluate(
                seedFleet(history, late, List.of(Histories.running("Blobs", started, 90.0, 7800))), late);
        assertThat(fired(running.alerts())).containsExactly("backup-window-breach sql-ldn-01 / PROD");
        assertThat(running.alerts().get(0).summary()).isEqualTo("Backup of Blobs still running 40 min into business hours");

        // 08:30, the backup finished at 07:50: the night's window breached by 50 minutes.
        List<BackupRecord> done = new ArrayList<>(history);
        done.add(backup("Blobs", "D", started, 140 * 60, 2_000_000_000_000L, "MS_XPRESS", "LOCAL"));
        Instant after = berlin(morning, 8, 30);
        Evaluation breached = CONFIG.evaluator().evaluate(seedFleet(done, after, List.of()), after);
        assertThat(fired(breached.alerts())).contains("backup-window-breach sql-ldn-01 / PROD");
        Alert b = breached.alerts().stream().filter(a -> a.rule().equals("backup-window-breach")).findFirst().orElseThrow();
        assertThat(b.summary()).isEqualTo("Backup window ended 50 min into business hours on 2026-09-15");
        NightlyWindow last = breached.analysis().instances().get(0).windows().get(breached.analysis().instances().get(0).windows().size() - 1);
        assertThat(last.marginSeconds()).isEqualTo(-50 * 60);
    }
}
