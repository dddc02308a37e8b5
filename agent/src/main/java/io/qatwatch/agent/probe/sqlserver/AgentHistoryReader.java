package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobSchedule;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what SQL Server Agent, Ola Hallengren's CommandLog and msdb's restore history say about backups: the jobs with
 * their schedules, the job runs, the BACKUP commands, and the restores. Histories are read above their high-water marks
 * in pages; a mark above every row left (msdb restored or rebuilt, a table recreated) starts again from the lowest row
 * (checked on the first read with nothing new, then at most once an hour).
 */
final class AgentHistoryReader {

    /** Job-history rows one probe reads at most: a row carries up to 4,000 characters of message. */
    static final int MAX_JOB_RUNS_PER_PROBE = 1_000;
    /** CommandLog rows one probe reads at most (IndexOptimize writes one per index; only backup rows carry a command). */
    static final int MAX_COMMAND_LOG_ROWS_PER_PROBE = 2_000;
    static final int MAX_RESTORES_PER_PROBE = 2_000;
    private static final int EXPRESS = 4;
    private static final int INVALID_OBJECT_NAME = 208;
    private static final Set<Integer> PERMISSION_DENIED = Set.of(229, 916);
    private static final Set<String> RESTORE_TYPES = Set.of("D", "F", "G", "I", "L", "V");
    private static final Set<String> BACKUP_TYPES = Set.of("D", "I", "L", "F", "G", "P", "Q");
    /** The msdb tables the Agent queries read, as the login script grants them. */
    static final List<String> AGENT_TABLES = List.of("dbo.sysjobs", "dbo.sysjobsteps", "dbo.syscategories", "dbo.sysjobschedules",
            "dbo.sysschedules", "dbo.sysjobhistory");

    /** What was read of the Agent: its status and, when it could be read, the jobs. */
    record Jobs(String status, List<AgentJob> jobs) {
    }

    /** One page run of an incremental read: the rows to report, the new mark, whether more wait above it. */
    record Rows<T>(List<T> rows, Long mark, boolean more) {
    }

    /** A row of a history: its id, and what it reports (null for a row that moves the mark and is not reported). */
    private record Keyed<T>(long id, T value) {
    }

    /**
     * What the reads of one instance remember between cycles, so that a cycle with nothing new costs one query per
     * history: whether Agent runs ('Agent XPs', asked again with the inventory), whether CommandLog is absent (asked
     * again with the inventory), and when each history last had its highest id checked (at most once an hour).
     */
    static final class Memory {
        static final Duration RESTART_CHECK = Duration.ofHours(1);
        Integer agentXps;
        boolean agentXpsKnown;
        boolean commandLogAbsent;
        final Map<SqlQuery, Instant> restartChecked = new HashMap<>();
    }

    private final SqlCycle cycle;
    private final String grantee;
    private final ZoneId hostZone;
    private final int pageSize;
    private final Memory memory;
    private final Instant now;
    private final boolean inventory;

    /**
     * @param inventory whether this cycle reads the inventory (the jobs): then what {@code memory} holds about the
     *                  Agent and CommandLog is asked again
     */
    AgentHistoryReader(SqlCycle cycle, String login, ZoneId hostZone, int pageSize, Memory memory, Instant now, boolean inventory) {
        this.cycle = cycle;
        this.grantee = login == null ? "[DOMAIN\\service-account]" : "[" + login + "]";
        this.hostZone = hostZone;
        this.pageSize = pageSize;
        this.memory = memory;
        this.now = now;
        this.inventory = inventory;
    }

    /**
     * Whether SQL Server Agent is there to ask: NO_AGENT on Express (no Agent) or when its extended procedures are off
     * ('Agent XPs' 0: Linux without sqlagent.enabled, or the service stopped); null when that could not be read.
     */
    String agentStatus(Integer engineEdition) {
        if (engineEdition != null && engineEdition == EXPRESS) {
            return SqlInstanceSnapshot.JOBS_NO_AGENT;
        }
        if (inventory || !memory.agentXpsKnown) {
            long start = System.nanoTime();
            try {
                memory.agentXps = cycle.execute(SqlQuery.AGENT_STATUS, SqlQuery.none(), Map.of(), rs -> {
                    if (!rs.next()) {
                        return null;
                    }
                    int xps = rs.getInt("agent_xps");
                    return rs.wasNull() ? null : xps;
                });
                memory.agentXpsKnown = true;
                cycle.ok("agent-status", start);
            } catch (SQLException e) {
                cycle.fail("agent-status", SqlQuery.AGENT_STATUS, e, start);
                return null;
            }
        }
        return memory.agentXps != null && memory.agentXps == 0 ? SqlInstanceSnapshot.JOBS_NO_AGENT : SqlInstanceSnapshot.JOBS_AVAILABLE;
    }

    /** Every job with its steps' meaning and its schedules; the status says why there are none. */
    Jobs jobs(String status) {
        if (!SqlInstanceSnapshot.JOBS_AVAILABLE.equals(status)) {
            return new Jobs(status, null);
        }
        long start = System.nanoTime();
        Map<String, JobRows> byId;
        Map<String, List<JobSchedule>> schedules;
        try {
            byId = cycle.execute(SqlQuery.AGENT_JOBS, SqlQuery.none(), Map.of(), AgentHistoryReader::readJobs);
        } catch (SQLException e) {
            return failedJobs("agent-jobs", SqlQuery.AGENT_JOBS, e, start);
        }
        cycle.ok("agent-jobs", start);
        start = System.nanoTime();
        try {
            schedules = cycle.execute(SqlQuery.AGENT_SCHEDULES, SqlQuery.none(), Map.of(), AgentHistoryReader::readSchedules);
        } catch (SQLException e) {
            return failedJobs("agent-schedules", SqlQuery.AGENT_SCHEDULES, e, start);
        }
        cycle.ok("agent-schedules", start);
        List<AgentJob> jobs = new ArrayList<>();
        for (Map.Entry<String, JobRows> e : byId.entrySet()) {
            JobRows j = e.getValue();
            AgentJobValues.JobKind kind = AgentJobValues.classify(j.name, j.steps);
            jobs.add(new AgentJob(e.getKey(), j.name, j.category, j.enabled, kind.backupJob(), kind.backupTypes(), kind.databases(),
                    kind.kind(), schedules.getOrDefault(e.getKey(), List.of())));
        }
        return new Jobs(status, jobs);
    }

    private Jobs failedJobs(String probe, SqlQuery query, SQLException e, long start) {
        if (PERMISSION_DENIED.contains(e.getErrorCode())) {
            cycle.problem(probe, start, cycle.where(query) + ": " + firstLine(e) + " — the login may not read SQL Server Agent's "
                    + "tables, so backup jobs, their schedules and failures are not watched", agentGrant());
            return new Jobs(SqlInstanceSnapshot.JOBS_NO_PERMISSION, null);
        }
        cycle.fail(probe, query, e, start);
        return new Jobs(SqlInstanceSnapshot.JOBS_AVAILABLE, null);
    }

    /** The statements that let the login read the Agent's tables. */
    private String agentGrant() {
        StringBuilder grant = new StringBuilder("USE msdb;");
        for (String table : AGENT_TABLES) {
            grant.append(" GRANT SELECT ON ").append(table).append(" TO ").append(grantee).append(';');
        }
        return grant.append(" (see install/sql/create-monitor-login.sql)").toString();
    }

    /** Steps of one job, as read. */
    private static final class JobRows {
        String name;
        String category;
        boolean enabled;
        final List<AgentJobValues.Step> steps = new ArrayList<>();
    }

    private static Map<String, JobRows> readJobs(ResultSet rs) throws SQLException {
        Map<String, JobRows> jobs = new LinkedHashMap<>();
        while (rs.next()) {
            String id = SqlServerValues.guid(rs.getString("job_id"));
            JobRows j = jobs.computeIfAbsent(id, k -> new JobRows());
            j.name = rs.getString("job_name");
            j.category = rs.getString("category_name");
            j.enabled = rs.getInt("job_enabled") == 1;
            rs.getInt("step_id");
            if (!rs.wasNull()) {
                j.steps.add(new AgentJobValues.Step(rs.getString("subsystem"), rs.getString("command")));
            }
        }
        return jobs;
    }

    private static Map<String, List<JobSchedule>> readSchedules(ResultSet rs) throws SQLException {
        Map<String, List<JobSchedule>> byJob = new LinkedHashMap<>();
        while (rs.next()) {
            int offset = rs.getInt("server_utc_offset_minutes");
            Instant next = AgentJobValues.runStart(rs.getInt("next_run_date"), rs.getInt("next_run_time"), offset);
            byJob.computeIfAbsent(SqlServerValues.guid(rs.getString("job_id")), k -> new ArrayList<>()).add(new JobSchedule(
                    rs.getInt("schedule_id"), rs.getString("schedule_name"), rs.getInt("enabled") == 1, rs.getInt("freq_type"),
                    rs.getInt("freq_interval"), rs.getInt("freq_subday_type"), rs.getInt("freq_subday_interval"),
                    AgentJobValues.clockTime(rs.getInt("active_start_time")), next));
        }
        return byJob;
    }

    /** The job runs above {@code after}; null rows (and the mark unchanged) when the Agent is not there or not readable. */
    Rows<JobRun> jobRuns(String status, Long after) {
        if (!SqlInstanceSnapshot.JOBS_AVAILABLE.equals(status)) {
            return new Rows<>(null, after, false);
        }
        return incremental("job-history", SqlQuery.JOB_HISTORY, SqlQuery.JOB_HISTORY_LATEST, "after_instance_id", Map.of(), after,
                MAX_JOB_RUNS_PER_PROBE, this::readJobRuns);
    }

    private List<Keyed<JobRun>> readJobRuns(ResultSet rs) throws SQLException {
        List<Keyed<JobRun>> list = new ArrayList<>();
        while (rs.next()) {
            long id = rs.getLong("instance_id");
            String jobId = SqlServerValues.guid(rs.getString("job_id"));
            String name = rs.getString("job_name");
            String status = AgentJobValues.runStatus(rs.getInt("run_status"));
            Instant started = AgentJobValues.runStart(rs.getInt("run_date"), rs.getInt("run_time"), rs.getInt("server_utc_offset_minutes"));
            String message = rs.getString("message");
            int messageId = rs.getInt("sql_message_id");
            int severity = rs.getInt("sql_severity");
            JobRun run = status == null || started == null || jobId == null ? null : new JobRun(id, jobId,
                    name == null || name.isBlank() ? jobId : name, rs.getInt("step_id"), rs.getString("step_name"), status, started,
                    AgentJobValues.durationSeconds(rs.getInt("run_duration")),
                    message == null || message.isBlank() ? null : message.strip(), messageId == 0 ? null : messageId,
                    severity == 0 ? null : severity);
            list.add(new Keyed<>(id, run));
        }
        return list;
    }

    /**
     * The backup rows of Ola Hallengren's CommandLog above {@code after}, from {@code database}'s dbo.CommandLog. A table
     * that is not there (Msg 208) is no CommandLog: an empty list and no mark, not an error.
     */
    Rows<CommandLogEntry> commandLog(String database, Long after) {
        if (memory.commandLogAbsent && !inventory) {
            return new Rows<>(List.of(), null, false);
        }
        memory.commandLogAbsent = false;
        return incremental("command-log", SqlQuery.COMMAND_LOG, SqlQuery.COMMAND_LOG_LATEST, "after_id",
                Map.of("command_log_table", database), after, MAX_COMMAND_LOG_ROWS_PER_PROBE, AgentHistoryReader::readCommandLog);
    }

    private static List<Keyed<CommandLogEntry>> readCommandLog(ResultSet rs) throws SQLException {
        List<Keyed<CommandLogEntry>> list = new ArrayList<>();
        while (rs.next()) {
            long id = rs.getLong("id");
            String command = rs.getString("command");
            int offset = rs.getInt("server_utc_offset_minutes");
            Instant started = SqlServerValues.serverTimeUtc(rs.getObject("start_time", LocalDateTime.class), offset);
            Instant ended = SqlServerValues.serverTimeUtc(rs.getObject("end_time", LocalDateTime.class), offset);
            int error = rs.getInt("error_number");
            Integer errorNumber = rs.wasNull() ? null : error;
            CommandLogEntry entry = null;
            if (command != null && !command.isBlank() && started != null) {
                AgentJobValues.Compression c = AgentJobValues.compression(command);
                entry = new CommandLogEntry(id, rs.getString("database_name"), rs.getString("command_type").trim(), command.strip(),
                        started, ended != null && ended.isBefore(started) ? started : ended, c.algorithm(), c.level(), errorNumber);
            }
            list.add(new Keyed<>(id, entry));
        }
        return list;
    }

    /** The restores above {@code after}, each with the backup set it restored. */
    Rows<RestoreRecord> restores(Long after) {
        return incremental("restore-history", SqlQuery.RESTORE_HISTORY, SqlQuery.RESTORE_HISTORY_LATEST, "after_restore_history_id",
                Map.of(), after, MAX_RESTORES_PER_PROBE, this::readRestores);
    }

    private List<Keyed<RestoreRecord>> readRestores(ResultSet rs) throws SQLException {
        List<Keyed<RestoreRecord>> list = new ArrayList<>();
        while (rs.next()) {
            long id = rs.getLong("restore_history_id");
            String destination = rs.getString("destination_database_name");
            Instant restored = SqlServerValues.serverTimeUtc(rs.getObject("restore_date", LocalDateTime.class),
                    rs.getInt("server_utc_offset_minutes"));
            int tz = rs.getInt("time_zone");
            Integer timeZone = rs.wasNull() ? null : tz;
            RestoreRecord r = destination == null || destination.isBlank() || restored == null ? null : new RestoreRecord(id,
                    destination, restored, oneOf(rs.getString("restore_type"), RESTORE_TYPES), rs.getString("source_server"),
                    rs.getString("source_database"), SqlServerValues.guid(rs.getString("source_database_guid")),
                    SqlServerValues.guid(rs.getString("family_guid")),
                    SqlServerValues.backupTimeUtc(rs.getObject("backup_finish_date", LocalDateTime.class), timeZone, hostZone),
                    oneOf(rs.getString("backup_type"), BACKUP_TYPES));
            list.add(new Keyed<>(id, r));
        }
        return list;
    }

    private static String oneOf(String value, Set<String> allowed) {
        String v = value == null ? null : value.trim();
        return v != null && allowed.contains(v) ? v : null;
    }

    /**
     * Keyset paging above {@code after} until a short page or {@code maxRows}. When nothing is above the mark, the highest
     * id left is asked: below the mark (or no rows at all), the history was replaced, so the read starts again from the
     * lowest row (the collector keys what it already has, so rows seen before are harmless).
     */
    private <T> Rows<T> incremental(String probe, SqlQuery pageQuery, SqlQuery latestQuery, String markName, Map<String, String> tables,
            Long after, int maxRows, SqlCycle.RowsReader<List<Keyed<T>>> reader) {
        long start = System.nanoTime();
        try {
            Rows<T> rows = pages(pageQuery, markName, tables, after, maxRows, reader);
            if (after != null && after > 0 && rows.mark().equals(after) && rows.rows().isEmpty() && restartCheckDue(latestQuery)) {
                Long latest = cycle.execute(latestQuery, SqlQuery.none(), tables, rs -> {
                    if (!rs.next()) {
                        return null;
                    }
                    long v = rs.getLong(1);
                    return rs.wasNull() ? null : v;
                });
                if (latest == null || latest < after) {
                    rows = pages(pageQuery, markName, tables, 0L, maxRows, reader);
                }
            }
            cycle.ok(probe, start);
            return rows;
        } catch (SQLException e) {
            if (e.getErrorCode() == INVALID_OBJECT_NAME && pageQuery == SqlQuery.COMMAND_LOG) {
                memory.commandLogAbsent = true;
                cycle.ok(probe, start);
                return new Rows<>(List.of(), null, false);
            }
            cycle.fail(probe, pageQuery, e, start);
            return new Rows<>(null, after, false);
        }
    }

    /** Whether a history's highest id is to be asked now: on its first empty read, then at most once an hour. */
    private boolean restartCheckDue(SqlQuery latestQuery) {
        Instant last = memory.restartChecked.get(latestQuery);
        if (last != null && now.isBefore(last.plus(Memory.RESTART_CHECK))) {
            return false;
        }
        memory.restartChecked.put(latestQuery, now);
        return true;
    }

    private <T> Rows<T> pages(SqlQuery query, String markName, Map<String, String> tables, Long after, int maxRows,
            SqlCycle.RowsReader<List<Keyed<T>>> reader) throws SQLException {
        int size = Math.min(pageSize, maxRows);
        long mark = after == null ? 0 : after;
        List<T> rows = new ArrayList<>();
        int read = 0;
        while (true) {
            int want = Math.min(size, maxRows - read);
            List<Keyed<T>> page = cycle.execute(query, Map.of("page_size", (long) want, markName, mark), tables, reader);
            read += page.size();
            for (Keyed<T> k : page) {
                if (k.value() != null) {
                    rows.add(k.value());
                }
            }
            if (!page.isEmpty()) {
                mark = page.get(page.size() - 1).id();
            }
            if (page.size() < want) {
                return new Rows<>(rows, after == null && read == 0 ? null : mark, false);
            }
            if (read >= maxRows) {
                return new Rows<>(rows, mark, true);
            }
        }
    }

    private static String firstLine(SQLException e) {
        String m = e.getMessage() == null ? "no message" : e.getMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }
}
