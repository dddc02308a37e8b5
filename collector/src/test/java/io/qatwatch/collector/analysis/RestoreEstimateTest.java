package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Restores.backup;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.chain.RestorePlanner;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The restore-time estimate of a plan (full, differential, three logs): at the host's measured restore speed when it
 * restored backups of the same algorithm and target, else at its backup speed (fulls and differentials at theirs, logs at
 * theirs), said so; a part with neither leaves the estimate open.
 */
class RestoreEstimateTest {

    private static final Instant T = Instant.parse("2026-11-29T01:00:00Z");
    private static final long GIB = 1L << 30;

    /** Full 100 GiB (40 GiB written) in 600 s, differential 10 GiB in 100 s, three 1 GiB logs in 10 s each: all QAT_DEFLATE to UNC. */
    private static List<BackupRecord> backups(String logAlgorithm) {
        return List.of(
                backup(1, "Sales", "D", T, 600, 100 * GIB, 40 * GIB, "QAT_DEFLATE", "UNC", "1000", "1010", "1005", "1005", null),
                backup(2, "Sales", "I", T.plusSeconds(3600), 100, 10 * GIB, 4 * GIB, "QAT_DEFLATE", "UNC", "1100", "1110", "1105",
                        "1005", "1005"),
                backup(3, "Sales", "L", T.plusSeconds(7200), 10, GIB, GIB / 2, logAlgorithm, "UNC", "1000", "1120", "1000", "1005",
                        null),
                backup(4, "Sales", "L", T.plusSeconds(10800), 10, GIB, GIB / 2, logAlgorithm, "UNC", "1120", "1130", "1120", "1005",
                        null),
                backup(5, "Sales", "L", T.plusSeconds(14400), 10, GIB, GIB / 2, logAlgorithm, "UNC", "1130", "1140", "1130", "1005",
                        null));
    }

    private static RestoreEstimate estimate(List<BackupRecord> backups, RestoreSpeeds speeds) {
        RestorePlan plan = RestorePlanner.ofBackups(Map.of("sql01/PROD", backups)).orElseThrow();
        return RestoreEstimate.of("sql01", plan, backups, speeds, null);
    }

    @Test
    void atTheMeasuredRestoreSpeed() {
        List<BackupRecord> backups = backups("QAT_DEFLATE");
        // sql01 restored its QAT_DEFLATE full from the share in 200 s: 512 MB/s
        RestoreSpeeds speeds = RestoreSpeeds.of(List.of(new RestoreObservation("SQL01", "PROD", "Sales_check",
                "RESTORE DATABASE", T, T.plusSeconds(200), 200, 100, null, new StoredBackup("sql01", "PROD", backups.get(0)))));
        RestoreEstimate e = estimate(backups, speeds);

        assertThat(e.parts()).extracting(RestoreEstimate.Part::kind).containsExactly("FULL", "DIFFERENTIAL", "LOG");
        assertThat(e.parts()).allSatisfy(p -> {
            assertThat(p.basis()).isEqualTo(RestoreEstimate.RESTORE_SPEED);
            assertThat(p.mbps()).isEqualTo(512.0);
            assertThat(p.samples()).isEqualTo(1);
        });
        assertThat(e.parts().get(2).backups()).isEqualTo(3);
        assertThat(e.bytes()).isEqualTo(40 * GIB + 4 * GIB + 3 * (GIB / 2));
        assertThat(e.dataBytes()).isEqualTo(113 * GIB);
        // 113 GiB at 512 MB/s: 226 s
        assertThat(e.minutes()).isEqualTo(3.8);
        assertThat(e.basis()).isEqualTo(RestoreEstimate.RESTORE_SPEED);
        assertThat(e.parts().get(0).minutes()).isEqualTo(3.3);
        assertThat(e.summary()).isEqualTo("full 100.0 GiB QAT_DEFLATE from UNC: 3.3 min at 512.0 MB/s (measured restore speed)"
                + " + differential 10.0 GiB QAT_DEFLATE from UNC: 0.3 min at 512.0 MB/s (measured restore speed)"
                + " + 3 log backups 3.0 GiB QAT_DEFLATE from UNC: 0.1 min at 512.0 MB/s (measured restore speed)"
                + "; 3.8 min in all (restore-speed)");
    }

    @Test
    void atTheBackupSpeedWhenNoRestoreWasMeasured() {
        RestoreEstimate e = estimate(backups("QAT_DEFLATE"), RestoreSpeeds.NONE);
        assertThat(e.parts()).allSatisfy(p -> assertThat(p.basis()).isEqualTo(RestoreEstimate.BACKUP_SPEED));
        // fulls and differentials at the median of their backups' speeds (100 GiB in 600 s, 10 GiB in 100 s)
        double dataSpeed = (100 * 1024 / 600.0 + 10 * 1024 / 100.0) / 2;
        assertThat(e.parts().get(0).mbps()).isEqualTo(Math.round(dataSpeed * 100) / 100.0);
        assertThat(e.parts().get(0).samples()).isEqualTo(2);
        assertThat(e.parts().get(2).mbps()).as("logs at the log backups' speed").isEqualTo(102.4);
        double minutes = 110 * 1024 / dataSpeed / 60 + 3 * 1024 / 102.4 / 60;
        assertThat(e.minutes()).isEqualTo(Math.round(minutes * 10) / 10.0);
        assertThat(e.basis()).isEqualTo(RestoreEstimate.BACKUP_SPEED);
        assertThat(e.summary()).contains("(backup speed, no restore measured)").endsWith("min in all (backup-speed)");
    }

    @Test
    void aPartWithNoSpeedLeavesTheEstimateOpen() {
        // ZSTD logs go at the ZSTD log backups' speed; without those backups no ZSTD speed is known
        List<BackupRecord> backups = backups("ZSTD");
        RestoreEstimate e = estimate(backups, RestoreSpeeds.NONE);
        assertThat(e.parts()).extracting(RestoreEstimate.Part::algorithm).containsExactly("QAT_DEFLATE", "QAT_DEFLATE", "ZSTD");
        assertThat(e.parts().get(2).mbps()).isEqualTo(102.4);
        RestoreEstimate open = RestoreEstimate.of("sql01", RestorePlanner.ofBackups(Map.of("sql01/PROD", backups)).orElseThrow(),
                backups.subList(0, 2), RestoreSpeeds.NONE, null);
        assertThat(open.parts().get(2).mbps()).isNull();
        assertThat(open.minutes()).isNull();
        assertThat(open.basis()).isNull();
        assertThat(open.summary()).contains("3 log backups 3.0 GiB ZSTD from UNC: no restore or backup speed known")
                .endsWith("; not estimated");
    }

    @Test
    void inTheAlertStagesMergedChainEachLogKeepsItsOwnAlgorithm() {
        // the jobs' logs switched from MS_XPRESS to QAT_DEFLATE after the second log: the alert stage keeps logs as runs of
        // consecutive ones, and a run holds one algorithm, so each log is estimated at its own algorithm's speed
        List<BackupRecord> backups = List.of(
                backup(1, "Sales", "D", T, 600, 100 * GIB, 40 * GIB, "QAT_DEFLATE", "UNC", "1000", "1010", "1005", "1005", null),
                backup(3, "Sales", "L", T.plusSeconds(7200), 10, GIB, GIB / 2, "MS_XPRESS", "UNC", "1000", "1120", "1000", "1005",
                        null),
                backup(4, "Sales", "L", T.plusSeconds(10800), 10, GIB, GIB / 2, "MS_XPRESS", "UNC", "1120", "1130", "1120", "1005",
                        null),
                backup(5, "Sales", "L", T.plusSeconds(14400), 8, 2 * GIB, GIB / 2, "QAT_DEFLATE", "UNC", "1130", "1140", "1130",
                        "1005", null));
        io.qatwatch.collector.chain.LogChain merged = new io.qatwatch.collector.chain.LogChain();
        backups.forEach(b -> merged.add(io.qatwatch.collector.chain.ChainBackup.of("sql01/PROD", b)));
        RestorePlan plan = RestorePlanner.plan(List.of(merged)).orElseThrow();
        assertThat(plan.logs()).as("two runs: one per algorithm").hasSize(2);

        RestoreEstimate e = RestoreEstimate.of("sql01", plan, backups, RestoreSpeeds.NONE, null);
        assertThat(e.parts()).extracting(RestoreEstimate.Part::kind, RestoreEstimate.Part::algorithm,
                RestoreEstimate.Part::backups, RestoreEstimate.Part::dataBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("FULL", "QAT_DEFLATE", 1, 100 * GIB),
                        org.assertj.core.groups.Tuple.tuple("LOG", "MS_XPRESS", 2, 2 * GIB),
                        org.assertj.core.groups.Tuple.tuple("LOG", "QAT_DEFLATE", 1, 2 * GIB));
        assertThat(e.parts().get(1).mbps()).as("MS_XPRESS logs at MS_XPRESS log backups' speed").isEqualTo(102.4);
        assertThat(e.parts().get(2).mbps()).as("the QAT_DEFLATE log at its own: 2 GiB in 8 s").isEqualTo(256.0);
        assertThat(e.parts().get(2).basis()).isEqualTo(RestoreEstimate.BACKUP_SPEED);
        assertThat(e.bytes()).isEqualTo(40 * GIB + 3 * (GIB / 2));
        assertThat(e.summary()).contains("2 log backups 2.0 GiB MS_XPRESS from UNC").contains("1 log backup 2.0 GiB QAT_DEFLATE from UNC");
    }
}
