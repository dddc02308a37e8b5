package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlInstanceSummaryTest {

    private static SqlInstanceSnapshot golden(String scenario) throws Exception {
        var tree = ReportJson.mapper().readTree(Files.readAllBytes(Path.of("src/test/resources/sqlserver/golden/" + scenario + ".json")));
        return ReportJson.mapper().treeToValue(tree.get("snapshot"), SqlInstanceSnapshot.class);
    }

    @Test
    void theDbasTestShowsQatDeflateTwiceAsFastAsMsXpressOnTheSameDatabase() throws Exception {
        List<SqlInstanceSummary.AlgorithmRow> rows = SqlInstanceSummary.compare(golden("sql2022-enterprise-vm-no-qat").backups());
        assertThat(rows).extracting(SqlInstanceSummary.AlgorithmRow::algorithm).containsExactly("MS_XPRESS", "QAT_DEFLATE", "none", "QAT_DEFLATE");
        String table = SqlInstanceSummary.comparisonTable(rows);
        assertThat(table).contains("SalesDW   full          MS_XPRESS           1        8m 19.6s   3.11x     249.5");
        assertThat(table).contains("SalesDW   full          QAT_DEFLATE         1        3m 58.6s   2.95x     522.5");
        assertThat(table).as("the uncompressed run to NUL").contains("SalesDW   full          none                1        2m 10.0s   1.00x     958.9");
    }

    @Test
    void theSummaryExplainsTheAcceleratorModeAPendingChangeAndWhatCouldNotBeRead() throws Exception {
        String vm = SqlInstanceSummary.render(golden("sql2022-enterprise-vm-no-qat"), List.of());
        assertThat(vm).contains("SQL Server PROD: SQLVM07 on SQLVM07, 16.0.4165.4 (SQL Server 2022), Enterprise Edition");
        assertThat(vm).contains("QAT accelerator: SOFTWARE (SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND: software: no QAT device or driver was found)");
        assertThat(vm).contains("backup compression algorithm   2 (QAT_DEFLATE)");

        String sql2019 = SqlInstanceSummary.render(golden("sql2019-standard"), List.of());
        assertThat(sql2019).contains("QAT accelerator: none (needs SQL Server 2022 or later)");
        assertThat(sql2019).contains("backup checksum default        1 (in use: 0: pending RECONFIGURE or restart)");
        assertThat(sql2019).contains("Certificate TDE_HR: expires 2027-03-31, private key NEVER backed up");

        String hw = SqlInstanceSummary.render(golden("sql2022-enterprise-hardware"), List.of(
                io.qatwatch.protocol.ProbeStatus.failed("sqlserver:PROD/certificates", 3, "denied", "GRANT VIEW DEFINITION")));
        assertThat(hw).as("estimated_completion_time is 'Internal only': raw, with the millisecond reading")
                .contains("Running: Payments BACKUP DATABASE 42.5% after 1m 41.0s, estimated_completion_time 136647 (2m 16.0s left if milliseconds; units undocumented)");
        assertThat(hw).as("no documented meaning").contains("hardware offload config        1 (raw: no documented meaning)");
        assertThat(hw).contains("Not read:\n  sqlserver:PROD/certificates: denied\n    -> GRANT VIEW DEFINITION");
    }

    @Test
    void aSnapshotBackupIsItsOwnLineWithoutRatioOrThroughput() throws Exception {
        // backupset: "For VSS backups, backup_size is an estimated value"; 9106 is a snapshot of Sales in 6 s
        List<SqlInstanceSummary.AlgorithmRow> rows = SqlInstanceSummary.compare(golden("sql2019-standard").backups());
        assertThat(rows).filteredOn(r -> r.database().equals("Sales") && r.type().equals("D"))
                .extracting(SqlInstanceSummary.AlgorithmRow::algorithm, SqlInstanceSummary.AlgorithmRow::backups)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("MS_XPRESS", 2), org.assertj.core.groups.Tuple.tuple("snapshot", 1));
        SqlInstanceSummary.AlgorithmRow snapshot = rows.stream().filter(r -> r.algorithm().equals("snapshot")).findFirst().orElseThrow();
        assertThat(snapshot.medianMbPerSecond()).isNull();
        assertThat(snapshot.medianRatio()).isNull();
        assertThat(SqlInstanceSummary.comparisonTable(rows)).contains("Sales     full          snapshot            1            6.0s       -         -");
    }

    @Test
    void theSummaryNamesTheBackupJobsAFailedStepWithItsErrorAndTheNewestCommandAndRestore() throws Exception {
        String ola = SqlInstanceSummary.render(golden("sql2022-ola-backup-failed"), List.of());
        assertThat(ola).contains("  SQL Server Agent: 5 jobs, 3 backing up\n",
                "    DatabaseBackup - USER_DATABASES - FULL (OLA_HALLENGREN, FULL) starts 01:30:00 server time\n",
                "    Backup Payments to NUL (throughput test) (T-SQL, FULL, Payments, disabled)\n",
                "  Job run FAILED: DatabaseBackup - USER_DATABASES - FULL step 1 at 2026-11-30 00:30 UTC (Msg 3013)\n",
                "BACKUP DATABASE is terminating abnormally. [SQLSTATE 42000] (Error 3013)",
                "  CommandLog: 3 backup commands; newest Payments BACKUP_LOG QAT_DEFLATE\n");
        assertThat(ola).as("outcome rows repeat the step").doesNotContain("step 0");
        assertThat(SqlInstanceSummary.render(golden("sql2025-commandlog-zstd"), List.of()))
                .contains("newest Catalog BACKUP_DATABASE ZSTD LEVEL = HIGH\n");
        assertThat(SqlInstanceSummary.render(golden("sql2022-express-no-agent"), List.of()))
                .contains("  SQL Server Agent: not available (Express, or 'Agent XPs' off");
        assertThat(SqlInstanceSummary.render(golden("sql2022-restores-from-other-server"), List.of()))
                .contains("  Restores: 6; newest ERP from SQLSTD22/ERP at 2026-11-30 04:40 UTC\n");
    }

    @Test
    void algorithmZeroIsNotMsXpressAndHiddenRunningBackupsAreNotNone() throws Exception {
        String ag = SqlInstanceSummary.render(golden("sql2022-ag-secondary"), List.of());
        // "0 = Backup compression is off, as specified by backup compression default"
        assertThat(ag).contains("backup compression algorithm   0 (none set: compression as 'backup compression default' says)")
                .doesNotContain("0 (MS_XPRESS)");
        assertThat(ag).doesNotContain("Running backups: none\n")
                .contains("Running backups: none visible\n")
                .contains("Running backups of Orders: unknown (availability-group secondary;");
    }

    @Test
    void mediansTakeTheMiddleOfSeveralBackups() {
        Instant t = Instant.parse("2026-11-01T00:00:00Z");
        List<BackupRecord> backups = List.of(
                backup(1, t, 100, "ZSTD"), backup(2, t, 300, "ZSTD"), backup(3, t, 200, "ZSTD"), backup(4, t, 1000, "ZSTD"));
        SqlInstanceSummary.AlgorithmRow row = SqlInstanceSummary.compare(backups).get(0);
        assertThat(row.backups()).isEqualTo(4);
        assertThat(row.medianSeconds()).isEqualTo(250.0);
        assertThat(SqlInstanceSummary.runtime(3725)).isEqualTo("1h 02m 05s");
    }

    private static BackupRecord backup(long id, Instant start, long seconds, String algorithm) {
        return new BackupRecord(id, "Catalog", null, "D", false, start, start.plusSeconds(seconds), true, 1L << 30, 1L << 28,
                algorithm, true, null, null, null, "DISK", "LOCAL");
    }
}
