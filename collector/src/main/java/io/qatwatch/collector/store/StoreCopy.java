package io.qatwatch.collector.store;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies the embedded SQLite store's rows into a PostgreSQL store (before several collectors take over),
 * idempotently: a row whose key the target has already is left as it is, so a copy that was interrupted, or run
 * twice, copies only what is missing. The target's tables must exist (open its stores first). Reads in key order and
 * writes in transactions of {@link #CHUNK} rows.
 */
public final class StoreCopy {

    /** Rows a target transaction takes. */
    static final int CHUNK = 500;
    private static final Pattern GROUP_HOST = Pattern.compile("(?:^|,)host=([A-Za-z0-9._\\-]+)(?:,|$)");

    /** What was copied of one table. */
    public record Count(String table, long read, long copied) {
    }

    /** A table: its columns as the source has them, its key, and what the target stores in {@code slice}, if any. */
    private record Table(String name, List<String> columns, String key, String order, SliceOf slice) {
    }

    /** The slice of a row, from its columns. */
    @FunctionalInterface
    private interface SliceOf {
        int of(Map<String, Object> row);
    }

    private static final List<Table> TABLES = List.of(
            new Table("tokens", List.of("id", "name", "kind", "secret_sha256", "created_at", "revoked_at"), "id", "id", null),
            new Table("reports", List.of("report_id", "host", "created_at", "received_at", "backups"), "report_id",
                    "report_id", null),
            new Table("hosts", List.of("name", "first_seen", "last_seen", "agent_json", "facts_json", "qat_json",
                    "licence_json", "licence_verdict", "facts_at", "probes_json", "tags_json"), "name", "name",
                    row -> HostSlices.of((String) row.get("name"))),
            new Table("instances", List.of("host", "name", "last_seen", "server_json", "configuration_json",
                    "accelerators_json", "databases_json", "running_json", "certificates_json", "high_water_mark",
                    "asymmetric_keys_json", "jobs_status", "jobs_json", "job_history_hwm", "command_log_hwm", "restore_hwm",
                    // copied, not restarted at 0: the alert stage takes 0 for "no job activity ever" and reads nothing
                    "jobs_seq"),
                    "host, name", "host, name", null),
            new Table("instance_changes", List.of("host", "instance", "section", "changed_at", "old_json", "new_json"),
                    null, "rowid", null),
            new Table("backups", BackupsTable.COLUMNS,
                    "host, instance, backup_set_id", "rowid", null),
            new Table("job_runs", List.of("host", "instance", "instance_id", "job_id", "job_name", "step_id", "step_name",
                    "status", "started_at", "duration_seconds", "message", "sql_message_id", "sql_severity"),
                    "host, instance, instance_id", "host, instance, instance_id", null),
            new Table("command_log", List.of("host", "instance", "id", "database_name", "command_type", "command",
                    "started_at", "ended_at", "algorithm", "level", "error_number"), "host, instance, id",
                    "host, instance, id", null),
            new Table("restores", List.of("host", "instance", "restore_history_id", "destination_database", "restored_at",
                    "restore_type", "source_server", "source_database", "source_database_guid", "family_guid",
                    "backup_finished_at", "backup_type"), "host, instance, restore_history_id",
                    "host, instance, restore_history_id", null),
            new Table("alert_state", List.of("id", "rule", "severity", "host", "instance", "database_name", "subject",
                    "summary", "why", "facts", "series", "since", "resolved_at"), "id", "id",
                    row -> row.get("host") == null ? 0 : HostSlices.of((String) row.get("host"))),
            new Table("alert_notification_log", List.of("channel", "group_key", "firing", "sent_at"),
                    "channel, group_key", "channel, group_key", row -> {
                        Matcher m = GROUP_HOST.matcher((String) row.get("group_key"));
                        return m.find() ? HostSlices.of(m.group(1)) : 0;
                    }),
            new Table("alert_silence", List.of("id", "rule", "host", "instance", "database_name", "comment", "created_by",
                    "starts_at", "ends_at", "group_name", "tag"), "id", "id", null));

    private StoreCopy() {
    }

    /**
     * Copies every table of {@code from} that exists there into {@code to}; returns per table how many rows were read
     * and how many the target did not have yet.
     */
    public static List<Count> copy(Database from, Database to) throws SQLException, IOException {
        List<Count> counts = new ArrayList<>();
        for (Table table : TABLES) {
            if (!exists(from, table.name())) {
                continue;
            }
            counts.add(copy(from, to, table));
        }
        return counts;
    }

    private static Count copy(Database from, Database to, Table table) throws SQLException, IOException {
        List<String> targetColumns = new ArrayList<>(table.columns());
        if (table.slice() != null) {
            targetColumns.add("slice");
        }
        String insert = "INSERT INTO " + table.name() + "(" + String.join(", ", targetColumns) + ") VALUES ("
                + "?, ".repeat(targetColumns.size() - 1) + "?)" + (table.key() == null ? "" : " ON CONFLICT (" + table.key()
                + ") DO NOTHING");
        long[] counts = new long[2];
        from.read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT " + String.join(", ", table.columns()) + " FROM "
                    + table.name() + " ORDER BY " + table.order());
                 ResultSet rs = s.executeQuery()) {
                List<Map<String, Object>> chunk = new ArrayList<>(CHUNK);
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (String column : table.columns()) {
                        row.put(column, rs.getObject(column));
                    }
                    chunk.add(row);
                    if (chunk.size() == CHUNK) {
                        counts[1] += write(to, insert, table, chunk);
                        counts[0] += chunk.size();
                        chunk.clear();
                    }
                }
                counts[1] += write(to, insert, table, chunk);
                counts[0] += chunk.size();
            }
            return null;
        });
        return new Count(table.name(), counts[0], counts[1]);
    }

    private static long write(Database to, String insert, Table table, List<Map<String, Object>> rows)
            throws SQLException, IOException {
        if (rows.isEmpty()) {
            return 0;
        }
        return to.transaction(c -> {
            long copied = 0;
            try (PreparedStatement s = c.prepareStatement(insert);
                 PreparedStatement seen = c.prepareStatement("SELECT 1 FROM instance_changes "
                         + "WHERE host = ? AND instance = ? AND section = ? AND changed_at = ?")) {
                for (Map<String, Object> row : rows) {
                    if (table.key() == null && known(seen, row)) {
                        // the change history has no key of its own: a change is its instance, section and time
                        continue;
                    }
                    int i = 1;
                    for (Object value : row.values()) {
                        bind(s, i++, value);
                    }
                    if (table.slice() != null) {
                        s.setInt(i++, table.slice().of(row));
                    }
                    copied += s.executeUpdate();
                }
            }
            return copied;
        });
    }

    private static boolean known(PreparedStatement seen, Map<String, Object> row) throws SQLException {
        int i = 1;
        for (String column : List.of("host", "instance", "section", "changed_at")) {
            bind(seen, i++, row.get(column));
        }
        try (ResultSet rs = seen.executeQuery()) {
            return rs.next();
        }
    }

    /** SQLite hands back integers as Integer or Long, text as String, blobs as byte[]: bound as what they are. */
    private static void bind(PreparedStatement s, int i, Object value) throws SQLException {
        if (value instanceof Integer n) {
            s.setLong(i, n);
        } else {
            s.setObject(i, value);
        }
    }

    private static boolean exists(Database db, String table) throws SQLException, IOException {
        return db.read(c -> {
            try (ResultSet rs = c.getMetaData().getTables(null, null, table, null)) {
                return rs.next();
            }
        });
    }
}
