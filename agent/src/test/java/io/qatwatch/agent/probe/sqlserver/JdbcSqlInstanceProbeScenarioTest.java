package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.ALL;
import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.CLOCK;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each captured-looking SQL Server scenario through the real mssql-jdbc driver and the TDS test server; the
 * whole result is compared with a golden file (regenerate on purpose with {@code -Dqatwatch.golden.update=true}).
 */
class JdbcSqlInstanceProbeScenarioTest {

    private static final Path GOLDEN = Path.of("src/test/resources/sqlserver/golden");

    @TempDir
    Path dir;

    private record Run(SqlProbeResult result, List<String> batches) {
    }

    private Run run(String scenario) {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario(scenario))) {
            SqlProbeResult result = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), CLOCK).probe(ALL, null);
            return new Run(result, server.batches());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sql2019-standard", "sql2022-standard-software", "sql2022-enterprise-vm-no-qat",
            "sql2022-enterprise-hardware", "sql2025-zstd", "sql2022-ag-secondary", "sql2022-no-view-server-state",
            "sql2022-ola-backup-failed", "sql2022-maintenance-plan", "sql2022-express-no-agent", "sql2025-commandlog-zstd",
            "sql2022-indexoptimize-overlap", "sql2022-url-stripes", "sql2022-restores-from-other-server", "sql2022-log-chains",
            "sql2022-chain-ag-primary", "sql2022-chain-ag-secondary", "sql2022-vss-snapshot-sizes",
            "sql2022-differential-base-guid"})
    void scenarioMatchesItsGoldenFileAndPassesTheCollectorsValidation(String scenario) throws Exception {
        Run run = run(scenario);
        SqlProbeResult result = run.result();

        ReportValidator.check(new AgentReport(AgentReport.SCHEMA_VERSION, "r-" + scenario, CLOCK.instant(),
                new AgentInfo("test", "0", 1, 0, 0, 0), null, null, null, List.of(result.snapshot()), result.probes()), CLOCK.instant());

        Map<String, Object> actual = new LinkedHashMap<>();
        actual.put("snapshot", result.snapshot());
        actual.put("moreBackupsPending", result.moreBackupsPending());
        actual.put("probes", result.probes().stream().map(p -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("ok", p.ok());
            m.put("error", p.error());
            m.put("hint", p.hint());
            return m;
        }).toList());
        actual.put("queriesSent", run.batches().stream().map(JdbcSqlInstanceProbeScenarioTest::queryName).toList());
        String json = ReportJson.toPrettyString(actual).replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:PORT") + "\n";
        Path golden = GOLDEN.resolve(scenario + ".json");
        if (Boolean.getBoolean("qatwatch.golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, json, StandardCharsets.UTF_8);
        }
        ObjectMapper mapper = new ObjectMapper();
        assertThat(mapper.readTree(json)).as("golden %s (regenerate with -Dqatwatch.golden.update=true)", golden)
                .isEqualTo(mapper.readTree(Files.readString(golden)));
    }

    private static String queryName(String batch) {
        String first = batch.lines().findFirst().orElse("");
        return first.startsWith("-- qatwatch query: ") ? first.substring("-- qatwatch query: ".length()) : first;
    }

    @Test
    void sql2019AsksNothingItDoesNotHaveAndInfersMsXpressFromSizes() {
        Run run = run("sql2019-standard");
        SqlInstanceSnapshot s = run.result().snapshot();
        assertThat(run.batches()).noneMatch(b -> b.contains("accelerator-status.sql") || b.contains("backup-history-2022.sql"));
        assertThat(s.accelerators()).isEmpty();
        assertThat(s.server().majorVersion()).isEqualTo(15);
        assertThat(s.configuration()).contains(new SqlInstanceSnapshot.ConfigOption("backup checksum default", 1, 0));
        BackupRecord compressed = backup(s, 9101);
        assertThat(compressed.compressionAlgorithm()).isEqualTo("MS_XPRESS");
        assertThat(compressed.startedAt()).isEqualTo(Instant.parse("2026-11-28T22:00:02Z"));
        assertThat(backup(s, 9103).compressionAlgorithm()).as("not compressed").isNull();
        BackupRecord unknownZone = backup(s, 9104);
        assertThat(unknownZone.timeZoneKnown()).isFalse();
        assertThat(unknownZone.startedAt()).as("host zone Europe/Berlin stands in").isEqualTo(Instant.parse("2026-11-29T22:00:00Z"));
        assertThat(backup(s, 9105).target()).isEqualTo("VIRTUAL_DEVICE");
        assertThat(backup(s, 9103).target()).isEqualTo("UNC");
        assertThat(s.databases()).filteredOn(d -> d.name().equals("HR")).singleElement()
                .satisfies(d -> assertThat(d.encryptionState()).isEqualTo("ENCRYPTED"));
        assertThat(run.result().probes()).allMatch(ProbeStatus::ok);
    }

    @Test
    void aLoginWithoutViewServerStateGetsTheRestAndAGrantPerMissingPiece() {
        SqlProbeResult r = run("sql2022-no-view-server-state").result();
        assertThat(failed(r)).containsOnlyKeys("sqlserver:PROD/accelerator-status", "sqlserver:PROD/database-encryption",
                "sqlserver:PROD/running-backups");
        assertThat(failed(r).get("sqlserver:PROD/accelerator-status").hint())
                .startsWith("USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [qatwatch_monitor];");
        assertThat(failed(r).get("sqlserver:PROD/database-encryption").hint()).contains("GRANT VIEW SERVER SECURITY STATE");
        assertThat(failed(r).get("sqlserver:PROD/running-backups").error()).contains("only its own requests");
        assertThat(r.snapshot().backups()).extracting(BackupRecord::backupSetId).containsExactly(812L);
        assertThat(r.snapshot().accelerators()).isNull();
        assertThat(r.snapshot().runningBackups()).as("unknown, not 'none'").isNull();
        assertThat(r.snapshot().databases()).allSatisfy(d -> assertThat(d.encryptionState()).isNull());
    }

    @Test
    void anAvailabilityGroupSecondaryShowsItsRoleAndPreference() {
        Run run = run("sql2022-ag-secondary");
        assertThat(run.batches()).anyMatch(b -> b.contains("availability-databases.sql"));
        assertThat(run.batches()).as("sys.availability_groups needs VIEW ANY DEFINITION, which the login script does not grant")
                .noneMatch(b -> b.contains("JOIN sys.availability_groups"));
        assertThat(run.result().snapshot().databases()).filteredOn(d -> d.name().equals("Orders")).singleElement().satisfies(d -> {
            assertThat(d.availabilityGroup()).isEqualTo("AG_Orders");
            assertThat(d.availabilityGroupId()).isEqualTo("7d3a9b2c-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
            assertThat(d.replicaRole()).isEqualTo("SECONDARY");
            assertThat(d.preferredBackupReplica()).isTrue();
            // seeded by restore: its own database_guid, the primary's family and group identity
            assertThat(d.groupDatabaseId()).isEqualTo("c0a80164-7e11-4b5e-9d3a-6f2b8c1d4e5f");
            assertThat(d.familyGuid()).isEqualTo("16fd2706-8baf-433b-82eb-8c7fada847da").isNotEqualTo(d.databaseGuid());
        });
        BackupRecord copyOnly = backup(run.result().snapshot(), 3001);
        assertThat(copyOnly.copyOnly()).isTrue();
        assertThat(copyOnly.familyGuid()).isEqualTo("16fd2706-8baf-433b-82eb-8c7fada847da");
        assertThat(copyOnly.startedAt()).as("time_zone -20 is UTC-5").isEqualTo(Instant.parse("2026-11-29T06:00:00Z"));
        assertThat(run.result().probes()).allMatch(ProbeStatus::ok);
    }

    @Test
    void onASecondaryRunningBackupsAreUnknownUnlessTheConnectionDeclaresReadIntent() {
        // sys.dm_exec_requests: on a read-intent-only secondary the access check fails for AG databases without
        // applicationintent=readonly, even with VIEW SERVER STATE; the answer is then empty, not an error.
        SqlInstanceSnapshot plain = run("sql2022-ag-secondary").result().snapshot();
        assertThat(plain.runningBackups()).isEmpty();
        assertThat(plain.runningBackupsHiddenFor()).as("not 'no running backup'").containsExactly("Orders");

        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2022-ag-secondary"))) {
            SqlInstanceSettings readIntent = SqlScenarios.settings(server.jdbcUrl() + ";applicationIntent=ReadOnly", dir, 1000,
                    java.time.Duration.ofSeconds(10));
            SqlInstanceSnapshot s = new JdbcSqlInstanceProbe(readIntent, CLOCK).probe(ALL, null).snapshot();
            assertThat(s.runningBackupsHiddenFor()).isEmpty();
        }
    }

    @Test
    void aDatabaseThatSysDatabasesPutsInAGroupButTheHadrViewsDoNotShowIsAProblemWithTheGrant() {
        // The silent failure of the old query (sys.availability_groups without VIEW ANY DEFINITION: no rows, no error)
        // is checked for the HADR views too: group_database_id (public) says Orders is in a group; the views show none.
        Scenario hidden = SqlScenarios.scenario("sql2022-ag-secondary").answer("availability-databases.sql", TdsResponse.rows(
                List.of(Column.col("database_name", "nvarchar(128)"), Column.col("availability_group_id", "uniqueidentifier"),
                        Column.col("availability_group", "nvarchar(256)"), Column.col("role_desc", "nvarchar(60)"),
                        Column.col("is_preferred_backup_replica", "bit")), List.of()));
        try (TdsTestServer server = TdsTestServer.start(hidden)) {
            SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), CLOCK).probe(ALL, null);
            ProbeStatus problem = failed(r).get("sqlserver:PROD/availability-databases");
            assertThat(problem).isNotNull();
            assertThat(problem.error()).contains("IsHadrEnabled = 1", "Orders", "group_database_id");
            assertThat(problem.hint()).startsWith("USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [qatwatch_monitor];");
            assertThat(r.snapshot().databases()).filteredOn(d -> d.name().equals("Orders")).singleElement().satisfies(d -> {
                assertThat(d.groupDatabaseId()).as("still known from sys.databases").isNotNull();
                assertThat(d.replicaRole()).isNull();
            });
        }
    }

    @Test
    void backupSetsThatARestoreCopiedFromAnotherServerAreNotThisInstancesBackups() {
        // 41231 is SQL02's backup of its own Payments, written into this msdb by a RESTORE; DBA Dash keeps
        // server_name = SERVERPROPERTY('ServerName') only. The mark still passes it, so it is not read again.
        SqlInstanceSnapshot s = run("sql2022-enterprise-hardware").result().snapshot();
        assertThat(s.backups()).extracting(BackupRecord::backupSetId).containsExactly(41229L, 41230L, 41232L);
        assertThat(s.backupHighWaterMark()).isEqualTo(41232L);
    }

    @Test
    void deviceTypesAreMappedAsBackupmediafamilyDocumentsThem() {
        SqlInstanceSnapshot s = run("sql2019-standard").result().snapshot();
        BackupRecord tape = backup(s, 9107);
        assertThat(tape.deviceType()).as("105, a permanent tape device").isEqualTo("TAPE");
        assertThat(tape.target()).as("\\\\.\\Tape0 is not a share").isEqualTo("TAPE");
        BackupRecord permanentDisk = backup(s, 9108);
        assertThat(permanentDisk.deviceType()).as("102, a permanent disk device").isEqualTo("DISK");
        assertThat(permanentDisk.target()).isEqualTo("LOCAL");
        BackupRecord snapshot = backup(s, 9106);
        assertThat(snapshot.snapshot()).isTrue();
        assertThat(snapshot.sizeIsEstimate()).isTrue();
        assertThat(backup(s, 9105).snapshot()).as("a VDI stream backup, not a snapshot").isFalse();
    }

    /**
     * Archive has AUTO_CLOSE on: sys.database_recovery_status is never read ("If the database is not opened, the Database
     * Engine tries to start it"), not even filtered; msdb's backup sets name every database, once; master, model and msdb
     * have no backup yet, so msdb is asked again next cycle and names them no GUID.
     */
    @Test
    void autoCloseDatabasesAreNotWokenAndTheirGuidsComeFromMsdb() {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2019-standard"))) {
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), CLOCK);
            SqlProbeResult first = probe.probe(java.util.EnumSet.of(SqlSection.DATABASES), null);
            SqlProbeResult second = probe.probe(java.util.EnumSet.of(SqlSection.DATABASES), null);
            assertThat(server.batches()).noneMatch(b -> b.contains("JOIN sys.database_recovery_status") || b.contains("database-guids.sql"));
            assertThat(server.batches()).filteredOn(b -> b.contains("FROM msdb.dbo.backupset AS bs")).hasSize(2);
            for (SqlProbeResult r : List.of(first, second)) {
                assertThat(r.probes()).allMatch(ProbeStatus::ok);
                assertThat(r.snapshot().databases()).filteredOn(d -> d.name().equals("Archive")).singleElement().satisfies(d -> {
                    assertThat(d.autoClose()).isTrue();
                    assertThat(d.databaseGuid()).isEqualTo("a3c1e5f7-2b4d-4e6f-8a0c-1e3f5a7b9d2f");
                    assertThat(d.familyGuid()).isEqualTo("a3c1e5f7-2b4d-4e6f-8a0c-1e3f5a7b9d2f");
                });
                assertThat(r.snapshot().databases()).filteredOn(d -> d.name().equals("Sales")).singleElement()
                        .satisfies(d -> assertThat(d.databaseGuid()).isEqualTo("3f2504e0-4f89-11d3-9a0c-0305e82c3301"));
                assertThat(r.snapshot().databases()).filteredOn(d -> d.name().equals("msdb")).singleElement()
                        .satisfies(d -> assertThat(d.databaseGuid()).isNull());
            }
        }
    }

    /** Without an AUTO_CLOSE database the view wakes nothing: it is read once, for what is new. */
    @Test
    void withoutAutoCloseRecoveryStatusIsAskedOnlyForWhatIsNew() {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2022-standard-software"))) {
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), CLOCK);
            probe.probe(java.util.EnumSet.of(SqlSection.DATABASES), null);
            SqlProbeResult second = probe.probe(java.util.EnumSet.of(SqlSection.DATABASES), null);
            assertThat(server.batches()).filteredOn(b -> b.contains("JOIN sys.database_recovery_status")).hasSize(1);
            assertThat(server.batches()).noneMatch(b -> b.contains("guids-from-backups.sql"));
            assertThat(second.snapshot().databases()).filteredOn(d -> !d.name().equals("tempdb")).allSatisfy(d -> assertThat(d.databaseGuid()).isNotNull());
        }
    }

    @Test
    void hardwareModeWithEncryptedBackupsARunningBackupAndCertificates() {
        SqlInstanceSnapshot s = run("sql2022-enterprise-hardware").result().snapshot();
        assertThat(s.accelerators()).singleElement().satisfies(a -> {
            assertThat(a.modeDesc()).isEqualTo("HARDWARE");
            assertThat(a.hardwareDetected()).isTrue();
        });
        BackupRecord full = backup(s, 41229);
        assertThat(full.backupSizeBytes()).isEqualTo(130_738_401_280L);
        assertThat(full.encryptorThumbprint()).isEqualTo("0x8A3F5B2C9D1E4F6A7B8C9D0E1F2A3B4C5D6E7F80");
        assertThat(full.encryptorType()).isEqualTo("CERTIFICATE");
        assertThat(full.target()).isEqualTo("UNC");
        assertThat(s.runningBackups()).singleElement().satisfies(b -> {
            assertThat(b.startedAt()).isEqualTo(Instant.parse("2026-11-30T00:30:00Z"));
            assertThat(b.percentComplete()).isEqualTo(42.5);
            assertThat(b.elapsedSeconds()).isEqualTo(101);
            assertThat(b.estimatedRemainingSeconds()).isEqualTo(136);
        });
        assertThat(s.certificates()).filteredOn(c -> c.name().equals("BackupCert2026")).singleElement()
                .satisfies(c -> assertThat(c.usedForBackupEncryption()).isTrue());
        // sys.dm_database_encryption_keys.encryptor_thumbprint: the certificate whose loss makes every backup of Payments unrestorable
        assertThat(s.databases()).filteredOn(d -> d.name().equals("Payments")).singleElement().satisfies(d -> {
            assertThat(d.encryptionState()).isEqualTo("ENCRYPTED");
            assertThat(d.tdeEncryptorThumbprint()).isEqualTo("0x11223344556677889900AABBCCDDEEFF00112233");
            assertThat(d.tdeEncryptorType()).isEqualTo("CERTIFICATE");
        });
        assertThat(s.asymmetricKeys()).singleElement().satisfies(k -> {
            assertThat(k.thumbprint()).isEqualTo(backup(s, 41232).encryptorThumbprint());
            assertThat(k.providerType()).isEqualTo("CRYPTOGRAPHIC PROVIDER");
            assertThat(k.usedForBackupEncryption()).isTrue();
        });
        assertThat(backup(s, 41232).encryptorType()).isEqualTo("ASYMMETRIC KEY");
    }

    @Test
    void sql2025ReadsZstdBackupsToUrls() {
        SqlInstanceSnapshot s = run("sql2025-zstd").result().snapshot();
        assertThat(s.backups()).extracting(BackupRecord::compressionAlgorithm).containsExactly("MS_XPRESS", "ZSTD", "ZSTD");
        assertThat(s.backups()).extracting(BackupRecord::target).containsOnly("URL");
        assertThat(s.configuration()).as("ZSTD cannot be the default (Msg 15129): named per BACKUP")
                .contains(new SqlInstanceSnapshot.ConfigOption("backup compression algorithm", 1, 1));
    }

    private static BackupRecord backup(SqlInstanceSnapshot s, long id) {
        return s.backups().stream().filter(b -> b.backupSetId() == id).findFirst().orElseThrow();
    }

    private static Map<String, ProbeStatus> failed(SqlProbeResult r) {
        Map<String, ProbeStatus> m = new LinkedHashMap<>();
        r.probes().stream().filter(p -> !p.ok()).forEach(p -> m.put(p.name(), p));
        return m;
    }

    /**
     * backupset's numeric(25,0) LSNs come through mssql-jdbc as decimals and leave the agent as their exact digits, the
     * largest value included; the differential's base, the recovery model, begins_log_chain and the device names as read.
     */
    /**
     * backupset.backup_set_uuid, which a differential's differential_base_guid names, and sys.databases.create_date arrive
     * (issue 31): the GUIDs lower-case as the agent sends every GUID, create_date read in the host's zone (Europe/Berlin,
     * UTC+1 in November) and sent in UTC.
     */
    @Test
    void backupSetUuidAndCreateDateArrive() {
        SqlProbeResult result = run("sql2022-differential-base-guid").result();
        List<BackupRecord> backups = result.snapshot().backups();
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Refunds"))
                .extracting(BackupRecord::type, BackupRecord::backupSetUuid, BackupRecord::differentialBaseGuid)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("D", "0a7d1f00-0006-4d00-8000-000000000001", null),
                        org.assertj.core.groups.Tuple.tuple("I", "0a7d1f00-0006-4d00-8000-000000000002",
                                "0a7d1f00-0006-4d00-8000-0000000000ff"));
        assertThat(result.snapshot().databases()).filteredOn(d -> d.name().equals("Intake")).singleElement()
                .satisfies(d -> assertThat(d.createdAt()).isEqualTo(java.time.Instant.parse("2026-11-30T03:30:00Z")));
        assertThat(run("sql2022-log-chains").result().snapshot().backups()).as("a capture without the column")
                .allSatisfy(b -> assertThat(b.backupSetUuid()).isNull());
    }

    @Test
    void logChainColumnsArriveExactlyUpToTheLargestNumeric25() {
        List<BackupRecord> backups = run("sql2022-log-chains").result().snapshot().backups();
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Archive") && b.type().equals("L"))
                .extracting(BackupRecord::lastLsn).containsExactly("9999999999999999999995000", "9999999999999999999999999");
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Hr") && "NUL".equals(b.physicalDeviceName()))
                .singleElement().satisfies(b -> assertThat(b.target()).isEqualTo("NUL"));
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Crm") && "VIRTUAL_DEVICE".equals(b.deviceType()))
                .singleElement().satisfies(b -> assertThat(b.physicalDeviceName()).isEqualTo("{4F1A8D2C-3B6E-4C1D-9A7F-2E5B8C0D1F3A}1"));
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Stock"))
                .extracting(BackupRecord::type, BackupRecord::recoveryModel, BackupRecord::beginsLogChain)
                .contains(org.assertj.core.groups.Tuple.tuple("I", "SIMPLE", false),
                        org.assertj.core.groups.Tuple.tuple("L", "FULL", true));
        assertThat(backups).filteredOn(b -> b.databaseName().equals("Ledger") && b.type().equals("I")).singleElement()
                .satisfies(b -> {
                    assertThat(b.differentialBaseLsn()).isEqualTo("96000000010400001");
                    assertThat(b.checkpointLsn()).isEqualTo("96000000091200001");
                    assertThat(b.databaseBackupLsn()).isEqualTo("96000000010400001");
                    assertThat(b.hasIncompleteMetadata()).isFalse();
                });
    }
}
