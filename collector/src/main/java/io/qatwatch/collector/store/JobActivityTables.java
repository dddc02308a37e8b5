package io.qatwatch.collector.store;

import static io.qatwatch.collector.store.SqlValues.setInstant;
import static io.qatwatch.collector.store.SqlValues.setInteger;
import static io.qatwatch.collector.store.SqlValues.setLong;

import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How an instance's job activity is written: rows of {@code job_runs}, {@code command_log} and {@code restores}
 * (each stored once, by its key), then the instance's jobs section, high-water marks and {@code jobs_seq}. Shared by
 * the report-at-a-time writer ({@link SqlReportStore}) and PostgreSQL's batch writer ({@link PostgresReportBatch}).
 */
final class JobActivityTables {

    private JobActivityTables() {
    }

    static final String JOB_RUN_INSERT = "INSERT INTO job_runs(host, instance, instance_id, job_id, job_name, "
            + "step_id, step_name, status, started_at, duration_seconds, message, sql_message_id, sql_severity) "
            + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(host, instance, instance_id) DO NOTHING";
    static final String COMMAND_LOG_INSERT = "INSERT INTO command_log(host, instance, id, database_name, "
            + "command_type, command, started_at, ended_at, algorithm, level, error_number) "
            + "VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(host, instance, id) DO NOTHING";
    static final String RESTORE_INSERT = "INSERT INTO restores(host, instance, restore_history_id, "
            + "destination_database, restored_at, restore_type, source_server, source_database, source_database_guid, "
            + "family_guid, backup_finished_at, backup_type) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
            + "ON CONFLICT(host, instance, restore_history_id) DO NOTHING";

    /** Agents before issue 15 send none of it: nothing is written for such an instance. */
    static boolean reported(SqlInstanceSnapshot snap) {
        return snap.jobsStatus() != null || snap.jobs() != null || snap.jobRuns() != null || snap.commandLog() != null
                || snap.restores() != null;
    }

    /** Adds one {@code job_runs} row per run of {@code snap} to the batch of {@code s}; returns how many. */
    static int addRuns(PreparedStatement s, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.jobRuns() == null) {
            return 0;
        }
        for (JobRun r : snap.jobRuns()) {
            s.setString(1, host);
            s.setString(2, snap.name());
            s.setLong(3, r.instanceId());
            s.setString(4, r.jobId());
            s.setString(5, r.jobName());
            s.setInt(6, r.stepId());
            s.setString(7, r.stepName());
            s.setString(8, r.status());
            s.setLong(9, r.startedAt().toEpochMilli());
            s.setLong(10, r.durationSeconds());
            s.setString(11, r.message());
            setInteger(s, 12, r.sqlMessageId());
            setInteger(s, 13, r.sqlSeverity());
            s.addBatch();
        }
        return snap.jobRuns().size();
    }

    /** Adds one {@code command_log} row per CommandLog entry of {@code snap}; returns how many. */
    static int addCommands(PreparedStatement s, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.commandLog() == null) {
            return 0;
        }
        for (CommandLogEntry e : snap.commandLog()) {
            s.setString(1, host);
            s.setString(2, snap.name());
            s.setLong(3, e.id());
            s.setString(4, e.databaseName());
            s.setString(5, e.commandType());
            s.setString(6, e.command());
            s.setLong(7, e.startedAt().toEpochMilli());
            setInstant(s, 8, e.endedAt());
            s.setString(9, e.algorithm());
            s.setString(10, e.level());
            setInteger(s, 11, e.errorNumber());
            s.addBatch();
        }
        return snap.commandLog().size();
    }

    /** Adds one {@code restores} row per restore of {@code snap}; returns how many. */
    static int addRestores(PreparedStatement s, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.restores() == null) {
            return 0;
        }
        for (RestoreRecord r : snap.restores()) {
            s.setString(1, host);
            s.setString(2, snap.name());
            s.setLong(3, r.restoreHistoryId());
            s.setString(4, r.destinationDatabase());
            s.setLong(5, r.restoredAt().toEpochMilli());
            s.setString(6, r.restoreType());
            s.setString(7, r.sourceServer());
            s.setString(8, r.sourceDatabase());
            s.setString(9, r.sourceDatabaseGuid());
            s.setString(10, r.familyGuid());
            setInstant(s, 11, r.backupFinishedAt());
            s.setString(12, r.backupType());
            s.addBatch();
        }
        return snap.restores().size();
    }

    /** Rows {@code counts[from, from + n)} of a batch of {@code INSERT ... ON CONFLICT DO NOTHING} added. */
    static int added(int[] counts, int from, int n) {
        int added = 0;
        for (int i = from; i < from + n; i++) {
            added += counts[i] == Statement.SUCCESS_NO_INFO ? 1 : Math.max(0, counts[i]);
        }
        return added;
    }

    /**
     * The update of an instance's jobs section and marks; the old values on the right of SET: the counter moves when
     * rows were added or the section differs. The report's values are bound once, in a row of their own ({@code FROM}),
     * so the section is sent (and on PostgreSQL parsed into {@code jsonb}) once, not three times. Bound by
     * {@link #bindUpdate}.
     */
    static String update(Database.Kind kind) {
        String json = kind == Database.Kind.POSTGRESQL ? "CAST(? AS jsonb)" : "?";
        String differs = kind == Database.Kind.POSTGRESQL ? " IS DISTINCT FROM " : " IS NOT ";
        return "UPDATE instances SET jobs_seq = jobs_seq + CASE WHEN r.added > 0"
                + " OR (r.jobs IS NOT NULL AND jobs_json" + differs + "r.jobs)"
                + " OR (r.status IS NOT NULL AND jobs_status" + differs + "r.status) THEN 1 ELSE 0 END,"
                + " jobs_json = COALESCE(r.jobs, jobs_json), jobs_status = COALESCE(r.status, jobs_status),"
                + " job_history_hwm = " + mark(kind, "r.job_history", "job_history_hwm") + ", command_log_hwm = "
                + mark(kind, "r.command_log", "command_log_hwm") + ", restore_hwm = "
                + mark(kind, "r.restore", "restore_hwm")
                + " FROM (SELECT CAST(? AS INTEGER) AS added, " + json + " AS jobs, CAST(? AS TEXT) AS status,"
                + " CAST(? AS BIGINT) AS job_history, CAST(? AS BIGINT) AS command_log, CAST(? AS BIGINT) AS restore) r"
                + " WHERE host = ? AND name = ?";
    }

    /** Binds {@link #update} for {@code snap}, which added {@code inserted} rows and whose jobs section is {@code jobs}. */
    static void bindUpdate(PreparedStatement u, String host, SqlInstanceSnapshot snap, String jobs, int inserted)
            throws SQLException {
        int i = 1;
        u.setInt(i++, inserted);
        u.setString(i++, jobs);
        u.setString(i++, snap.jobsStatus());
        for (Long m : new Long[] {snap.jobHistoryHighWaterMark(), snap.commandLogHighWaterMark(), snap.restoreHighWaterMark()}) {
            setLong(u, i++, m);
        }
        u.setString(i++, host);
        u.setString(i, snap.name());
    }

    /** A high-water mark column set to the larger of its value and the report's {@code mark} (which may be null: kept). */
    private static String mark(Database.Kind kind, String mark, String column) {
        return "CASE WHEN " + mark + " IS NULL THEN " + column + " ELSE "
                + kind.greatest(mark, "COALESCE(" + column + ", 0)") + " END";
    }
}
