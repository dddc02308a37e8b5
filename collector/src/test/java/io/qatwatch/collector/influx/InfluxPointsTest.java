package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.testing.Restores;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InfluxPointsTest {

    private static final Instant RECEIVED = Instant.parse("2026-11-30T06:15:02Z");

    @Test
    void goldenReportGivesItsBackupAcceleratorHostAndAgentPoints() {
        AgentReport report = GoldenReports.complete();
        List<String> lines = InfluxPoints.lines("sql01", "prod", report, RECEIVED);
        assertThat(lines).containsExactly(
                "qatwatch_backup,algorithm=QAT_DEFLATE,copy_only=false,database=Sales,encrypted=false,group=prod,"
                        + "host=sql01,instance=MSSQLSERVER,snapshot=false,target=UNC,type=full backup_set_id=41230i,"
                        + "compressed_bytes=41984720896i,cpu_ms=261712i,cpu_samples=4i,cpu_seconds_per_gb=2.1494153017891944,"
                        + "duration_seconds=238.6,process_cpu_ms=231000i,process_reliable=true,process_samples=4i,"
                        + "ratio=3.113951897021085,request_cpu_ms=212400i,session_cpu_ms=211900i,"
                        + "size_bytes=130738401280i,throughput_mbps=522.5559743032271 1795998840600000000",
                "qatwatch_restore,command=RESTORE\\ DATABASE,database=PaymentsRestoreTest,group=prod,host=sql01,"
                        + "instance=MSSQLSERVER cpu_samples=4i,elapsed_seconds=180.0,percent_complete=96.5,process_cpu_ms=52000i,"
                        + "process_reliable=true,process_samples=5i,request_cpu_ms=41000i,session_cpu_ms=40500i,"
                        + "started_seconds=1796011200i 1796011380000000000",
                "qatwatch_accelerator,accelerator=QAT,group=prod,host=sql01,instance=MSSQLSERVER,mode=HARDWARE,"
                        + "reason=HARDWARE_MODE_ENTERPRISE_SKU driver_version=\"2.0.2.0\",hardware_detected=true,"
                        + "library_version=\"1.8.0-0010\",mode_code=2i 1796019298000000000",
                "qatwatch_host,cpu_vendor=GenuineIntel,group=prod,host=sql01,licence_verdict=INTEL_QAT_HARDWARE,"
                        + "virtualization=none compression_ready=true,cpu_model=\"Intel(R) Xeon(R) Gold 6448Y\","
                        + "intel_components=2i,qat_devices=1i,qat_devices_up=1i,qat_software_installed=true "
                        + "1796019300000000000",
                "qatwatch_agent,group=prod,host=sql01,version=0.1.0 outbox_corrupt_total=0i,outbox_depth=0i,"
                        + "outbox_dropped_total=0i,probes_failed=0i,probes_total=3i,report_lag_seconds=2.0,"
                        + "uptime_seconds=86400i 1796019300000000000");
    }

    @Test
    void unknownGroupAndTagsAreLeftOutAndSpecialCharactersEscaped() {
        BackupRecord b = new BackupRecord(7, "Sales, EU=1\\x", null, "L", true, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:00:00Z"), true, 1000, null, null, true, "AES_256", null, null, "DISK", null);
        String line = InfluxPoints.backup("h1", null, "PROD", b);
        assertThat(line).startsWith("qatwatch_backup,algorithm=NONE,copy_only=true,database=Sales\\,\\ EU\\=1/x,"
                + "encrypted=true,host=h1,instance=PROD,snapshot=false,type=log ");
        assertThat(line).doesNotContain("group=").doesNotContain("target=").doesNotContain("throughput_mbps")
                .contains("ratio=1.0").contains("compressed_bytes=1000i");
    }

    @Test
    void aSnapshotBackupHasNoRatioOrThroughputAndTheUnencryptedOneIsNotEncrypted() {
        // backupset: "For VSS backups, backup_size is an estimated value"; key_algorithm NO_Encryption when unencrypted
        BackupRecord b = new BackupRecord(9, "Sales", null, "D", true, Instant.parse("2026-01-01T20:00:00Z"),
                Instant.parse("2026-01-01T20:00:06Z"), true, 52_613_349_376L, 52_613_349_376L, null, false, "NO_Encryption",
                null, null, "VIRTUAL_DEVICE", "VIRTUAL_DEVICE", null, true);
        String line = InfluxPoints.backup("h1", null, "PROD", b);
        assertThat(line).contains("encrypted=false", "snapshot=true", "duration_seconds=6.0", "size_bytes=52613349376i")
                .doesNotContain("throughput_mbps").doesNotContain("ratio=");
    }

    @Test
    void compressedBackupFromAServerOlderThan2022IsMsXpress() {
        BackupRecord b = new BackupRecord(8, "db", null, "D", false, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:01:00Z"), true, 1000, 400L, null, true, null, null, null, "DISK", "LOCAL");
        assertThat(InfluxPoints.backup("h1", null, "PROD", b)).contains("algorithm=MS_XPRESS").contains("ratio=2.5");
    }

    @Test
    void aBackupSeenRunningCarriesItsCpuSignalsAndTheWholeRunsCpuPerGb() {
        // the striped full of sql2022-cpu-polls: cpu_time 20,000 ms at its last poll, the process 59,000 ms from the first
        // poll (01:04, 30 s into the run) to the end: 150 s of 180 covered, so 70,800 ms over the whole run
        Instant start = Instant.parse("2026-11-30T01:03:30Z");
        BackupRecord b = new BackupRecord(501, "Payments", null, "D", false, start, start.plusSeconds(180), true, 64L << 30,
                16L << 30, "QAT_DEFLATE", true, "NO_Encryption", null, null, "DISK", "LOCAL", null, false, 4)
                .withCpu(new BackupCpu(20_000L, 16_000L, 3, Instant.parse("2026-11-30T01:04:00Z"),
                        Instant.parse("2026-11-30T01:06:00Z"), 59_000L, 4, true, null));
        assertThat(InfluxPoints.backup("sql01", null, "PROD", b)).contains(",cpu_ms=70800i,cpu_samples=3i,cpu_seconds_per_gb=1.10625,",
                ",process_cpu_ms=59000i,process_reliable=true,process_samples=4i,", ",request_cpu_ms=20000i,session_cpu_ms=16000i,");
    }

    @Test
    void aBackupThatRanBetweenTwoPollsHasNoCpuFields() {
        BackupRecord b = new BackupRecord(502, "Payments", null, "L", false, Instant.parse("2026-11-30T01:07:10Z"),
                Instant.parse("2026-11-30T01:07:40Z"), true, 1L << 30, 1L << 28, "QAT_DEFLATE", true, "NO_Encryption", null, null,
                "DISK", "LOCAL");
        assertThat(InfluxPoints.backup("sql01", null, "PROD", b)).doesNotContain("cpu");
    }

    @Test
    void anObservedRestoreIsAPointStampedWithTheLastPollThatSawIt() {
        ObservedRestore r = new ObservedRestore("SalesCopy", "RESTORE DATABASE", Instant.parse("2026-11-30T00:59:30Z"),
                Instant.parse("2026-11-30T01:01:00Z"), 90, 60.0, new BackupCpu(9_000L, 7_000L, 2,
                Instant.parse("2026-11-30T01:00:00Z"), Instant.parse("2026-11-30T01:01:00Z"), 30_000L, 3, false,
                "a BACKUP LOG of Orders ran beside it"));
        assertThat(InfluxPoints.restore("sql01", "prod", "PROD", r)).isEqualTo("qatwatch_restore,command=RESTORE\\ DATABASE,"
                + "database=SalesCopy,group=prod,host=sql01,instance=PROD cpu_samples=2i,elapsed_seconds=90.0,percent_complete=60.0,"
                + "process_cpu_ms=30000i,process_reliable=false,process_samples=3i,request_cpu_ms=9000i,session_cpu_ms=7000i,"
                + "started_seconds=1796000370i 1796000460000000000");
    }

    @Test
    void aMatchedRestoreIsASecondSeriesWithTheBackupsTagsAndOnlyItsBytesAndSpeed() {
        Instant start = Instant.parse("2026-11-30T04:00:00Z");
        BackupRecord full = Restores.backup(41230, "Payments", "D", start.minusSeconds(7200), 240, 4L << 30, 1L << 30,
                "qat_deflate", "unc", "1", "2", "1", "1", null);
        ObservedRestore seen = Restores.observed("PaymentsRestoreTest", "RESTORE DATABASE", start, 180, 90.0);
        RestoreObservation matched = new RestoreObservation("sql02", "TEST", seen.databaseName(), seen.command(),
                seen.startedAt(), seen.lastSeenAt(), seen.elapsedSeconds(), seen.percentComplete(), seen.cpu(),
                new StoredBackup("sql01", "PROD", full));
        // 4 GiB in 180 s / 90 %: 200 s, 20.48 MiB/s; tagged as qatwatch_backup tags the backup it restored
        assertThat(InfluxPoints.restoredBackup("sql02", null, matched)).isEqualTo("qatwatch_restore,algorithm=QAT_DEFLATE,"
                + "command=RESTORE\\ DATABASE,database=PaymentsRestoreTest,host=sql02,instance=TEST,target=UNC,type=full "
                + "backup_set_id=41230i,compressed_bytes=1073741824i,duration_seconds=200.0,size_bytes=4294967296i,"
                + "throughput_mbps=20.48 1796011380000000000");
        // the same restore's own point: the same time, tags without the backup's, no field in common
        assertThat(InfluxPoints.restore("sql02", null, "TEST", seen)).startsWith("qatwatch_restore,command=RESTORE\\ DATABASE,"
                + "database=PaymentsRestoreTest,host=sql02,instance=TEST cpu_samples=").endsWith(" 1796011380000000000");
        RestoreObservation unmatched = new RestoreObservation("sql02", "TEST", seen.databaseName(), seen.command(),
                seen.startedAt(), seen.lastSeenAt(), seen.elapsedSeconds(), seen.percentComplete(), seen.cpu(), null);
        assertThat(InfluxPoints.restoredBackup("sql02", null, unmatched)).isNull();
        RestoreObservation glimpsed = new RestoreObservation("sql02", "TEST", null, "RESTORE LOG", start, start.plusSeconds(20),
                20, 30.0, null, new StoredBackup("sql01", "PROD", Restores.backup(9, "Payments", "L", start, 5, 1L << 20, null,
                null, null, "2", "3", "1", "1", null)));
        assertThat(InfluxPoints.restoredBackup("sql02", null, glimpsed)).as("uncompressed, seen too little for a speed")
                .isEqualTo("qatwatch_restore,algorithm=NONE,command=RESTORE\\ LOG,host=sql02,instance=TEST,type=log "
                        + "backup_set_id=9i,compressed_bytes=1048576i,size_bytes=1048576i 1796011220000000000");
    }

    @Test
    void anObservedRestoreIsStampedToTheMillisecondAsTheStoreKeepsIt() {
        ObservedRestore r = new ObservedRestore("SalesCopy", "RESTORE DATABASE", Instant.parse("2026-11-30T00:59:30Z"),
                Instant.parse("2026-11-30T01:01:00.123456789Z"), 90, 60.0, null);
        assertThat(InfluxPoints.restore("sql01", null, "PROD", r)).endsWith(" 1796000460123000000");
    }

    @Test
    void aCompressionVerdictIsOnePointPerMethodWithBothSidesMedians() {
        Instant start = Instant.parse("2026-11-01T22:00:00Z");
        List<BackupRecord> backups = new java.util.ArrayList<>();
        for (int n = 0; n < 3; n++) {
            Instant s = start.plusSeconds(86_400L * n);
            backups.add(new BackupRecord(n + 1, "Sales", null, "D", false, s, s.plusSeconds(1000), true, 1L << 40, 1L << 38,
                    "MS_XPRESS", true, "NO_Encryption", null, null, "DISK", "UNC"));
            backups.add(new BackupRecord(n + 11, "Sales", null, "D", true, s.plusSeconds(3600), s.plusSeconds(4100), true,
                    1L << 40, 1L << 38, "QAT_DEFLATE", true, "NO_Encryption", null, null, "DISK", "UNC"));
        }
        var c = io.qatwatch.collector.compression.CompressionSamples.of(backups,
                        io.qatwatch.collector.compression.QatModes.constant("HARDWARE"), 60)
                .comparisons(start.minusSeconds(1), java.util.Map.of("sales", true),
                        io.qatwatch.collector.compression.VerdictThresholds.DEFAULTS).get(0);
        String line = InfluxPoints.compression("sql01", "prod", "MSSQLSERVER", c, c.algorithms().get(1),
                Instant.parse("2026-11-05T08:00:00Z"));
        assertThat(line).isEqualTo("qatwatch_compression,algorithm=QAT_DEFLATE,backup_encrypted=false,baseline=MS_XPRESS,"
                + "database=Sales,group=prod,host=sql01,instance=MSSQLSERVER,mode=HARDWARE,target=UNC,tde=true,type=full "
                + "backups=3i,baseline_backups=3i,baseline_median_mbps=1048.576,baseline_median_ratio=4.0,cpu_backups=0i,median_mbps=2097.152,"
                + "median_ratio=4.0,median_seconds=500.0,size_gain_percent=0.0,speed_gain_percent=100.0,verdict=\"FASTER\" "
                + "1793865600000000000");
    }

    @Test
    void windowMarginIsNegativeOnBreach() {
        String line = InfluxPoints.window("h1", "g", "PROD", "office", Instant.parse("2026-01-05T01:00:00Z"),
                Instant.parse("2026-01-05T07:30:00Z"), Instant.parse("2026-01-05T07:00:00Z"), 12);
        assertThat(line).isEqualTo("qatwatch_window,calendar=office,group=g,host=h1,instance=PROD backups=12i,"
                + "breach=true,business_start_seconds=1767596400i,duration_seconds=23400.0,end_seconds=1767598200i,"
                + "margin_seconds=-1800.0,start_seconds=1767574800i 1767574800000000000");
    }

    @Test
    void trendAndAlertPointsLeaveAbsentValuesOut() {
        assertThat(InfluxPoints.windowTrend("h1", null, "PROD", NightKind.DIFFERENTIAL, Instant.parse("2026-01-05T08:00:00Z"),
                -1.5, 14, null, null))
                .isEqualTo("qatwatch_window_trend,host=h1,instance=PROD,kind=differential nights=14i,"
                        + "slope_minutes_per_day=-1.5 1767600000000000000");
        Alert creep = new Alert("backup-window-creep", Severity.WARNING, "h1", "PROD", null, "full",
                "margin \"shrinks\" 3 min/day", "why", List.of(), List.of());
        assertThat(InfluxPoints.alert(creep, null, true, Instant.parse("2026-01-05T08:00:00Z")))
                .isEqualTo("qatwatch_alert,alert_id=" + creep.id() + ",host=h1,instance=PROD,rule=backup-window-creep,"
                        + "severity=warning,subject=full active=1i,summary=\"margin \\\"shrinks\\\" 3 min/day\" "
                        + "1767600000000000000");
    }

    @Test
    void twoAlertsOfOneRuleAtOnePlaceAreTwoSeriesAndTwoTrendsAtOneTimeToo() {
        Alert full = new Alert("backup-window-creep", Severity.WARNING, "h1", "PROD", null, "full", "s", "why",
                List.of(), List.of());
        Alert differential = new Alert("backup-window-creep", Severity.WARNING, "h1", "PROD", null, "differential", "s",
                "why", List.of(), List.of());
        Instant at = Instant.parse("2026-01-05T08:00:00Z");

        assertThat(seriesKey(InfluxPoints.alert(full, null, true, at)))
                .isNotEqualTo(seriesKey(InfluxPoints.alert(differential, null, true, at)));
        assertThat(seriesKey(InfluxPoints.windowTrend("h1", null, "PROD", NightKind.FULL, at, -2, 8, null, null)))
                .isNotEqualTo(seriesKey(InfluxPoints.windowTrend("h1", null, "PROD", NightKind.DIFFERENTIAL, at, -2, 21, null, null)));
    }

    /** Measurement and tags: what InfluxDB keys a series by (a point at the same time in it overwrites). */
    private static String seriesKey(String line) {
        return line.substring(0, line.indexOf(' '));
    }
}
