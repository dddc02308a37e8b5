package io.qatwatch.collector.store;

import static io.qatwatch.collector.store.SqlValues.getFlag;
import static io.qatwatch.collector.store.SqlValues.getInstant;
import static io.qatwatch.collector.store.SqlValues.getInteger;
import static io.qatwatch.collector.store.SqlValues.getLong;
import static io.qatwatch.collector.store.SqlValues.setFlag;
import static io.qatwatch.collector.store.SqlValues.setInstant;
import static io.qatwatch.collector.store.SqlValues.setInteger;
import static io.qatwatch.collector.store.SqlValues.setLong;

import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code observed_restores} table (issue 30): each RESTORE request the agent's polls saw run and end, stored once by
 * its natural key (host, instance, database, command, start), so a re-sent report adds nothing; read back with the
 * backup set it restored. msdb's {@code restorehistory} (the {@code restores} table) has no duration, this table no
 * backup set: the read joins the two.
 */
final class RestoresTable {

    private RestoresTable() {
    }

    /** The migration component that creates it, on each database. */
    static final String COMPONENT = "observed-restores";

    /** A {@code restorehistory} row counts as this restore's when it began this long before the request's start... */
    static final Duration MATCH_BEFORE = Duration.ofMinutes(5);
    /** ...or up to this long after the last poll that saw it ({@code restore_date} is documented as the start). */
    static final Duration MATCH_AFTER = Duration.ofHours(1);
    /** The restored backup is looked for among backups that started at most this long before they finished. */
    static final Duration LONGEST_BACKUP = Duration.ofDays(7);

    /** The steps of {@link #COMPONENT} for {@code kind}. */
    static List<String> steps(Database.Kind kind) {
        boolean pg = kind == Database.Kind.POSTGRESQL;
        String text = pg ? "TEXT COLLATE \"C\"" : "TEXT";
        String big = pg ? "BIGINT" : "INTEGER";
        String flag = pg ? "SMALLINT" : "INTEGER";
        return List.of(String.join(";\n", "CREATE TABLE observed_restores (\n"
                        + "  host " + text + " NOT NULL,\n"
                        + "  instance " + text + " NOT NULL,\n"
                        + "  database_name " + text + " NOT NULL,\n"
                        + "  command TEXT NOT NULL,\n"
                        + "  started_at " + big + " NOT NULL,\n"
                        + "  last_seen_at " + big + " NOT NULL,\n"
                        + "  elapsed_seconds " + big + " NOT NULL,\n"
                        + "  percent_complete " + (pg ? "DOUBLE PRECISION" : "REAL") + " NOT NULL,\n"
                        + "  cpu_request_ms " + big + ",\n"
                        + "  cpu_session_ms " + big + ",\n"
                        + "  cpu_samples INTEGER,\n"
                        + "  cpu_first_at " + big + ",\n"
                        + "  cpu_last_at " + big + ",\n"
                        + "  cpu_process_ms " + big + ",\n"
                        + "  cpu_process_samples INTEGER,\n"
                        + "  cpu_process_reliable " + flag + ",\n"
                        + "  cpu_process_note TEXT,\n"
                        + "  PRIMARY KEY (host, instance, database_name, command, started_at))",
                "CREATE INDEX observed_restores_by_start ON observed_restores(started_at)"));
    }

    static final String INSERT = "INSERT INTO observed_restores(host, instance, database_name, command, started_at, "
            + "last_seen_at, elapsed_seconds, percent_complete, cpu_request_ms, cpu_session_ms, cpu_samples, cpu_first_at, "
            + "cpu_last_at, cpu_process_ms, cpu_process_samples, cpu_process_reliable, cpu_process_note) "
            + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
            + "ON CONFLICT(host, instance, database_name, command, started_at) DO NOTHING";

    static final String PRUNE = "DELETE FROM observed_restores WHERE started_at < ?";

    /** Adds one row per observed restore of {@code snap} to the batch of {@code s}; returns how many. */
    static int add(PreparedStatement s, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.observedRestores() == null) {
            return 0;
        }
        for (ObservedRestore r : snap.observedRestores()) {
            s.setString(1, host);
            s.setString(2, snap.name());
            // part of the key, so never NULL: an unnamed database is stored as '' and read back as null
            s.setString(3, r.databaseName() == null ? "" : r.databaseName());
            s.setString(4, r.command());
            s.setLong(5, r.startedAt().toEpochMilli());
            s.setLong(6, r.lastSeenAt().toEpochMilli());
            s.setLong(7, r.elapsedSeconds());
            s.setDouble(8, r.percentComplete());
            BackupCpu cpu = r.cpu();
            setLong(s, 9, cpu == null ? null : cpu.requestCpuMs());
            setLong(s, 10, cpu == null ? null : cpu.sessionCpuMs());
            setInteger(s, 11, cpu == null ? null : cpu.samples());
            setInstant(s, 12, cpu == null ? null : cpu.firstSampleAt());
            setInstant(s, 13, cpu == null ? null : cpu.lastSampleAt());
            setLong(s, 14, cpu == null ? null : cpu.processCpuMs());
            setInteger(s, 15, cpu == null ? null : cpu.processSamples());
            setFlag(s, 16, cpu == null ? null : cpu.processReliable());
            s.setString(17, cpu == null ? null : cpu.processNote());
            s.addBatch();
        }
        return snap.observedRestores().size();
    }

    /** The observed restores that started at or after {@code since}, by host, instance and start, each with its backup. */
    static List<RestoreObservation> read(Connection c, Instant since, HostSelection only) throws SQLException, IOException {
        if (only.all()) {
            return read(c, "o.started_at >= ?", s -> s.setLong(3, since.toEpochMilli()));
        }
        return read(c, "o.started_at >= ? AND " + HostSliceColumn.hostIn("o.host"), s -> {
            s.setLong(3, since.toEpochMilli());
            HostSliceColumn.bind(s, 4, only);
        });
    }

    /**
     * The observed restores of one instance, by start, each with its backup, that a {@code restorehistory} row which began
     * at or after {@code since} may have been written by (last seen {@link #MATCH_AFTER} before it or later); among them
     * every one last seen at or after {@code since}.
     */
    static List<RestoreObservation> read(Connection c, String host, String instance, Instant since)
            throws SQLException, IOException {
        return read(c, "o.host = ? AND o.instance = ? AND o.last_seen_at >= ?", s -> {
            s.setString(3, host);
            s.setString(4, instance);
            s.setLong(5, since.minus(MATCH_AFTER).toEpochMilli());
        });
    }

    /** {@code bind} sets the parameters of the {@code where} clause, from the third on. */
    private static List<RestoreObservation> read(Connection c, String where, SqlValues.Binds bind) throws SQLException, IOException {
        Map<String, Matched> byKey = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT o.*, r.restored_at AS r_at, r.source_server AS r_server, "
                + "r.source_database AS r_database, r.backup_finished_at AS r_finished, r.backup_type AS r_type "
                + "FROM observed_restores o LEFT JOIN restores r ON r.host = o.host AND r.instance = o.instance "
                + "AND r.destination_database = o.database_name AND r.restored_at >= o.started_at - ? "
                + "AND r.restored_at <= o.last_seen_at + ? AND r.backup_type IS NOT NULL "
                + "AND (CASE WHEN r.backup_type = 'L' THEN 1 ELSE 0 END) = (CASE WHEN o.command = 'RESTORE LOG' THEN 1 ELSE 0 END) "
                + "WHERE " + where + " ORDER BY o.host, o.instance, o.started_at, o.database_name, o.command")) {
            s.setLong(1, MATCH_BEFORE.toMillis());
            s.setLong(2, MATCH_AFTER.toMillis());
            bind.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString("host") + '\n' + rs.getString("instance") + '\n' + rs.getString("database_name")
                            + '\n' + rs.getString("command") + '\n' + rs.getLong("started_at");
                    Matched m = byKey.computeIfAbsent(key, k -> new Matched());
                    if (m.observation == null) {
                        m.observation = observation(rs);
                    }
                    Instant at = getInstant(rs, "r_at");
                    Instant finished = getInstant(rs, "r_finished");
                    // the restorehistory row that began nearest the request's start is the one it wrote
                    if (at != null && finished != null && (m.restoredAt == null || Math.abs(at.toEpochMilli()
                            - m.observation.startedAt().toEpochMilli()) < Math.abs(m.restoredAt.toEpochMilli()
                            - m.observation.startedAt().toEpochMilli()))) {
                        m.restoredAt = at;
                        m.sourceServer = rs.getString("r_server");
                        m.sourceDatabase = rs.getString("r_database");
                        m.backupFinishedAt = finished;
                        m.backupType = rs.getString("r_type");
                    }
                }
            }
        }
        Map<String, List<String[]>> servers = byMatched(byKey) ? servers(c) : Map.of();
        List<RestoreObservation> out = new ArrayList<>(byKey.size());
        for (Matched m : byKey.values()) {
            RestoreObservation o = m.observation;
            StoredBackup backup = m.restoredAt == null ? null : backup(c, m, o, servers);
            out.add(new RestoreObservation(o.host(), o.instance(), o.databaseName(), o.command(), o.startedAt(), o.lastSeenAt(),
                    o.elapsedSeconds(), o.percentComplete(), o.cpu(), backup));
        }
        return out;
    }

    /** An observed restore and the {@code restorehistory} row it wrote, as far as found. */
    private static final class Matched {
        RestoreObservation observation;
        Instant restoredAt;
        String sourceServer;
        String sourceDatabase;
        Instant backupFinishedAt;
        String backupType;
    }

    private static boolean byMatched(Map<String, Matched> byKey) {
        return byKey.values().stream().anyMatch(m -> m.restoredAt != null);
    }

    private static RestoreObservation observation(ResultSet rs) throws SQLException {
        Integer samples = getInteger(rs, "cpu_samples");
        BackupCpu cpu = samples == null ? null : new BackupCpu(getLong(rs, "cpu_request_ms"), getLong(rs, "cpu_session_ms"),
                samples, getInstant(rs, "cpu_first_at"), getInstant(rs, "cpu_last_at"), getLong(rs, "cpu_process_ms"),
                getInteger(rs, "cpu_process_samples"), getFlag(rs, "cpu_process_reliable"), rs.getString("cpu_process_note"));
        String database = rs.getString("database_name");
        return new RestoreObservation(rs.getString("host"), rs.getString("instance"), database.isEmpty() ? null : database,
                rs.getString("command"), Instant.ofEpochMilli(rs.getLong("started_at")),
                Instant.ofEpochMilli(rs.getLong("last_seen_at")), rs.getLong("elapsed_seconds"), rs.getDouble("percent_complete"),
                cpu, null);
    }

    /** Every instance by the server name it reports ({@code SERVERPROPERTY('ServerName')}, upper-cased): host, instance. */
    private static Map<String, List<String[]>> servers(Connection c) throws SQLException, IOException {
        Map<String, List<String[]>> out = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT host, name, server_json FROM instances");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                String json = rs.getString(3);
                ServerInfo server = SqlValues.read(json, ServerInfo.class);
                if (server != null && server.serverName() != null) {
                    out.computeIfAbsent(server.serverName().toUpperCase(Locale.ROOT), k -> new ArrayList<>())
                            .add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        }
        return out;
    }

    /**
     * The backup set {@code m} names: on the instances whose server name is the backup's {@code server_name}, else on the
     * restoring instance itself; the same finish (to the second), type and database. Null when the store holds none.
     */
    private static StoredBackup backup(Connection c, Matched m, RestoreObservation o, Map<String, List<String[]>> servers)
            throws SQLException {
        List<String[]> scopes = new ArrayList<>(m.sourceServer == null ? List.of()
                : servers.getOrDefault(m.sourceServer.toUpperCase(Locale.ROOT), List.of()));
        scopes.add(new String[] {o.host(), o.instance()});
        long finished = m.backupFinishedAt.toEpochMilli();
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM backups WHERE host = ? AND instance = ? "
                + "AND started_at >= ? AND started_at <= ? AND finished_at >= ? AND finished_at <= ? AND type = ? "
                + "AND (CAST(? AS TEXT) IS NULL OR database_name = ?) ORDER BY backup_set_id")) {
            for (String[] scope : scopes) {
                s.setString(1, scope[0]);
                s.setString(2, scope[1]);
                s.setLong(3, finished - LONGEST_BACKUP.toMillis());
                s.setLong(4, finished);
                s.setLong(5, finished - 1000);
                s.setLong(6, finished + 1000);
                s.setString(7, m.backupType);
                s.setString(8, m.sourceDatabase);
                s.setString(9, m.sourceDatabase);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        return new StoredBackup(scope[0], scope[1], BackupsTable.read(rs));
                    }
                }
            }
        }
        return null;
    }
}
