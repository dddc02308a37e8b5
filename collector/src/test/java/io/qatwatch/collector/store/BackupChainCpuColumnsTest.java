package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A backup's LSNs, recovery model, device name and CPU (issues 30 and 31) are stored and read back as sent, on a real
 * SQLite file and a real PostgreSQL: the LSNs digit for digit at the largest {@code numeric(25,0)} value, wider than
 * any 64-bit integer, and a backup from an older agent (none of them) as nulls.
 */
class BackupChainCpuColumnsTest {

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void lsnsAndCpuRoundTripExactly(Database.Kind kind) throws Exception {
        AgentReport golden = GoldenReports.complete();
        String host = golden.agent().name();
        String instance = golden.instances().get(0).name();
        List<BackupRecord> sent = golden.instances().get(0).backups();
        BackupRecord full = sent.get(0);
        assertThat(new BigInteger(full.lastLsn())).as("the largest numeric(25,0)")
                .isEqualTo(BigInteger.TEN.pow(25).subtract(BigInteger.ONE))
                .isGreaterThan(BigInteger.valueOf(Long.MAX_VALUE));
        assertThat(full.cpu()).isNotNull();
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store(host, golden, Instant.parse("2026-11-30T01:00:00Z"));
            List<BackupRecord> read = store.backupsAfter(0, Instant.EPOCH).backups().stream()
                    .filter(b -> b.instance().equals(instance)).map(StoredBackup::backup).toList();
            assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(StoreKinds.text(db, "SELECT last_lsn FROM backups WHERE backup_set_id = " + full.backupSetId()))
                    .isEqualTo("9999999999999999999999999");
        }
    }
}
