package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store writes of a report's sections and backups, and what a failing report leaves. On SQLite (the only
 * writer of its file) the store writes a section only when its JSON changed: seen by planting a marker in a column
 * behind the store's back; a report that resends the section unchanged leaves the marker, one that changes it (or the
 * first report after the store opens) replaces it. The rest of the contract runs on both stores.
 */
class SectionWritesTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:01Z");
    /** SQLite says "NOT NULL constraint failed", PostgreSQL "violates not-null constraint". */
    private static final String NOT_NULL = "(?is).*not[ -]null.*";

    @TempDir
    Path data;

    @Test
    void anUnchangedSectionIsNotRewrittenAndAChangedOneIs() throws Exception {
        try (Database db = Database.open(data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport first = withId(GoldenReports.complete(), 1);
            store.store("sql01", first, AT);
            plantMarkers(db);

            store.store("sql01", withId(first, 2), AT.plusSeconds(60));
            assertThat(text(db, "SELECT facts_json FROM hosts")).as("unchanged host facts").isEqualTo("marker");
            assertThat(text(db, "SELECT agent_json FROM hosts")).as("unchanged agent").isEqualTo("marker");
            assertThat(text(db, "SELECT databases_json FROM instances")).as("unchanged databases").isEqualTo("marker");
            assertThat(text(db, "SELECT configuration_json FROM instances")).isEqualTo("marker");
            assertThat(number(db, "SELECT last_seen FROM hosts")).as("times still move")
                    .isEqualTo(AT.plusSeconds(60).toEpochMilli());
            assertThat(number(db, "SELECT last_seen FROM instances")).isEqualTo(AT.plusSeconds(60).toEpochMilli());

            List<ConfigOption> newConfiguration = List.of(new ConfigOption("backup compression algorithm", 2, 2));
            AgentReport changed = withInstance(withId(first, 3), withDatabasesAndConfiguration(
                    first.instances().get(0), List.of(), newConfiguration));
            store.store("sql01", changed, AT.plusSeconds(120));
            assertThat(text(db, "SELECT databases_json FROM instances")).as("changed databases are written").isEqualTo("[]");
            assertThat(text(db, "SELECT configuration_json FROM instances")).contains("backup compression algorithm");
            assertThat(text(db, "SELECT old_json FROM instance_changes WHERE section = 'configuration' "
                    + "ORDER BY rowid DESC LIMIT 1")).as("the change history has the value it replaced").isEqualTo("marker");
            assertThat(text(db, "SELECT facts_json FROM hosts")).as("still unchanged").isEqualTo("marker");

            store.store("sql01", withId(changed, 4), AT.plusSeconds(180));
            assertThat(number(db, "SELECT COUNT(*) FROM instance_changes WHERE section = 'configuration'"))
                    .as("an unchanged configuration is no new change").isEqualTo(2);
        }
        try (Database db = Database.open(data)) {
            SqlReportStore reopened = new SqlReportStore(db);
            reopened.store("sql01", withId(GoldenReports.complete(), 5), AT.plusSeconds(240));
            assertThat(text(db, "SELECT facts_json FROM hosts")).as("the first report after opening writes all")
                    .isNotEqualTo("marker");
            assertThat(text(db, "SELECT agent_json FROM hosts")).isNotEqualTo("marker");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aReportThatRollsBackLeavesNothingBehindThatWouldSkipTheNextWrite(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport first = withId(GoldenReports.complete(), 1);
            SqlInstanceSnapshot s = first.instances().get(0);
            List<ConfigOption> newConfiguration = List.of(new ConfigOption("backup compression algorithm", 2, 2));
            SqlInstanceSnapshot reconfigured = withDatabasesAndConfiguration(s, s.databases(), newConfiguration);
            AgentReport failsAfterItsConfiguration = withInstance(withId(first, 2),
                    withBackups(reconfigured, List.of(backupWithoutDatabaseName(s.backups().get(0)))));
            AgentReport sameConfigurationAgain = withInstance(withId(first, 3), withBackups(reconfigured, List.of()));

            List<Outcome> outcomes = store.storeAll(List.of(new Incoming("sql01", first, AT),
                    new Incoming("sql01", failsAfterItsConfiguration, AT), new Incoming("sql01", sameConfigurationAgain, AT)));

            assertThat(outcomes.get(1).error()).as("a backup without a database name violates NOT NULL")
                    .hasMessageMatching(NOT_NULL);
            assertThat(outcomes.get(2).error()).isNull();
            assertThat(store.fleet().get(0).instances().get(0).configuration())
                    .as("written by the third report although the second (rolled back) carried it first")
                    .isEqualTo(newConfiguration);
            assertThat(number(db, "SELECT COUNT(*) FROM instance_changes WHERE section = 'configuration'")).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void onlyADuplicateBackupIsSkippedAnyOtherConstraintFailsTheReport(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport first = TestReports.numbered(1, 2, AT);
            assertThat(store.store("sql01", first, AT).newBackups()).isEqualTo(2);
            AgentReport again = new AgentReport(1, "report-again-0001", first.createdAt(), first.agent(), null, null,
                    null, first.instances(), first.probes());
            assertThat(store.store("sql01", again, AT).newBackups()).as("the same backup_set_ids: skipped").isZero();
            assertThat(number(db, "SELECT backups FROM reports WHERE report_id = 'report-again-0001'"))
                    .as("the report row counts new backups only").isZero();
            assertThat(number(db, "SELECT backups FROM reports WHERE report_id = '" + first.reportId() + "'")).isEqualTo(2);

            SqlInstanceSnapshot s = first.instances().get(0);
            List<BackupRecord> oneBroken = new ArrayList<>(List.of(s.backups().get(0)));
            oneBroken.add(backupWithoutDatabaseName(new BackupRecord(9001, "db9", s.backups().get(0).databaseGuid(),
                    "D", false, AT, AT.plusSeconds(1), true, 1, null, null, false, null, null, null, null, null)));
            AgentReport broken = new AgentReport(1, "report-broken-0001", first.createdAt(), first.agent(), null, null,
                    null, List.of(withBackups(s, oneBroken)), first.probes());
            List<Outcome> outcome = store.storeAll(List.of(new Incoming("sql01", broken, AT)));
            assertThat(outcome.get(0).error()).as("not silently skipped like a duplicate").isNotNull()
                    .hasMessageMatching(NOT_NULL);
            assertThat(number(db, "SELECT COUNT(*) FROM backups")).isEqualTo(2);
            assertThat(number(db, "SELECT COUNT(*) FROM reports WHERE report_id = 'report-broken-0001'"))
                    .as("so the agent can resend it").isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void readsSeeOnlyCommittedDataAndDoNotWaitForTheWriter(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql01", TestReports.numbered(1, 1, AT), AT);
            db.write(writer -> {
                writer.setAutoCommit(false);
                try (Statement s = writer.createStatement()) {
                    s.executeUpdate("INSERT INTO hosts(name, first_seen, last_seen) VALUES ('uncommitted', 1, 1)");
                    assertThat(store.fleet()).extracting(FleetRow::host).containsExactly("sql01");
                } finally {
                    writer.rollback();
                    writer.setAutoCommit(true);
                }
                return null;
            });
        }
    }

    private static void plantMarkers(Database db) throws Exception {
        StoreKinds.update(db, "UPDATE hosts SET facts_json = 'marker', agent_json = 'marker'");
        StoreKinds.update(db, "UPDATE instances SET databases_json = 'marker', configuration_json = 'marker'");
    }

    private static AgentReport withId(AgentReport r, int n) {
        return new AgentReport(r.schemaVersion(), String.format("6a1d3b2f-0000-4000-8000-%012d", n), r.createdAt(),
                r.agent(), r.host(), r.qat(), r.licence(), r.instances(), r.probes());
    }

    private static AgentReport withInstance(AgentReport r, SqlInstanceSnapshot s) {
        return new AgentReport(r.schemaVersion(), r.reportId(), r.createdAt(), r.agent(), r.host(), r.qat(),
                r.licence(), List.of(s), r.probes());
    }

    private static SqlInstanceSnapshot withDatabasesAndConfiguration(SqlInstanceSnapshot s, List<DatabaseInfo> databases,
            List<ConfigOption> configuration) {
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), configuration, s.accelerators(),
                databases, List.of(), s.runningBackups(), s.certificates(), s.backupHighWaterMark());
    }

    private static SqlInstanceSnapshot withBackups(SqlInstanceSnapshot s, List<BackupRecord> backups) {
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(), s.accelerators(),
                s.databases(), backups, s.runningBackups(), s.certificates(), s.backupHighWaterMark());
    }

    /** A backup the validator would refuse; here it makes the store's NOT NULL on database_name fail. */
    private static BackupRecord backupWithoutDatabaseName(BackupRecord b) {
        return new BackupRecord(b.backupSetId() + 77, null, b.databaseGuid(), b.type(), b.copyOnly(), b.startedAt(),
                b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(), b.compressionAlgorithm(),
                b.hasChecksums(), b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(), b.deviceType(), b.target());
    }

    private static String text(Database db, String sql) throws Exception {
        return StoreKinds.text(db, sql);
    }

    private static long number(Database db, String sql) throws Exception {
        return ReportStoreTest.scalar(db, sql);
    }
}
