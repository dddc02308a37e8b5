package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-database algorithm comparison built from stored backups. */
class StatusViewsTest {

    private static final long GB = 1L << 30;

    @Test
    void comparesAlgorithmsPerDatabaseFastestFirst() {
        List<StatusView.AlgorithmRow> rows = StatusViews.algorithms(List.of(
                backup(1, "Sales", "D", "MS_XPRESS", 100 * GB, 30 * GB, 0, 1000),
                backup(2, "Sales", "D", "QAT_DEFLATE", 100 * GB, 25 * GB, 86_400, 500),
                backup(3, "Sales", "D", "QAT_DEFLATE", 120 * GB, 30 * GB, 2 * 86_400, 700),
                backup(4, "Sales", "L", "QAT_DEFLATE", 1 * GB, GB / 2, 3 * 86_400, 10),
                backup(5, "Archive", "D", null, 10 * GB, 10 * GB, 0, 100)));
        assertThat(rows).extracting(StatusView.AlgorithmRow::database, StatusView.AlgorithmRow::algorithm)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Archive", "NONE"),
                        org.assertj.core.groups.Tuple.tuple("Sales", "QAT_DEFLATE"),
                        org.assertj.core.groups.Tuple.tuple("Sales", "MS_XPRESS"));
        StatusView.AlgorithmRow qat = rows.get(1);
        assertThat(qat.backups()).as("the log backup does not count").isEqualTo(2);
        assertThat(qat.ratio()).isEqualTo(220.0 / 55.0);
        assertThat(qat.meanDurationSeconds()).isEqualTo(600);
        assertThat(qat.meanThroughputMbps()).isEqualTo((100 * 1024 / 500.0 + 120 * 1024 / 700.0) / 2);
        assertThat(qat.latestSizeBytes()).isEqualTo(120 * GB);
        assertThat(rows.get(0).ratio()).isEqualTo(1.0);
    }

    @Test
    void snapshotBackupsAreLeftOutOfTheComparison() {
        // backupset: "For VSS backups, backup_size is an estimated value": 100 GB "in 6 s" is no throughput
        BackupRecord b = backup(6, "Sales", "D", null, 100 * GB, 100 * GB, 3 * 86_400, 6).backup();
        StoredBackup snapshot = new StoredBackup("sql01", "MSSQLSERVER", new BackupRecord(b.backupSetId(), b.databaseName(),
                b.databaseGuid(), b.type(), true, b.startedAt(), b.finishedAt(), true, b.backupSizeBytes(), b.compressedSizeBytes(),
                null, false, "NO_Encryption", null, null, "VIRTUAL_DEVICE", "VIRTUAL_DEVICE", null, true));
        List<StatusView.AlgorithmRow> rows = StatusViews.algorithms(List.of(
                backup(1, "Sales", "D", "MS_XPRESS", 100 * GB, 30 * GB, 0, 1000), snapshot));
        assertThat(rows).extracting(StatusView.AlgorithmRow::algorithm).containsExactly("MS_XPRESS");
    }

    @Test
    void alertsComeMostSevereFirstWithTheirDetailsAsTheWhy() {
        Instant t = Instant.parse("2026-11-30T06:00:00Z");
        List<StatusView.ActiveAlert> alerts = StatusViews.alerts(List.of(
                new AlertsView.ActiveAlert("1", "agent-silent", "warning", "sql03", null, null, "sql03 is silent",
                        "No report for 2 h.", t.minusSeconds(60)),
                new AlertsView.ActiveAlert("2", "qat-fallback", "critical", "sql01", "MSSQLSERVER", null, "QAT fell back",
                        "SOFTWARE since 05:40.\nmode reason: Hardware not found", t),
                new AlertsView.ActiveAlert("3", "backup-window-creep", "warning", "sql01", "MSSQLSERVER", null, "Creeping",
                        "Margin shrinks 9 min/day.", t.minusSeconds(3600))));
        assertThat(alerts).extracting(StatusView.ActiveAlert::id).containsExactly("2", "3", "1");
        assertThat(alerts.get(0).why()).isEqualTo("SOFTWARE since 05:40.\nmode reason: Hardware not found");
        assertThat(StatusPage.render(StatusFixture.of(t, List.of(), alerts, List.of(), List.of())))
                .contains("<p class=\"why\">SOFTWARE since 05:40.\nmode reason: Hardware not found</p>");
    }

    private static StoredBackup backup(long id, String database, String type, String algorithm, long size, long compressed,
            long startOffsetSeconds, long durationSeconds) {
        Instant start = Instant.parse("2026-11-01T22:00:00Z").plusSeconds(startOffsetSeconds);
        return new StoredBackup("sql01", "MSSQLSERVER", new BackupRecord(id, database, null, type, false, start,
                start.plusSeconds(durationSeconds), true, size, compressed, algorithm, true, null, null, null, "DISK", "LOCAL"));
    }
}
