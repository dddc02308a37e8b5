package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU of backups and restores across polls (issue 30), through mssql-jdbc and the TDS test server: the fixture
 * {@code sql2022-cpu-polls} answers each poll as the server would at that minute, and the host's process is a script of
 * the CPU a {@code sqlservr} process would show at those minutes (the OSHI reader itself is tested on this JVM).
 */
class RequestCpuScenarioTest {

    private static final Instant FIRST_POLL = Instant.parse("2026-11-30T01:00:00Z");
    /** The scripted sqlservr: started a day before the first poll, its CPU (ms) at each poll minute. */
    private static final Instant PROCESS_STARTED = Instant.parse("2026-11-29T00:00:00Z");
    private static final long[] PROCESS_CPU = {100_000, 130_000, 150_000, 151_000, 160_000, 185_000, 210_000, 222_000, 223_000,
            224_000};

    @TempDir
    Path dir;

    /** The host's sqlservr as a script by minute; counts how often the agent read it. */
    private static final class ScriptedProcess implements SqlServerProcess {
        final ReadClock clock;
        final List<Instant> readAt = new ArrayList<>();

        ScriptedProcess(ReadClock clock) {
            this.clock = clock;
        }

        @Override
        public Sample sample(String machineName, long processId) {
            assertThat(machineName).isEqualTo("SQL01");
            assertThat(processId).as("SERVERPROPERTY('ProcessID')").isEqualTo(4242);
            readAt.add(clock.now);
            int minute = (int) Duration.between(FIRST_POLL, clock.now).toMinutes();
            return new Sample(processId, PROCESS_CPU[minute], PROCESS_STARTED, null);
        }
    }

    private record Polls(List<SqlInstanceSnapshot> snapshots, List<List<ProbeStatus>> probes, ScriptedProcess process,
                         List<String> batches) {

        List<BackupRecord> backups() {
            return snapshots.stream().flatMap(s -> s.backups() == null ? Stream.empty() : s.backups().stream()).toList();
        }

        BackupRecord backup(long id) {
            return backups().stream().filter(b -> b.backupSetId() == id).findFirst().orElseThrow();
        }

        List<ObservedRestore> restores() {
            return snapshots.stream().flatMap(s -> s.observedRestores() == null ? Stream.empty() : s.observedRestores().stream())
                    .toList();
        }
    }

    private Polls poll(Scenario scenario, int polls) {
        ReadClock clock = new ReadClock(FIRST_POLL);
        ScriptedProcess process = new ScriptedProcess(clock);
        List<SqlInstanceSnapshot> snapshots = new ArrayList<>();
        List<List<ProbeStatus>> probes = new ArrayList<>();
        try (TdsTestServer server = TdsTestServer.start(scenario)) {
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), clock, process);
            for (int i = 0; i < polls; i++) {
                clock.now = FIRST_POLL.plus(Duration.ofMinutes(i));
                SqlProbeResult r = probe.probe(SqlScenarios.ALL, null);
                snapshots.add(r.snapshot());
                probes.add(r.probes());
            }
            return new Polls(snapshots, probes, process, server.batches());
        }
    }

    @Test
    void aFullBackupsCpuTimeGrowsOverThreePollsAndTheLastSampleIsAttachedToItsBackupSet() {
        Polls p = poll(SqlScenarios.scenario("sql2022-cpu-polls"), 10);

        assertThat(p.snapshots().get(5).runningBackups()).singleElement().satisfies(r -> {
            assertThat(r.command()).isEqualTo("BACKUP DATABASE");
            assertThat(r.requestCpuMs()).isEqualTo(12_000);
            assertThat(r.sessionCpuMs()).isEqualTo(12_100);
        });
        BackupRecord full = p.backup(501);
        assertThat(full.mediaFamilyCount()).as("striped over 4 files, one request").isEqualTo(4);
        BackupCpu cpu = full.cpu();
        assertThat(cpu.requestCpuMs()).as("cpu_time at the last poll that saw it").isEqualTo(20_000);
        assertThat(cpu.sessionCpuMs()).as("session growth from first to last poll").isEqualTo(16_000);
        assertThat(cpu.samples()).isEqualTo(3);
        assertThat(cpu.firstSampleAt()).isEqualTo(Instant.parse("2026-11-30T01:04:00Z"));
        assertThat(cpu.lastSampleAt()).isEqualTo(Instant.parse("2026-11-30T01:06:00Z"));
        // Host: 160,000 ms at the first poll, 222,000 at the closing poll after the backup ended, less the idle rate measured
        // between the two quiet polls after the restore (1,000 ms a minute) over those 3 minutes.
        assertThat(cpu.processCpuMs()).isEqualTo(62_000 - 3_000);
        assertThat(cpu.processSamples()).isEqualTo(4);
        assertThat(cpu.processReliable()).isTrue();
        assertThat(cpu.processNote()).isNull();
    }

    @Test
    void aBackupThatStartedAndEndedBetweenTwoPollsHasNoCpu() {
        Polls p = poll(SqlScenarios.scenario("sql2022-cpu-polls"), 10);

        assertThat(p.backup(502).cpu()).as("never seen running").isNull();
        assertThat(p.backups()).extracting(BackupRecord::backupSetId).containsExactly(500L, 501L, 502L);
    }

    @Test
    void aRestoreIsHandedOnWhenItEndsAndOverlapMakesTheHostFigureUnreliable() {
        Polls p = poll(SqlScenarios.scenario("sql2022-cpu-polls"), 10);

        assertThat(p.snapshots().get(1).runningBackups()).as("restores are not running backups")
                .extracting(SqlInstanceSnapshot.RunningBackup::command).containsExactly("BACKUP LOG");
        assertThat(p.snapshots().get(2).observedRestores()).singleElement().satisfies(r -> {
            assertThat(r.databaseName()).isEqualTo("SalesCopy");
            assertThat(r.command()).isEqualTo("RESTORE DATABASE");
            assertThat(r.startedAt()).isEqualTo(Instant.parse("2026-11-30T00:59:30Z"));
            assertThat(r.lastSeenAt()).isEqualTo(Instant.parse("2026-11-30T01:01:00Z"));
            assertThat(r.elapsedSeconds()).isEqualTo(90);
            assertThat(r.percentComplete()).isCloseTo(60.0, within(0.01));
            assertThat(r.cpu().requestCpuMs()).isEqualTo(9_000);
            assertThat(r.cpu().sessionCpuMs()).isEqualTo(7_000);
            assertThat(r.cpu().processReliable()).as("a log backup of Orders ran beside it").isFalse();
            assertThat(r.cpu().processNote()).contains("BACKUP LOG of Orders");
        });
        assertThat(p.restores()).as("handed on once").hasSize(1);
        BackupCpu log = p.backup(500).cpu();
        assertThat(log.samples()).isEqualTo(1);
        assertThat(log.requestCpuMs()).isEqualTo(300);
        assertThat(log.sessionCpuMs()).as("one sample: no growth to measure").isNull();
        assertThat(log.processReliable()).isFalse();
    }

    @Test
    void theHostIsReadOnlyWhileSomethingRunsAndForTwoPollsAfterAndEachPollIsOneQuery() {
        Polls p = poll(SqlScenarios.scenario("sql2022-cpu-polls"), 10);

        // Polls 0-1 restore, 2-3 closing and idle, 4-6 the full, 7-8 closing and idle, 9 quiet: not read.
        assertThat(p.process().readAt).hasSize(9).doesNotContain(FIRST_POLL.plus(Duration.ofMinutes(9)));
        assertThat(p.batches().stream().filter(b -> b.contains("running-backups.sql"))).as("one DMV query per poll").hasSize(10);
        assertThat(p.probes()).allSatisfy(probes -> assertThat(probes).filteredOn(s -> s.name().endsWith("/running-backups"))
                .singleElement().satisfies(s -> assertThat(s.ok()).isTrue()));
    }

    @Test
    void withoutViewServerStateTheDmvFailsWithMsg300And297AndBackupsComeWithoutCpu() {
        // A real server answers a DMV read without the permission with Msg 300 (level 14), then Msg 297
        // (MicrosoftDocs/sql-docs issue 1452; amachanic/sp_whoisactive#126); the permission is VIEW SERVER PERFORMANCE STATE
        // on 2022 (sys.dm_exec_requests, Permissions).
        Scenario denied = SqlScenarios.scenario("sql2022-cpu-polls").answer("running-backups.sql", new TdsResponse.ServerErrors(List.of(
                new TdsResponse.ServerError(300, 1, 14,
                        "VIEW SERVER PERFORMANCE STATE permission was denied on object 'server', database 'master'."),
                new TdsResponse.ServerError(297, 1, 16, "The user does not have permission to perform this action."))));
        Polls p = poll(denied, 8);

        assertThat(p.backups()).hasSize(3).allSatisfy(b -> assertThat(b.cpu()).isNull());
        assertThat(p.process().readAt).as("nothing seen running: the host is not read").isEmpty();
        ProbeStatus status = p.probes().get(7).stream().filter(s -> s.name().endsWith("/running-backups")).findFirst().orElseThrow();
        assertThat(status.ok()).isFalse();
        assertThat(status.hint()).startsWith("USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [qatwatch_monitor];");
        assertThat(p.snapshots().get(7).runningBackups()).isNull();
        assertThat(p.snapshots().get(7).observedRestores()).isNull();
    }

    @Test
    void aBatchThatBacksUpTwoDatabasesInTurnChargesEachWithItsOwnShare() {
        RequestCpuTracker tracker = new RequestCpuTracker();
        Instant batch = Instant.parse("2026-11-30T01:00:00Z");
        tracker.observe(batch.plusSeconds(60), List.of(sample("Sales", batch, 5_000)), null);
        tracker.observe(batch.plusSeconds(120), List.of(sample("Sales", batch, 9_000)), null);
        tracker.observe(batch.plusSeconds(180), List.of(sample("Orders", batch, 11_000)), null);
        tracker.observe(batch.plusSeconds(240), List.of(sample("Orders", batch, 14_000)), null);
        tracker.observe(batch.plusSeconds(300), List.of(), null);

        List<BackupRecord> read = tracker.attach(List.of(
                backup(1, "Sales", batch.plusSeconds(2), batch.plusSeconds(150)),
                backup(2, "Orders", batch.plusSeconds(151), batch.plusSeconds(260))));
        assertThat(read.get(0).cpu().requestCpuMs()).isEqualTo(9_000);
        assertThat(read.get(1).cpu().requestCpuMs()).as("the batch's cpu_time less what Sales had used").isEqualTo(5_000);
        assertThat(tracker.waiting()).isZero();
    }

    @Test
    void endedBackupsWaitingForTheirRowsAreBoundedInNumberAndTime() {
        RequestCpuTracker tracker = new RequestCpuTracker();
        Instant t = Instant.parse("2026-11-30T01:00:00Z");
        for (int i = 0; i < RequestCpuTracker.MAX_ENDED + 10; i++) {
            tracker.observe(t, List.of(new RequestCpuTracker.RequestSample(i % 30000, "BACKUP LOG", "db" + i, t, 50, 1, 10L, 10L)), null);
            t = t.plusSeconds(60);
        }
        tracker.observe(t, List.of(), null);
        assertThat(tracker.waiting()).isEqualTo(RequestCpuTracker.MAX_ENDED);
        tracker.observe(t.plus(RequestCpuTracker.KEEP).plusSeconds(1), List.of(), null);
        assertThat(tracker.waiting()).isZero();
    }

    private static RequestCpuTracker.RequestSample sample(String db, Instant batch, long cpu) {
        return new RequestCpuTracker.RequestSample(55, "BACKUP DATABASE", db, batch, 50, 60, cpu, cpu);
    }

    private static BackupRecord backup(long id, String db, Instant start, Instant finish) {
        return new BackupRecord(id, db, null, "D", false, start, finish, true, 1L << 30, null, null, true, "NO_Encryption", null, null,
                "DISK", "LOCAL", null, false, 1);
    }
}
