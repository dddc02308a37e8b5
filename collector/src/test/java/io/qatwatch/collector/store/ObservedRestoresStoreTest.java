package io.qatwatch.collector.store;

import static io.qatwatch.collector.testing.Restores.backup;
import static io.qatwatch.collector.testing.Restores.history;
import static io.qatwatch.collector.testing.Restores.instance;
import static io.qatwatch.collector.testing.Restores.observed;
import static io.qatwatch.collector.testing.Restores.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Observed restores in both stores (issue 30): each stored once however often a report carries it, read back as sent
 * with the backup set it restored (found through msdb's restorehistory on the restoring instance and the backup on the
 * host that took it), and pruned with the backups.
 */
class ObservedRestoresStoreTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:00Z");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aRestoreIsStoredOnceAndReadWithTheBackupItRestored(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            Instant night = AT.minus(Duration.ofHours(6));
            BackupRecord full = backup(7, "SalesDW", "D", night, 3600, 500L << 30, 200L << 30, "QAT_DEFLATE", "UNC",
                    "1000", "2000", "1500", "900", null);
            store.store("sql01", report("sql01", AT, instance("PROD", "SQL01\\PROD", AT, List.of(Histories.db("SalesDW", "FULL")),
                    List.of(full), null, null)), AT);

            Instant restoreStart = AT.minus(Duration.ofHours(2));
            ObservedRestore seen = observed("SalesDW_check", "RESTORE DATABASE", restoreStart, 3000, 96.0);
            ObservedRestore unmatched = observed("Scratch", "RESTORE LOG", restoreStart.plusSeconds(10), 40, 100.0);
            AgentReport test = report("sql02", AT, instance("TEST", "SQL02\\TEST", AT, List.of(), List.of(),
                    List.of(history(3, "SalesDW_check", restoreStart.plusSeconds(1), "D", "SQL01\\PROD", "SalesDW",
                            full.finishedAt(), "D")), List.of(seen, unmatched)));
            // stored as a batch (PostgreSQL's batch writer), then again under another report id: an agent that re-sent them
            assertThat(store.storeAll(List.of(new ReportStore.Incoming("sql02", test, AT)))).singleElement()
                    .satisfies(o -> assertThat(o.error()).isNull());
            store.store("sql02", report("sql02", AT.plusSeconds(60), test.instances().get(0)), AT.plusSeconds(60));
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM observed_restores")).isEqualTo(2);

            List<RestoreObservation> read = store.observedRestores(AT.minus(Duration.ofDays(1)));
            assertThat(read).hasSize(2);
            RestoreObservation r = read.get(0);
            assertThat(r.host()).isEqualTo("sql02");
            assertThat(r.instance()).isEqualTo("TEST");
            assertThat(r.databaseName()).isEqualTo("SalesDW_check");
            assertThat(r.command()).isEqualTo("RESTORE DATABASE");
            assertThat(r.startedAt()).isEqualTo(restoreStart);
            assertThat(r.lastSeenAt()).isEqualTo(seen.lastSeenAt());
            assertThat(r.elapsedSeconds()).isEqualTo(3000);
            assertThat(r.percentComplete()).isEqualTo(96.0);
            assertThat(r.cpu()).isEqualTo(seen.cpu());
            assertThat(r.restoredBackup()).as("the backup set it restored, from the host that took it").isNotNull();
            assertThat(r.restoredBackup().host()).isEqualTo("sql01");
            assertThat(r.restoredBackup().backup()).isEqualTo(full);
            assertThat(r.durationSeconds()).isEqualTo(3125.0);
            assertThat(r.mbps()).isCloseTo(500 * 1024 / 3125.0, org.assertj.core.data.Offset.offset(0.001));

            RestoreObservation other = read.get(1);
            assertThat(other.databaseName()).isEqualTo("Scratch");
            assertThat(other.restoredBackup()).as("no restorehistory row: the backup is unknown").isNull();
            assertThat(other.mbps()).isNull();

            // one instance's, as a report that brings a restorehistory row asks: those last seen up to an hour before it
            assertThat(store.observedRestores("sql02", "TEST", seen.lastSeenAt().plus(Duration.ofHours(1))))
                    .singleElement().satisfies(o -> {
                        assertThat(o.databaseName()).isEqualTo("SalesDW_check");
                        assertThat(o.restoredBackup().backup()).isEqualTo(full);
                    });
            assertThat(store.observedRestores("sql02", "TEST", restoreStart)).hasSize(2);
            assertThat(store.observedRestores("sql01", "TEST", restoreStart)).as("another host's instance").isEmpty();

            store.prune(AT, AT.minus(Duration.ofDays(30)));
            assertThat(store.observedRestores(Instant.EPOCH)).isEmpty();
        }
    }
}
