package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlServerValues.serverTimeUtc;

import io.qatwatch.agent.probe.sqlserver.RequestCpuTracker.RequestSample;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads running-backups.sql, the one query of a poll: the BACKUP requests running now (the spill forecast's input) and,
 * with the RESTORE requests, their CPU so far, handed to a {@link RequestCpuTracker} that remembers them between polls.
 * The host's process is read only when something runs or has just ended, so a quiet instance costs what it did before.
 */
final class RunningRequestsReader {

    /** Only these RESTORE commands restore data; RESTORE HEADERONLY, VERIFYONLY, ... are not counted. */
    private static final List<String> RESTORES = List.of("RESTORE DATABASE", "RESTORE LOG");

    /** One poll's answer. {@code complete}: the login sees every session. */
    record Poll(boolean complete, Long processId, List<RequestSample> requests, List<RunningBackup> backups) {
    }

    /** What a poll gives the snapshot: the running backups and the restores that ended; null lists when not read. */
    record Result(List<RunningBackup> backups, List<ObservedRestore> restores) {
        static final Result NOT_READ = new Result(null, null);
    }

    private final RequestCpuTracker tracker = new RequestCpuTracker();
    private final SqlServerProcess process;

    RunningRequestsReader(SqlServerProcess process) {
        this.process = process;
    }

    /**
     * Runs the poll and records it.
     *
     * @param machineName {@code SERVERPROPERTY('MachineName')} read this cycle, or null
     * @param permission  the permission that lets the login see every session, for the message when it lacks it
     * @param grant       the statement that grants it
     */
    Result read(SqlCycle cycle, Instant at, String machineName, String permission, String grant) {
        long start = System.nanoTime();
        Poll poll;
        try {
            poll = cycle.execute(SqlQuery.RUNNING_BACKUPS, SqlQuery.none(), java.util.Map.of(), RunningRequestsReader::readPoll);
        } catch (SQLException e) {
            cycle.fail("running-backups", SqlQuery.RUNNING_BACKUPS, e, start);
            return Result.NOT_READ;
        }
        if (!poll.complete()) {
            // sys.dm_exec_requests answers without error, but only with this login's own requests.
            cycle.problem("running-backups", start, cycle.where(SqlQuery.RUNNING_BACKUPS) + ": the login lacks " + permission
                    + ", so sys.dm_exec_requests shows only its own requests and running backups are invisible", grant);
            return Result.NOT_READ;
        }
        SqlServerProcess.Sample host = null;
        if (poll.processId() != null && tracker.wantsProcessSample(!poll.requests().isEmpty())) {
            host = process.sample(machineName, poll.processId());
        }
        List<ObservedRestore> restores = tracker.observe(at, poll.requests(), host);
        cycle.ok("running-backups", start);
        return new Result(poll.backups(), restores);
    }

    /** The backups read this cycle, each with the CPU its request was seen to use where a poll saw it run. */
    List<BackupRecord> attachCpu(List<BackupRecord> backups) {
        return tracker.attach(backups);
    }

    static Poll readPoll(ResultSet rs) throws SQLException {
        boolean complete = true;
        Long processId = null;
        List<RequestSample> requests = new ArrayList<>();
        List<RunningBackup> backups = new ArrayList<>();
        while (rs.next()) {
            complete = rs.getInt("can_see_all_sessions") == 1;
            int offset = rs.getInt("server_utc_offset_minutes");
            Long pid = longIfPresent(rs, "process_id");
            if (pid != null) {
                processId = pid;
            }
            int session = rs.getInt("session_id");
            if (rs.wasNull()) {
                continue;
            }
            String command = rs.getString("command").trim();
            String upper = command.toUpperCase(Locale.ROOT);
            boolean backup = upper.startsWith("BACKUP");
            if (!backup && !RESTORES.contains(upper)) {
                continue;
            }
            Instant started = serverTimeUtc(rs.getObject("start_time", LocalDateTime.class), offset);
            double percent = rs.getFloat("percent_complete");
            long elapsedSeconds = rs.getLong("total_elapsed_time") / 1000;
            long raw = rs.getLong("estimated_completion_time");
            Long estimate = rs.wasNull() ? null : raw;
            Long requestCpu = longIfPresent(rs, "request_cpu_ms");
            Long sessionCpu = longIfPresent(rs, "session_cpu_ms");
            String database = rs.getString("database_name");
            requests.add(new RequestSample(session, command, database, started, percent, elapsedSeconds, requestCpu, sessionCpu));
            if (backup) {
                // "Internal only": units undocumented; community tools (dbatools) read milliseconds.
                backups.add(new RunningBackup(session, command, database, started, percent, elapsedSeconds,
                        estimate != null && estimate > 0 ? estimate / 1000 : null, estimate, requestCpu, sessionCpu));
            }
        }
        return new Poll(complete, processId, requests, backups);
    }

    /** A column added by issue 30, read only when the answer has it (captures and simulated servers from older agents). */
    private static Long longIfPresent(ResultSet rs, String column) throws SQLException {
        try {
            rs.findColumn(column);
        } catch (SQLException absent) {
            return null;
        }
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }
}
