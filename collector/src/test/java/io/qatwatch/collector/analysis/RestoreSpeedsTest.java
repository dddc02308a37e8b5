package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Restores.backup;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Restore speed per host, algorithm and target: the median of the restores whose backup is known and whose run the polls
 * mostly saw, with their count; a restore seen at 30 % or of an unknown backup does not count.
 */
class RestoreSpeedsTest {

    private static final Instant T = Instant.parse("2026-11-30T02:00:00Z");
    private static final long GIB = 1L << 30;

    private static RestoreObservation restore(String host, BackupRecord b, long elapsed, double percent) {
        return new RestoreObservation(host, "TEST", "Sales_check", "RESTORE DATABASE", T, T.plusSeconds(elapsed), elapsed,
                percent, null, b == null ? null : new StoredBackup("sql01", "PROD", b));
    }

    @Test
    void theMedianOfTheRestoresThatCountPerHostAlgorithmAndTarget() {
        BackupRecord qatShare = backup(1, "Sales", "D", T.minusSeconds(7200), 600, 100 * GIB, 40 * GIB, "QAT_DEFLATE", "UNC",
                "1", "2", "1", "1", null);
        BackupRecord qatLocal = backup(2, "Sales", "D", T.minusSeconds(7200), 600, 100 * GIB, 40 * GIB, "QAT_DEFLATE", "LOCAL",
                "1", "2", "1", "1", null);
        BackupRecord plain = backup(3, "Sales", "D", T.minusSeconds(7200), 600, 100 * GIB, null, null, "UNC", "1", "2", "1", "1",
                null);
        RestoreSpeeds speeds = RestoreSpeeds.of(List.of(
                restore("sql02", qatShare, 200, 100),       // 512 MB/s
                restore("sql02", qatShare, 400, 100),       // 256 MB/s
                restore("sql02", qatShare, 500, 50),        // seen at half: 1000 s, 102.4 MB/s
                restore("sql02", qatShare, 100, 30),        // seen too little: not counted
                restore("sql02", null, 100, 100),           // backup unknown: not counted
                restore("sql02", qatLocal, 100, 100),       // 1024 MB/s to local disk
                restore("SQL03", plain, 800, 100)));        // 128 MB/s, uncompressed

        assertThat(speeds.of("sql02", "QAT_DEFLATE", "UNC")).hasValue(new RestoreSpeeds.Speed(256.0, 3));
        assertThat(speeds.of("SQL02", "QAT_DEFLATE", null)).as("every target pooled, host names case-insensitive")
                .hasValue(new RestoreSpeeds.Speed((256.0 + 512.0) / 2, 4));
        assertThat(speeds.of("sql03", "NONE", "UNC")).hasValue(new RestoreSpeeds.Speed(128.0, 1));
        assertThat(speeds.of("sql03", "QAT_DEFLATE", "UNC")).isEmpty();
        assertThat(speeds.of("sql01", "QAT_DEFLATE", "UNC")).as("speeds belong to the host that restored").isEmpty();
        assertThat(RestoreSpeeds.NONE.of("sql02", "QAT_DEFLATE", "UNC")).isEmpty();
    }
}
