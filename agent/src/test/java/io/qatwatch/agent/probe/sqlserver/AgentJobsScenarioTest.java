package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.ALL;
import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.CLOCK;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL Server Agent jobs, job history, Ola Hallengren's CommandLog, restores and striped backups, read through the real
 * mssql-jdbc driver from the TDS test server's scenarios (each fixture's description names its sources).
 */
class AgentJobsScenarioTest {

    private static final Pattern TOP = Pattern.compile("SELECT TOP \\((\\d+)\\)");
    private static final Pattern ABOVE = Pattern.compile("h\\.instance_id > (\\d+)");

    @TempDir
    java.nio.file.Path dir;

    private record Run(SqlProbeResult result, List<String> batches) {
        SqlInstanceSnapshot snapshot() {
            return result.snapshot();
        }
    }

    private Run run(Scenario scenario, SqlInstanceSettings settings, HistoryMarks marks) {
        try (TdsTestServer server = TdsTestServer.start(scenario)) {
            SqlInstanceSettings s = settings == null ? SqlScenarios.settings(server, dir, 1000) : withUrl(settings, server.jdbcUrl());
            SqlProbeResult result = new JdbcSqlInstanceProbe(s, CLOCK).probeAfter(ALL, marks);
            return new Run(result, server.batches());
        }
    }

    private Run run(String scenario) {
        return run(SqlScenarios.scenario(scenario), null, HistoryMarks.NONE);
    }

    private static SqlInstanceSettings withUrl(SqlInstanceSettings s, String url) {
        return new SqlInstanceSettings(s.name(), url, s.user(), s.passwordFile(), s.passwordEnv(), s.trustServerCertificate(),
                s.loginTimeout(), s.queryTimeout(), s.backupPageSize(), s.commandLogDatabase());
    }

    @Test
    void aFailedOlaBackupStepCarriesTheMessageSqlServerAgentLoggedAndTheJobsPlan() {
        Run run = run("sql2022-ola-backup-failed");
        SqlInstanceSnapshot s = run.snapshot();
        assertThat(s.jobsStatus()).isEqualTo("AVAILABLE");
        AgentJob full = job(s, "DatabaseBackup - USER_DATABASES - FULL");
        assertThat(full.kind()).isEqualTo("OLA_HALLENGREN");
        assertThat(full.backupJob()).isTrue();
        assertThat(full.backupTypes()).containsExactly("FULL");
        assertThat(full.databases()).as("USER_DATABASES: all, not a list").isEmpty();
        assertThat(full.schedules()).singleElement().satisfies(sch -> {
            assertThat(sch.activeStartTime()).isEqualTo("01:30:00");
            assertThat(sch.freqType()).isEqualTo(4);
            assertThat(sch.nextRunAt()).as("01:30 CET").isEqualTo(Instant.parse("2026-12-01T00:30:00Z"));
        });
        assertThat(job(s, "DatabaseBackup - USER_DATABASES - LOG").schedules()).singleElement()
                .satisfies(sch -> assertThat(List.of(sch.freqSubdayType(), sch.freqSubdayInterval())).containsExactly(4, 15));
        assertThat(job(s, "IndexOptimize - USER_DATABASES")).satisfies(j -> {
            assertThat(j.backupJob()).isFalse();
            assertThat(j.kind()).isEqualTo("OLA_HALLENGREN");
        });
        assertThat(job(s, "Payments nightly ETL").kind()).isEqualTo("T-SQL");
        assertThat(job(s, "Backup Payments to NUL (throughput test)")).satisfies(j -> {
            assertThat(j.enabled()).isFalse();
            assertThat(j.backupJob()).isTrue();
            assertThat(j.databases()).containsExactly("Payments");
        });

        JobRun failedStep = run(s, 88209);
        assertThat(failedStep.status()).isEqualTo("FAILED");
        assertThat(failedStep.stepId()).isEqualTo(1);
        assertThat(failedStep.jobId()).isEqualTo(full.jobId());
        assertThat(failedStep.startedAt()).as("run_date 20261130, run_time 13000, CET").isEqualTo(Instant.parse("2026-11-30T00:30:00Z"));
        assertThat(failedStep.durationSeconds()).as("run_duration 512 is 5 min 12 s").isEqualTo(312);
        assertThat(failedStep.message()).contains("Operating system error 53(The network path was not found.)",
                "BACKUP DATABASE is terminating abnormally.", "The step failed.");
        assertThat(failedStep.sqlMessageId()).isEqualTo(3013);
        assertThat(failedStep.sqlSeverity()).isEqualTo(16);
        assertThat(run(s, 88210)).satisfies(outcome -> {
            assertThat(outcome.stepId()).isZero();
            assertThat(outcome.status()).isEqualTo("FAILED");
            assertThat(outcome.sqlMessageId()).as("0: no error number").isNull();
        });
        assertThat(run(s, 88142).durationSeconds()).as("3719 is 37 min 19 s").isEqualTo(37 * 60 + 19);
        assertThat(s.jobHistoryHighWaterMark()).isEqualTo(88212L);

        assertThat(s.commandLog()).extracting(CommandLogEntry::id).as("the RESTORE_VERIFYONLY row moves the mark only")
                .containsExactly(120390L, 120394L, 120395L);
        CommandLogEntry failed = s.commandLog().get(1);
        assertThat(failed.algorithm()).isEqualTo("QAT_DEFLATE");
        assertThat(failed.level()).isNull();
        assertThat(failed.errorNumber()).isEqualTo(3013);
        assertThat(failed.startedAt()).isEqualTo(Instant.parse("2026-11-30T00:30:02Z"));
        assertThat(s.commandLogHighWaterMark()).isEqualTo(120395L);
        assertThat(run.batches()).anyMatch(b -> b.contains("FROM [master].dbo.CommandLog AS cl"));
        assertThat(run.result().probes()).allMatch(ProbeStatus::ok);
    }

    @Test
    void aMaintenancePlanSubplanIsABackupJobWithItsWeeklyScheduleRaw() {
        SqlInstanceSnapshot s = run("sql2022-maintenance-plan").snapshot();
        AgentJob full = job(s, "Nightly Backup.Subplan_1");
        assertThat(full.kind()).isEqualTo("MAINTENANCE_PLAN");
        assertThat(full.backupJob()).isTrue();
        assertThat(full.backupTypes()).as("the plan's tasks are in its SSIS package").isEmpty();
        assertThat(full.schedules()).singleElement().satisfies(sch -> {
            assertThat(sch.freqType()).isEqualTo(8);
            assertThat(sch.freqInterval()).as("Monday to Saturday").isEqualTo(126);
            assertThat(sch.activeStartTime()).isEqualTo("01:00:00");
        });
        assertThat(job(s, "Index Maintenance.Subplan_1").backupJob()).isFalse();
        assertThat(run(s, 40512).durationSeconds()).as("4217: 42 min 17 s, dtexec's 2537.2 s").isEqualTo(2537);
        assertThat(s.commandLog()).as("no CommandLog (Msg 208): none, not an error").isEmpty();
        assertThat(s.commandLogHighWaterMark()).isNull();
    }

    @Test
    void expressHasNoSqlServerAgentAndThatIsNotAnError() {
        Run run = run("sql2022-express-no-agent");
        SqlInstanceSnapshot s = run.snapshot();
        assertThat(s.jobsStatus()).isEqualTo("NO_AGENT");
        assertThat(s.jobs()).isNull();
        assertThat(s.jobRuns()).isNull();
        assertThat(run.batches()).noneMatch(b -> b.contains("agent-status.sql") || b.contains("agent-jobs.sql")
                || b.contains("job-history.sql"));
        assertThat(run.result().probes()).allMatch(ProbeStatus::ok);
        assertThat(s.backups()).singleElement().satisfies(b -> assertThat(b.compressionAlgorithm()).isNull());
    }

    @Test
    void agentXpsOffMeansNoAgentToo() {
        // Linux without mssql-conf set sqlagent.enabled true, or the Agent service stopped: 'Agent XPs' is 0
        Scenario linux = SqlScenarios.scenario("sql2022-ola-backup-failed").answer("agent-status.sql",
                TdsResponse.rows(List.of(Column.col("engine_edition", "int"), Column.col("agent_xps", "int")), List.of(List.of(3, 0))));
        Run run = run(linux, null, HistoryMarks.NONE);
        assertThat(run.snapshot().jobsStatus()).isEqualTo("NO_AGENT");
        assertThat(run.snapshot().jobs()).isNull();
        assertThat(run.batches()).anyMatch(b -> b.contains("agent-status.sql")).noneMatch(b -> b.contains("agent-jobs.sql"));
    }

    @Test
    void aLoginThatMayNotReadTheAgentTablesIsToldWhatToGrant() {
        Scenario denied = SqlScenarios.scenario("sql2022-ola-backup-failed").answer("agent-jobs.sql",
                TdsResponse.error(229, 14, "The SELECT permission was denied on the object 'sysjobs', database 'msdb', schema 'dbo'."));
        Run run = run(denied, null, HistoryMarks.NONE);
        assertThat(run.snapshot().jobsStatus()).isEqualTo("NO_PERMISSION");
        assertThat(run.snapshot().jobs()).isNull();
        assertThat(run.snapshot().jobRuns()).as("not read: unknown, not 'no runs'").isNull();
        ProbeStatus problem = run.result().probes().stream().filter(p -> p.name().equals("sqlserver:PROD/agent-jobs")).findFirst().orElseThrow();
        assertThat(problem.ok()).isFalse();
        assertThat(problem.hint()).startsWith("USE msdb; GRANT SELECT ON dbo.sysjobs TO [qatwatch_monitor];")
                .contains("GRANT SELECT ON dbo.sysjobhistory TO [qatwatch_monitor];", "install/sql/create-monitor-login.sql");
    }

    @Test
    void zstdLevelMediumComesFromTheCommandLogInTheConfiguredDatabase() {
        SqlInstanceSettings dba = new SqlInstanceSettings("PROD", "jdbc:sqlserver://unused", SqlScenarios.USER,
                SqlScenarios.passwordFile(dir), null, false, Duration.ofSeconds(5), Duration.ofSeconds(10), 1000, "DBA");
        Run run = run(SqlScenarios.scenario("sql2025-commandlog-zstd"), dba, HistoryMarks.NONE);
        SqlInstanceSnapshot s = run.snapshot();
        assertThat(run.batches()).anyMatch(b -> b.contains("FROM [DBA].dbo.CommandLog AS cl"));
        assertThat(s.commandLog()).extracting(CommandLogEntry::id).containsExactly(7003L, 7004L, 7005L);
        assertThat(s.commandLog().get(0)).satisfies(e -> {
            assertThat(e.algorithm()).isEqualTo("ZSTD");
            assertThat(e.level()).isEqualTo("MEDIUM");
            assertThat(e.commandType()).isEqualTo("BACKUP_DATABASE");
            assertThat(e.endedAt()).isEqualTo(Instant.parse("2026-11-29T23:36:41Z"));
            assertThat(e.errorNumber()).isZero();
        });
        assertThat(s.commandLog().get(1)).as("ENCRYPTION's ALGORITHM = AES_256 is not a compression")
                .satisfies(e -> assertThat(List.of(e.algorithm(), String.valueOf(e.level()))).containsExactly("ZSTD", "null"));
        assertThat(s.commandLog().get(2)).as("still running").satisfies(e -> {
            assertThat(e.level()).isEqualTo("HIGH");
            assertThat(e.endedAt()).isNull();
            assertThat(e.errorNumber()).isNull();
        });
        assertThat(s.commandLogHighWaterMark()).isEqualTo(7005L);
        assertThat(s.configuration()).contains(new SqlInstanceSnapshot.ConfigOption("backup compression algorithm", 1, 1));
    }

    @Test
    void indexOptimizeOverlapsTheNightlyFullLongerEachNight() {
        SqlInstanceSnapshot s = run("sql2022-indexoptimize-overlap").snapshot();
        String index = job(s, "IndexOptimize - USER_DATABASES").jobId();
        String full = job(s, "DatabaseBackup - SalesDW - FULL").jobId();
        assertThat(job(s, "DatabaseBackup - SalesDW - FULL").databases()).containsExactly("SalesDW");
        List<JobRun> indexRuns = outcomes(s, index);
        List<JobRun> fullRuns = outcomes(s, full);
        assertThat(indexRuns).hasSize(14);
        assertThat(fullRuns).hasSize(14);
        // hand calculation: IndexOptimize starts 23:00 CET and runs (90 + 6n) min + 7n s; the full starts 00:30 CET
        List<Long> overlap = new ArrayList<>();
        for (int n = 0; n < 14; n++) {
            Instant indexEnd = indexRuns.get(n).startedAt().plusSeconds(indexRuns.get(n).durationSeconds());
            overlap.add(Math.max(0, Duration.between(fullRuns.get(n).startedAt(), indexEnd).toSeconds()));
        }
        assertThat(overlap.get(0)).as("2026-11-16: ends as the full starts").isZero();
        assertThat(overlap.get(13)).as("2026-11-29: 168 min 91 s after 23:00 is 01:49:31, 79 min 31 s into the full")
                .isEqualTo(79 * 60 + 31);
        assertThat(indexRuns.get(13).startedAt()).isEqualTo(Instant.parse("2026-11-29T22:00:00Z"));
        assertThat(fullRuns.get(13).startedAt()).isEqualTo(Instant.parse("2026-11-29T23:30:00Z"));
        for (int n = 1; n < 14; n++) {
            assertThat(overlap.get(n)).as("night %d", n).isGreaterThan(overlap.get(n - 1));
        }
        assertThat(s.backups()).hasSize(14).allSatisfy(b -> assertThat(b.mediaFamilyCount()).isEqualTo(1));
    }

    @Test
    void stripedUrlBackupsCountTheirMediaFamilies() {
        SqlInstanceSnapshot s = run("sql2022-url-stripes").snapshot();
        Map<String, List<BackupRecord>> byDatabase = s.backups().stream().collect(Collectors.groupingBy(BackupRecord::databaseName));
        assertThat(byDatabase.get("Orders")).hasSize(14).allSatisfy(b -> {
            assertThat(b.mediaFamilyCount()).isEqualTo(1);
            assertThat(b.deviceType()).isEqualTo("URL");
            assertThat(b.target()).isEqualTo("URL");
        });
        assertThat(byDatabase.get("Ledger")).hasSize(14).allSatisfy(b -> assertThat(b.mediaFamilyCount()).isEqualTo(4));
        BackupRecord lastLedger = byDatabase.get("Ledger").get(13);
        assertThat(lastLedger.compressedSizeBytes() / lastLedger.mediaFamilyCount()).as("369 GB over 4 URLs")
                .isEqualTo(92_250_000_000L);
        assertThat(byDatabase.get("Orders").get(13).compressedSizeBytes()).isEqualTo(86_500_000_000L);
    }

    @Test
    void restoresOfAnotherServersBackupsNameTheServerThatTookThem() {
        SqlInstanceSnapshot s = run("sql2022-restores-from-other-server").snapshot();
        assertThat(s.restores()).extracting(RestoreRecord::restoreHistoryId).as("715 names no destination database")
                .containsExactly(710L, 711L, 712L, 713L, 714L, 716L);
        RestoreRecord full = s.restores().get(2);
        assertThat(full.destinationDatabase()).isEqualTo("Payments_restoretest");
        assertThat(full.sourceServer()).isEqualTo("SQL01\\PROD");
        assertThat(full.sourceDatabase()).isEqualTo("Payments");
        assertThat(full.familyGuid()).isEqualTo("5d41402a-bc4b-4a76-b971-9d911017c592");
        assertThat(full.restoreType()).isEqualTo("D");
        assertThat(full.restoredAt()).as("restore_date local, CET").isEqualTo(Instant.parse("2026-11-30T04:09:51Z"));
        assertThat(full.backupFinishedAt()).as("time_zone 4: UTC+1").isEqualTo(Instant.parse("2026-11-29T00:34:00Z"));
        assertThat(s.restores().get(3).restoreType()).isEqualTo("I");
        assertThat(s.restoreHighWaterMark()).isEqualTo(716L);
        assertThat(s.backups()).as("the restored sets are SQL01\\PROD's backups, not this server's")
                .allSatisfy(b -> assertThat(b.databaseName()).isEqualTo("ERP"));
        assertThat(s.backupHighWaterMark()).isEqualTo(5506L);
    }

    @Test
    void aHistoryThatStartedAgainBelowTheMarkIsReadFromItsLowestRow() {
        // msdb restored or rebuilt: every instance_id is now below the mark the agent kept; sp_purge_jobhistory alone
        // deletes old rows and keeps the identity, so rows above the mark still come (the second read).
        Scenario s = withPagedJobHistory(SqlScenarios.scenario("sql2022-ola-backup-failed"), Function.identity());
        Run reset = run(s, null, new HistoryMarks(null, 99_000L, null, null));
        assertThat(reset.snapshot().jobRuns()).hasSize(9);
        assertThat(reset.snapshot().jobHistoryHighWaterMark()).isEqualTo(88212L);
        assertThat(reset.batches()).anyMatch(b -> b.contains("job-history-latest.sql"));

        Run purged = run(s, null, new HistoryMarks(null, 88142L, null, null));
        assertThat(purged.snapshot().jobRuns()).extracting(JobRun::instanceId).containsExactly(88209L, 88210L, 88211L, 88212L);
        assertThat(purged.batches()).noneMatch(b -> b.contains("job-history-latest.sql"));

        Run upToDate = run(s, null, new HistoryMarks(null, 88212L, null, null));
        assertThat(upToDate.snapshot().jobRuns()).isEmpty();
        assertThat(upToDate.snapshot().jobHistoryHighWaterMark()).as("the highest row is the mark: nothing to start again")
                .isEqualTo(88212L);
    }

    @Test
    void aQuietMinuteCostsOneQueryPerHistory() {
        // Agent XPs and an absent CommandLog are asked again with the inventory; a history's highest id once an hour
        Scenario s = withPagedJobHistory(SqlScenarios.scenario("sql2022-maintenance-plan"), Function.identity());
        var minute = java.util.EnumSet.of(SqlSection.SERVER, SqlSection.JOB_HISTORY, SqlSection.COMMAND_LOG, SqlSection.RESTORES);
        try (TdsTestServer server = TdsTestServer.start(s)) {
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), CLOCK);
            HistoryMarks upToDate = new HistoryMarks(null, 88212L, null, null);
            probe.probeAfter(ALL, upToDate);
            int before = server.batches().size();
            SqlProbeResult quiet = probe.probeAfter(minute, upToDate);
            List<String> sent = server.batches().subList(before, server.batches().size()).stream()
                    .map(b -> b.lines().findFirst().orElse("")).toList();
            assertThat(sent).containsExactly("-- qatwatch query: server-properties.sql", "-- qatwatch query: job-history.sql",
                    "-- qatwatch query: restore-history.sql");
            assertThat(quiet.snapshot().commandLog()).as("still known to be absent").isEmpty();
            assertThat(quiet.snapshot().jobsStatus()).isEqualTo("AVAILABLE");
        }
    }

    @Test
    void jobHistoryIsReadInPagesAboveTheMark() {
        Scenario s = withPagedJobHistory(SqlScenarios.scenario("sql2022-ola-backup-failed"), Function.identity());
        try (TdsTestServer server = TdsTestServer.start(s)) {
            SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 4), CLOCK)
                    .probeAfter(java.util.EnumSet.of(SqlSection.SERVER, SqlSection.JOB_HISTORY), HistoryMarks.NONE);
            assertThat(r.snapshot().jobRuns()).extracting(JobRun::instanceId).hasSize(9).isSorted();
            assertThat(server.batches()).filteredOn(b -> b.contains("job-history.sql")).hasSize(3);
            assertThat(r.snapshot().jobs()).as("not this cycle's section").isNull();
        }
    }

    @Test
    void aRenamedJobKeepsItsIdAndItsRunsCarryTheNewName() {
        Scenario renamed = withPagedJobHistory(SqlScenarios.scenario("sql2022-ola-backup-failed"),
                name -> name.equals("DatabaseBackup - USER_DATABASES - FULL") ? "Nightly full (Payments)" : name);
        SqlInstanceSnapshot before = run("sql2022-ola-backup-failed").snapshot();
        SqlInstanceSnapshot after = run(renamed, null, HistoryMarks.NONE).snapshot();
        assertThat(run(after, 88209).jobName()).isEqualTo("Nightly full (Payments)");
        assertThat(run(after, 88209).jobId()).isEqualTo(run(before, 88209).jobId());
    }

    /**
     * The fixture's job history answered as SQL Server would: {@code TOP (n)} rows above {@code instance_id > m}, and its
     * highest instance_id; {@code rename} changes job names as sysjobs would show them after a rename.
     */
    private static Scenario withPagedJobHistory(Scenario scenario, Function<String, String> rename) {
        JsonNode history = fixture("sql2022-ola-backup-failed").path("queries").path("job-history.sql");
        List<Column> columns = new ArrayList<>();
        history.path("columns").forEach(c -> columns.add(Column.parse(c.asText())));
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode r : history.path("rows")) {
            List<Object> row = new ArrayList<>();
            r.forEach(v -> row.add(v.isNull() ? null : v.isNumber() ? v.numberValue() : v.asText()));
            row.set(2, rename.apply((String) row.get(2)));
            rows.add(row);
        }
        long highest = rows.stream().mapToLong(r -> ((Number) r.get(0)).longValue()).max().orElseThrow();
        return scenario.answer("job-history.sql", sql -> {
            Matcher top = TOP.matcher(sql);
            Matcher above = ABOVE.matcher(sql);
            int n = top.find() ? Integer.parseInt(top.group(1)) : Integer.MAX_VALUE;
            long after = above.find() ? Long.parseLong(above.group(1)) : 0;
            return TdsResponse.rows(columns, rows.stream().filter(r -> ((Number) r.get(0)).longValue() > after).limit(n).toList());
        }).answer("job-history-latest.sql", TdsResponse.rows(List.of(Column.col("latest_instance_id", "int")), List.of(List.of(highest))));
    }

    private static JsonNode fixture(String name) {
        try (InputStream in = AgentJobsScenarioTest.class.getResourceAsStream("/sqlserver/scenarios/" + name + ".json")) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AgentJob job(SqlInstanceSnapshot s, String name) {
        return s.jobs().stream().filter(j -> j.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no job " + name));
    }

    private static JobRun run(SqlInstanceSnapshot s, long instanceId) {
        return s.jobRuns().stream().filter(r -> r.instanceId() == instanceId).findFirst()
                .orElseThrow(() -> new AssertionError("no job run " + instanceId));
    }

    private static List<JobRun> outcomes(SqlInstanceSnapshot s, String jobId) {
        return s.jobRuns().stream().filter(r -> r.jobId().equals(jobId) && r.stepId() == 0).toList();
    }
}
