package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report store's contract on both stores, a real SQLite file and a real PostgreSQL: migrations, idempotency,
 * AG replicas, change history, retention.
 */
class ReportStoreTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void migrationsRunOnceAndAFutureSchemaIsRefused(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            new SqlReportStore(db);
            new TokenStore(db);
            assertThat(db.migrate("reports", List.of("SELECT 1"))).as("already at version 1").isEqualTo(1);
            assertThat(scalar(db, "SELECT version FROM schema_versions WHERE component = 'reports'")).isEqualTo(1);
            assertThat(db.migrate("demo", List.of("CREATE TABLE demo (a INTEGER)",
                    "ALTER TABLE demo ADD COLUMN b TEXT;\nCREATE INDEX demo_b ON demo(b)"))).isZero();
            assertThat(db.migrate("demo", List.of("CREATE TABLE demo (a INTEGER)",
                    "ALTER TABLE demo ADD COLUMN b TEXT;\nCREATE INDEX demo_b ON demo(b)"))).isEqualTo(2);
            assertThatThrownBy(() -> db.migrate("demo", List.of("CREATE TABLE demo (a INTEGER)")))
                    .hasMessageContaining("schema version 2, newer than this qatwatch (1)");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aReportIsStoredOnceAndAgReplicasShareTheDatabaseGuid(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport first = TestReports.numbered(1, 3, BASE);
            assertThat(store.store("sql01", first, BASE).newBackups()).isEqualTo(3);
            assertThat(store.store("sql01", first, BASE).duplicate()).isTrue();
            AgentReport sameBackupsNewId = new AgentReport(1, "report-resent-0001", first.createdAt(), first.agent(),
                    null, null, null, first.instances(), first.probes());
            assertThat(store.store("sql01", sameBackupsNewId, BASE).newBackups()).as("keyed by backup_set_id").isZero();
            assertThat(store.store("sql02", TestReports.numbered(2, 2, BASE), BASE).newBackups()).isEqualTo(2);

            String guid = first.instances().get(0).backups().get(0).databaseGuid();
            List<StoredBackup> replicas = new java.util.ArrayList<>(store.backups("sql01", "MSSQLSERVER", BASE.minus(Duration.ofDays(1))));
            assertThat(replicas).hasSize(3);
            replicas.addAll(store.backups("sql02", "MSSQLSERVER", BASE.minus(Duration.ofDays(1))));
            assertThat(replicas).filteredOn(b -> guid.equals(b.backup().databaseGuid()))
                    .extracting(StoredBackup::host).containsOnly("sql01", "sql02");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void configurationChangesAreKeptAsHistory(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport r1 = TestReports.numbered(1, 0, BASE);
            store.store("sql01", r1, BASE);
            SqlInstanceSnapshot s = r1.instances().get(0);
            SqlInstanceSnapshot changed = new SqlInstanceSnapshot(s.name(), s.collectedAt().plusSeconds(600), s.server(),
                    List.of(new ConfigOption("backup compression algorithm", 1, 1)), s.accelerators(), s.databases(),
                    List.of(), s.runningBackups(), s.certificates(), s.backupHighWaterMark());
            store.store("sql01", new AgentReport(1, "report-changed-0001", r1.createdAt().plusSeconds(600), r1.agent(),
                    null, null, null, List.of(changed), r1.probes()), BASE);
            assertThat(scalar(db, "SELECT COUNT(*) FROM instance_changes WHERE section = 'configuration'"))
                    .isGreaterThanOrEqualTo(1);
            assertThat(store.fleet().get(0).instances().get(0).configuration())
                    .containsExactly(new ConfigOption("backup compression algorithm", 1, 1));
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void familyGuidSnapshotAndAsymmetricKeysAreKeptAndAKeyChangeMovesTheSectionCounter(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport golden = io.qatwatch.protocol.GoldenReports.complete();
            SqlInstanceSnapshot s = golden.instances().get(0);
            SqlInstanceSnapshot.BackupRecord b = s.backups().get(0);
            SqlInstanceSnapshot.BackupRecord snapshot = new SqlInstanceSnapshot.BackupRecord(b.backupSetId() + 1, b.databaseName(),
                    b.databaseGuid(), "D", true, b.startedAt(), b.startedAt().plusSeconds(6), true, b.backupSizeBytes(),
                    b.backupSizeBytes(), null, false, "NO_Encryption", null, null, "VIRTUAL_DEVICE", "VIRTUAL_DEVICE",
                    b.familyGuid(), true);
            SqlInstanceSnapshot.AsymmetricKeyInfo key = new SqlInstanceSnapshot.AsymmetricKeyInfo("BackupKeyEkm", "0x5E6F",
                    "CRYPTOGRAPHIC PROVIDER", "NO_PRIVATE_KEY", true);
            SqlInstanceSnapshot withKey = new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(),
                    s.accelerators(), s.databases(), List.of(b, snapshot), s.runningBackups(), s.certificates(),
                    snapshot.backupSetId(), List.of(key), List.of());
            store.store("sql01", new AgentReport(1, "report-fidelity-0001", golden.createdAt(), golden.agent(), null, null, null,
                    List.of(withKey), golden.probes()), BASE);

            assertThat(store.backups("sql01", s.name(), BASE.minus(Duration.ofDays(400))))
                    .as("the alert stage's reader: with issue 31's chain columns, without issue 30's CPU (BackupChainCpuColumnsTest)")
                    .extracting(StoredBackup::backup).containsExactly(lean(b), snapshot);
            assertThat(store.fleet().get(0).instances().get(0).asymmetricKeys()).containsExactly(key);
            assertThat(store.fleet().get(0).instances().get(0).databases()).isEqualTo(s.databases());
            long before = store.fleetHeads().get(0).instances().get(0).sectionsSeq();

            SqlInstanceSnapshot keyGone = new SqlInstanceSnapshot(s.name(), s.collectedAt().plusSeconds(3600), null, null, null,
                    null, null, null, null, null, List.of(), null);
            store.store("sql01", new AgentReport(1, "report-fidelity-0002", golden.createdAt().plusSeconds(3600), golden.agent(),
                    null, null, null, List.of(keyGone), List.of()), BASE.plusSeconds(3600));
            assertThat(store.fleet().get(0).instances().get(0).asymmetricKeys()).isEmpty();
            assertThat(store.fleetHeads().get(0).instances().get(0).sectionsSeq()).as("the rules read the keys").isGreaterThan(before);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void acceleratorStatesAreReadBackFromTheOneInForceAtTheStartOnSoEachQatBackupHasItsMode(Database.Kind kind)
            throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport r1 = TestReports.numbered(1, 0, BASE);
            SqlInstanceSnapshot s = r1.instances().get(0);
            List<String> modes = List.of("HARDWARE", "HARDWARE", "SOFTWARE", "NONE");
            for (int n = 0; n < modes.size(); n++) {
                Instant at = BASE.plus(Duration.ofDays(n));
                SqlInstanceSnapshot state = new SqlInstanceSnapshot(s.name(), at, s.server(), s.configuration(),
                        List.of(new SqlInstanceSnapshot.AcceleratorStatus("QAT", modes.get(n), null, false, null, null)),
                        s.databases(), List.of(), s.runningBackups(), s.certificates(), s.backupHighWaterMark());
                store.store("sql01", new AgentReport(1, "report-accel-000" + n, at, r1.agent(), null, null, null,
                        List.of(state), r1.probes()), at);
            }
            List<AcceleratorChange> all = store.acceleratorChanges("sql01", s.name(), BASE.minus(Duration.ofDays(1)));
            assertThat(all).extracting(a -> a.accelerators().get(0).modeDesc()).as("a repeated state is no change")
                    .containsExactly("HARDWARE", "SOFTWARE", "NONE");
            List<AcceleratorChange> since = store.acceleratorChanges("sql01", s.name(), BASE.plus(Duration.ofHours(60)));
            assertThat(since).extracting(AcceleratorChange::at, a -> a.accelerators().get(0).modeDesc())
                    .as("the state in force at the start, then the changes after it").containsExactly(
                            org.assertj.core.groups.Tuple.tuple(BASE.plus(Duration.ofDays(2)), "SOFTWARE"),
                            org.assertj.core.groups.Tuple.tuple(BASE.plus(Duration.ofDays(3)), "NONE"));
            assertThat(store.acceleratorChanges("sql01", "OTHER", BASE)).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void retentionPrunesOldBackupsAndReportIds(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql01", TestReports.numbered(1, 2, BASE), BASE);
            store.store("sql01", TestReports.numbered(2, 2, BASE.plus(Duration.ofDays(500))), BASE.plus(Duration.ofDays(500)));
            Instant now = BASE.plus(Duration.ofDays(501));
            assertThat(store.prune(now.minus(Duration.ofDays(400)), now.minus(Duration.ofDays(30)))).isEqualTo(3);
            assertThat(scalar(db, "SELECT COUNT(*) FROM backups")).isEqualTo(2);
            assertThat(scalar(db, "SELECT COUNT(*) FROM reports")).isEqualTo(1);
        }
    }

    /** One number a query returns. */
    static long scalar(Database db, String sql) throws Exception {
        return StoreKinds.scalar(db, sql);
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void tagsAndTheAcceleratorHistoryAreKeptAndAChangeOfTagsMovesTheHostsCounter(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            var hw = new SqlInstanceSnapshot.AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", true, "1.9", "2.5");
            var sw = new SqlInstanceSnapshot.AcceleratorStatus("QAT", "SOFTWARE", "SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND",
                    false, "1.9", "2.5");
            java.util.Map<String, String> prod = java.util.Map.of("env", "prod");
            store.store("sql01", TestReports.tagged(TestReports.accelerator(1, BASE, hw, null), "report-tags-0001", prod), BASE);
            long before = store.fleetHeads().get(0).sectionsSeq();
            store.store("sql01", TestReports.tagged(TestReports.accelerator(2, BASE.plusSeconds(300), hw, null),
                    "report-tags-0002", prod), BASE.plusSeconds(300));
            assertThat(store.fleetHeads().get(0).sectionsSeq()).as("same tags, same facts").isEqualTo(before);
            store.store("sql01", TestReports.tagged(TestReports.accelerator(3, BASE.plusSeconds(600), sw, null),
                    "report-tags-0003", java.util.Map.of("env", "test")), BASE.plusSeconds(600));
            assertThat(store.fleetHeads().get(0).sectionsSeq()).as("the tags changed").isGreaterThan(before);
            assertThat(store.fleetRow("sql01").orElseThrow().agent().tags()).isEqualTo(java.util.Map.of("env", "test"));

            assertThat(store.acceleratorChanges("sql01", "MSSQLSERVER", BASE.plusSeconds(60)))
                    .as("the change in force at the start, then the later ones")
                    .extracting(c -> c.at() + " " + c.accelerators().get(0).modeDesc())
                    .containsExactly(BASE + " HARDWARE", BASE.plusSeconds(600) + " SOFTWARE");
            assertThat(store.acceleratorChanges("sql01", "NOPE", BASE)).isEmpty();
        }
    }

    /** {@code b} as the alert stage's reader returns it: no LSNs, recovery model, device name or CPU. */
    /** As the alert stage's reader reads it: everything but the CPU of issue 30. */
    private static SqlInstanceSnapshot.BackupRecord lean(SqlInstanceSnapshot.BackupRecord b) {
        return b.withCpu(null);
    }
}
