package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How an instance's job activity is read back ({@link ReportStore#jobActivity}): its jobs section from {@code instances},
 * then its rows of {@code job_runs}, {@code command_log} and {@code restores}; one instance, or the instances of a few
 * hundred hosts at once for the alert stage's cold start. {@link JobActivityTables} writes them.
 */
final class JobActivityReads {

    private JobActivityReads() {
    }

    static JobActivity read(Connection c, String host, String instance, Instant since) throws SQLException, IOException {
        {
            String status;
            List<AgentJob> jobs;
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT jobs_status, jobs_json FROM instances WHERE host = ? AND name = ?")) {
                s.setString(1, host);
                s.setString(2, instance);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return JobActivity.NONE;
                    }
                    status = rs.getString(1);
                    jobs = SqlValues.readList(rs.getString(2), new TypeReference<List<AgentJob>>() { });
                }
            }
            List<JobRun> runs = instanceRows(c, "job_runs", "started_at, instance_id", host, instance, since,
                    JobActivityReads::jobRunOf);
            List<CommandLogEntry> commands = instanceRows(c, "command_log", "started_at, id", host, instance, since,
                    JobActivityReads::commandOf);
            List<RestoreRecord> restores = instanceRows(c, "restores", "restored_at, restore_history_id", host, instance,
                    since, JobActivityReads::restoreOf);
            return new JobActivity(status, jobs, runs, commands, restores);
        }
    }

    /** Each asked instance's {@link #read}: its jobs section, then its runs, CommandLog rows and restores. */
    static void readBatch(Connection c, List<String> hosts, Instant since, Map<String, Map<String, JobActivity>> into)
            throws SQLException, IOException {
        Map<String, Map<String, String>> status = new HashMap<>();
        Map<String, Map<String, List<AgentJob>>> agentJobs = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT host, name, jobs_status, jobs_json FROM instances WHERE "
                + SqlValues.in(hosts))) {
            SqlValues.bind(s, hosts);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString(1);
                    String instance = rs.getString(2);
                    if (into.get(host).containsKey(instance)) {
                        status.computeIfAbsent(host, h -> new HashMap<>()).put(instance, rs.getString(3));
                        agentJobs.computeIfAbsent(host, h -> new HashMap<>()).put(instance,
                                SqlValues.readList(rs.getString(4), new TypeReference<List<AgentJob>>() { }));
                    }
                }
            }
        }
        Map<String, Map<String, List<JobRun>>> runs = rowsOf(c, "job_runs", "started_at, instance_id", hosts, since,
                status, JobActivityReads::jobRunOf);
        Map<String, Map<String, List<CommandLogEntry>>> commands = rowsOf(c, "command_log", "started_at, id", hosts, since,
                status, JobActivityReads::commandOf);
        Map<String, Map<String, List<RestoreRecord>>> restores = rowsOf(c, "restores", "restored_at, restore_history_id",
                hosts, since, status, JobActivityReads::restoreOf);
        status.forEach((host, instances) -> instances.forEach((instance, jobsStatus) -> into.get(host).put(instance,
                new JobActivity(jobsStatus, agentJobs.get(host).get(instance), rowsOf(runs, host, instance),
                        rowsOf(commands, host, instance), rowsOf(restores, host, instance)))));
    }

    /** How one job-activity row is read (per instance and in batches). */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** The rows of {@code table} of the {@code known} instances of {@code hosts} since {@code since}, in {@code order}. */
    private static <T> Map<String, Map<String, List<T>>> rowsOf(Connection c, String table, String order, List<String> hosts,
            Instant since, Map<String, Map<String, String>> known, RowReader<T> reader) throws SQLException {
        Map<String, Map<String, List<T>>> out = new HashMap<>();
        String time = order.substring(0, order.indexOf(','));
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM " + table + " WHERE " + SqlValues.in(hosts) + " AND " + time
                + " >= ? ORDER BY host, instance, " + order)) {
            SqlValues.bind(s, hosts);
            s.setLong(hosts.size() + 1, since.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString("host");
                    String instance = rs.getString("instance");
                    if (known.getOrDefault(host, Map.of()).containsKey(instance)) {
                        out.computeIfAbsent(host, h -> new HashMap<>()).computeIfAbsent(instance, i -> new ArrayList<>())
                                .add(reader.read(rs));
                    }
                }
            }
        }
        return out;
    }

    private static <T> List<T> rowsOf(Map<String, Map<String, List<T>>> rows, String host, String instance) {
        return rows.getOrDefault(host, Map.of()).getOrDefault(instance, List.of());
    }

    /** One instance's rows of {@code table} since {@code since}, in {@code order} (its first column is the time). */
    private static <T> List<T> instanceRows(Connection c, String table, String order, String host, String instance,
            Instant since, RowReader<T> reader) throws SQLException {
        String time = order.substring(0, order.indexOf(','));
        List<T> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM " + table + " WHERE host = ? AND instance = ? AND "
                + time + " >= ? ORDER BY " + order)) {
            s.setString(1, host);
            s.setString(2, instance);
            s.setLong(3, since.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
        }
        return out;
    }

    private static JobRun jobRunOf(ResultSet rs) throws SQLException {
        return new JobRun(rs.getLong("instance_id"), rs.getString("job_id"), rs.getString("job_name"),
                rs.getInt("step_id"), rs.getString("step_name"), rs.getString("status"),
                Instant.ofEpochMilli(rs.getLong("started_at")), rs.getLong("duration_seconds"),
                rs.getString("message"), SqlValues.getInteger(rs, "sql_message_id"), SqlValues.getInteger(rs, "sql_severity"));
    }

    private static CommandLogEntry commandOf(ResultSet rs) throws SQLException {
        return new CommandLogEntry(rs.getLong("id"), rs.getString("database_name"),
                rs.getString("command_type"), rs.getString("command"),
                Instant.ofEpochMilli(rs.getLong("started_at")), SqlValues.getInstant(rs, "ended_at"),
                rs.getString("algorithm"), rs.getString("level"), SqlValues.getInteger(rs, "error_number"));
    }

    private static RestoreRecord restoreOf(ResultSet rs) throws SQLException {
        return new RestoreRecord(rs.getLong("restore_history_id"), rs.getString("destination_database"),
                Instant.ofEpochMilli(rs.getLong("restored_at")), rs.getString("restore_type"),
                rs.getString("source_server"), rs.getString("source_database"),
                rs.getString("source_database_guid"), rs.getString("family_guid"),
                SqlValues.getInstant(rs, "backup_finished_at"), rs.getString("backup_type"));
    }
}
