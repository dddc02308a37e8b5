package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a real SQL Server reports that synthetic histories never did (issue 14): replicas seeded by restore, each
 * with its own database_guid; backup sets of another lineage under the same name; snapshot backups whose size is
 * an estimate.
 */
class RealServerFactsTest {

    private static final AlertsConfig CONFIG = new AlertsConfig(List.of(new CalendarConfig("office", "Europe/Berlin",
            Map.of("mon-fri", "07:00-19:00"), List.of(), 60)), null, null, null, null, null, null).validate();
    private static final LocalDate FROM = LocalDate.of(2026, 9, 1);
    private static final Instant NOW = berlin(LocalDate.of(2026, 9, 16), 8, 0); // a Wednesday
    private static final String GROUP_DATABASE_ID = "c0a80164-7e11-4b5e-9d3a-6f2b8c1d4e5f";
    private static final String FAMILY = "16fd2706-8baf-433b-82eb-8c7fada847da";
    private static final String PRIMARY_GUID = "5d41402a-bc4b-4a76-b971-9d911017c592";
    /** "RESTORE always generates a new GUID when you restore a database that does not yet exist": the seeded secondary. */
    private static final String SECONDARY_GUID = "a8098c1a-f86e-11da-bd1a-00112444be1e";

    private static DatabaseInfo replica(String guid, String role) {
        return new DatabaseInfo("Sales", guid, "FULL", "NONE", "agSales", role, "SECONDARY".equals(role), FAMILY,
                GROUP_DATABASE_ID, "7d3a9b2c-4e5f-4a6b-8c7d-9e0f1a2b3c4d", false, null, null);
    }

    /** Copy-only fulls at 01:00 and logs every 30 minutes, taken on the secondary, with its own GUID. */
    private static List<BackupRecord> onSecondary(String family) {
        List<BackupRecord> out = new ArrayList<>();
        for (int d = 0; d < 16; d++) {
            LocalDate day = FROM.plusDays(d);
            out.add(withIdentity(Histories.copyOnly("Sales", "D", berlin(day, 1, 0), 40 * 60, 500_000_000_000L), family, false));
            for (int half = 0; half < 48; half++) {
                out.add(withIdentity(backup("Sales", "L", berlin(day, 0, 0).plusSeconds(half * 1800L), 20, 2_000_000_000L,
                        "MS_XPRESS", "UNC"), family, false));
            }
        }
        out.removeIf(b -> b.startedAt().isAfter(NOW));
        return out;
    }

    private static BackupRecord withIdentity(BackupRecord b, String family, boolean snapshot) {
        return new BackupRecord(b.backupSetId(), b.databaseName(), SECONDARY_GUID, b.type(), b.copyOnly(), b.startedAt(),
                b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(), b.compressionAlgorithm(),
                b.hasChecksums(), b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(), b.deviceType(), b.target(),
                family, snapshot);
    }

    private static FleetState agFleet(List<BackupRecord> secondaryBackups) {
        return new FleetState(List.of(
                Histories.host("sql-a", NOW, Histories.instance("MSSQLSERVER", NOW, List.of(replica(PRIMARY_GUID, "PRIMARY")),
                        List.of(), List.of())),
                Histories.host("sql-b", NOW, Histories.instance("MSSQLSERVER", NOW, List.of(replica(SECONDARY_GUID, "SECONDARY")),
                        secondaryBackups, List.of()))));
    }

    @Test
    void aSecondarySeededByRestoreHasItsOwnGuidAndIsStillTheSameDatabase() {
        Evaluation e = CONFIG.evaluator().evaluate(agFleet(onSecondary(FAMILY)), NOW);

        assertThat(e.alerts()).as("the secondary's backups protect the database the primary holds").isEmpty();
        assertThat(e.analysis().databases().values()).filteredOn(d -> d.name().equals("Sales")).singleElement()
                .satisfies(sales -> {
                    assertThat(sales.key()).isEqualTo("ag-database:" + GROUP_DATABASE_ID);
                    assertThat(sales.host()).isEqualTo("sql-a");
                    assertThat(sales.replicas()).containsExactly("sql-a/MSSQLSERVER", "sql-b/MSSQLSERVER");
                    assertThat(sales.backups()).isNotEmpty();
                });
        assertThat(e.analysis().instances().get(1).windows()).as("the secondary's copy-only fulls make its windows").isNotEmpty();
        assertThat(e.analysis().availabilityGroupWindows().get("agSales")).isNotEmpty();
    }

    @Test
    void backupSetsOfAnotherFamilyUnderTheSameNameDoNotProtectTheDatabase() {
        // family_guid stays through restores: another family is another database that once had the name
        Evaluation e = CONFIG.evaluator().evaluate(agFleet(onSecondary("0f8fad5b-d9cb-469f-a165-70867728950e")), NOW);

        assertThat(fired(e.alerts())).containsExactly(
                "backup-missing sql-a / MSSQLSERVER / Sales [full or differential]",
                "backup-missing sql-a / MSSQLSERVER / Sales [full]",
                "backup-missing sql-a / MSSQLSERVER / Sales [log]");
        MergedDatabase sales = e.analysis().databases().get("ag-database:" + GROUP_DATABASE_ID);
        assertThat(sales.backups()).isEmpty();
    }

    /**
     * Ledger is backed up each night by a VSS snapshot through a virtual device (is_snapshot 1): backup_size is "an
     * estimated value", and the minutes a snapshot takes are the provider's, not a data rate. Usually 8 minutes;
     * the last night 40.
     */
    private static FleetState snapshotsOnly() {
        List<BackupRecord> history = new ArrayList<>();
        long bytes = 1_000_000_000_000L;
        for (int k = 0; k < 15; k++) {
            Instant start = berlin(FROM.plusDays(k), 1, 0);
            BackupRecord b = backup("Ledger", "D", start, (k == 14 ? 40 : 8) * 60L, bytes, null, "VIRTUAL_DEVICE");
            history.add(new BackupRecord(b.backupSetId(), b.databaseName(), b.databaseGuid(), "D", false, b.startedAt(),
                    b.finishedAt(), true, bytes, bytes, null, false, "NO_Encryption", null, null, "VIRTUAL_DEVICE",
                    "VIRTUAL_DEVICE", b.databaseGuid(), true));
        }
        Instant now = berlin(FROM.plusDays(14), 8, 0);
        return new FleetState(List.of(Histories.host("sql-ldn-01", now, Histories.instance("PROD", now,
                List.of(Histories.db("Ledger", "SIMPLE")), history, List.of()))));
    }

    @Test
    void snapshotBackupsCountAsRecoveryPointsAndWindowsButNotAsThroughput() {
        Instant now = berlin(FROM.plusDays(14), 8, 0);
        Evaluation e = CONFIG.evaluator().evaluate(snapshotsOnly(), now);
        // read as data rates, 1e12 B in 40 min against 8 min would be an 80 % "drop"
        assertThat(fired(e.alerts())).as("no throughput drop from estimated sizes, no missing backup either").isEmpty();
        MergedDatabase db = e.analysis().databases().values().iterator().next();
        assertThat(db.backups()).hasSize(15).allSatisfy(b -> assertThat(b.snapshot()).isTrue());
        var windows = e.analysis().instances().get(0).windows();
        assertThat(windows.get(windows.size() - 1).lastFinish()).as("it closes the night's window")
                .isEqualTo(berlin(FROM.plusDays(14), 1, 40));
    }
}
