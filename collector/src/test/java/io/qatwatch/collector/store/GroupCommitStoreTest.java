package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** Group commit on both stores: one transaction for a batch, one report's failure is its own. */
class GroupCommitStoreTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:01Z");

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aBatchStoresEachReportOnceAndABadReportFailsAlone(Database.Kind kind, @TempDir Path dir) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport good = GoldenReports.complete();
            AgentReport other = withId(good, "6a1d3b2f-0000-4000-8000-000000000002", 41231);
            AgentReport broken = withNullInstanceName(withId(good, "6a1d3b2f-0000-4000-8000-000000000003", 41232));

            List<Outcome> outcomes = store.storeAll(List.of(
                    new Incoming("sql01", good, AT),
                    new Incoming("sql01", broken, AT),
                    new Incoming("sql01", good, AT),
                    new Incoming("sql01", other, AT)));

            assertThat(outcomes.get(0).stored().duplicate()).isFalse();
            assertThat(outcomes.get(1).error()).isNotNull();
            assertThat(outcomes.get(2).stored().duplicate()).as("same report id later in the batch").isTrue();
            assertThat(outcomes.get(3).stored().newBackups()).isEqualTo(1);
            assertThat(count(db, "SELECT COUNT(*) FROM reports")).isEqualTo(2);
            assertThat(count(db, "SELECT COUNT(*) FROM backups")).as("the broken report's rows were rolled back").isEqualTo(2);
        }
    }

    private static AgentReport withId(AgentReport r, String id, long backupSetId) {
        SqlInstanceSnapshot s = r.instances().get(0);
        BackupRecord b = s.backups().get(0);
        BackupRecord moved = new BackupRecord(backupSetId, b.databaseName(), b.databaseGuid(), b.type(), b.copyOnly(),
                b.startedAt(), b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(),
                b.compressionAlgorithm(), b.hasChecksums(), b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(),
                b.deviceType(), b.target());
        return new AgentReport(r.schemaVersion(), id, r.createdAt(), r.agent(), r.host(), r.qat(), r.licence(),
                List.of(withBackups(s, List.of(moved))), r.probes());
    }

    /** A report the validator would refuse; here it makes the store's NOT NULL on instances.name fail. */
    private static AgentReport withNullInstanceName(AgentReport r) {
        SqlInstanceSnapshot s = r.instances().get(0);
        SqlInstanceSnapshot unnamed = new SqlInstanceSnapshot(null, s.collectedAt(), s.server(), s.configuration(),
                s.accelerators(), s.databases(), s.backups(), s.runningBackups(), s.certificates(), s.backupHighWaterMark());
        return new AgentReport(r.schemaVersion(), r.reportId(), r.createdAt(), r.agent(), r.host(), r.qat(), r.licence(),
                List.of(unnamed), r.probes());
    }

    private static SqlInstanceSnapshot withBackups(SqlInstanceSnapshot s, List<BackupRecord> backups) {
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(), s.accelerators(),
                s.databases(), backups, s.runningBackups(), s.certificates(), s.backupHighWaterMark());
    }

    private static int count(Database db, String sql) throws Exception {
        return (int) StoreKinds.scalar(db, sql);
    }
}
