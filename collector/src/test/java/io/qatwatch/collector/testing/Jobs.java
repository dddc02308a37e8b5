package io.qatwatch.collector.testing;

import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobSchedule;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** SQL Server Agent jobs, their history, CommandLog rows and restores as an agent reports them, for tests. */
public final class Jobs {

    /** Ola Hallengren's message for a failed backup to a share that is gone: what sysjobhistory.message holds. */
    public static final String OLA_FAILURE = "Executed as user: CORP\\sqlagent. Msg 3201, Sev 16, State 1, Line 1 : "
            + "Cannot open backup device '\\\\backup01\\sql\\SalesDW_FULL_20261130_020000.bak'. Operating system error "
            + "53(The network path was not found.). [SQLSTATE 42000] Msg 3013, Sev 16, State 1, Line 1 : BACKUP DATABASE "
            + "is terminating abnormally. [SQLSTATE 42000].  The step failed.";

    private Jobs() {
    }

    /** A daily schedule once a day at {@code time} (server local, HH:mm:ss), next run {@code next} (UTC). */
    public static JobSchedule daily(String time, Instant next) {
        return new JobSchedule(1, "Nightly", true, 4, 1, 1, 0, time, next);
    }

    /** Ola Hallengren's full backup job of {@code databases}. */
    public static AgentJob backupJob(String id, String name, List<String> databases, JobSchedule... schedules) {
        return new AgentJob(id, name, "Database Maintenance", true, true, List.of("FULL"), databases, "OLA_HALLENGREN",
                List.of(schedules));
    }

    /** A job that does not back up (IndexOptimize, CHECKDB). */
    public static AgentJob otherJob(String id, String name) {
        return new AgentJob(id, name, "Database Maintenance", true, false, List.of(), List.of(), "OLA_HALLENGREN", List.of());
    }

    public static JobRun outcome(long instanceId, String jobId, String jobName, String status, Instant start, long seconds,
                                 String message) {
        return new JobRun(instanceId, jobId, jobName, 0, "(Job outcome)", status, start, seconds, message, null, null);
    }

    public static JobRun step(long instanceId, String jobId, String jobName, int step, String stepName, String status,
                              Instant start, long seconds, String message, Integer msg, Integer severity) {
        return new JobRun(instanceId, jobId, jobName, step, stepName, status, start, seconds, message, msg, severity);
    }

    public static RestoreRecord restore(long id, String destination, Instant at, String sourceServer, String sourceDb,
                                        String sourceGuid, String familyGuid) {
        return new RestoreRecord(id, destination, at, "D", sourceServer, sourceDb, sourceGuid, familyGuid, at.minusSeconds(7200), "D");
    }

    public static CommandLogEntry backupCommand(long id, String db, Instant start, String algorithm, String level) {
        String command = "BACKUP DATABASE [" + db + "] TO URL = N's3://s3.example.com/sql/" + db + ".bak' WITH CHECKSUM, "
                + "COMPRESSION (ALGORITHM = " + algorithm + (level == null ? "" : ", LEVEL = " + level) + ")";
        return new CommandLogEntry(id, db, "BACKUP_DATABASE", command, start, start.plusSeconds(600), algorithm, level, 0);
    }

    /** An instance snapshot with job activity (any list may be null: not read). */
    public static SqlInstanceSnapshot instance(String name, Instant at, List<DatabaseInfo> databases, List<BackupRecord> backups,
            List<AgentJob> jobs, List<JobRun> runs, List<CommandLogEntry> commands, List<RestoreRecord> restores) {
        return new SqlInstanceSnapshot(name, at, null, List.of(), List.of(), databases, backups, List.of(), List.of(), null,
                null, null, jobs == null ? null : SqlInstanceSnapshot.JOBS_AVAILABLE, jobs, runs,
                runs == null || runs.isEmpty() ? null : runs.stream().mapToLong(JobRun::instanceId).max().getAsLong(),
                commands, null, restores, null);
    }

    /** A report of {@code host} with {@code instances}, under a fresh id. */
    public static AgentReport report(String host, Instant at, SqlInstanceSnapshot... instances) {
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instances), List.of());
    }
}
