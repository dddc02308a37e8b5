package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
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
import java.util.TreeSet;

/**
 * Reads an instance's {@link DatabaseEvent}s from {@code instance_changes}: at ingest the store keeps each change of an
 * instance's databases section there (its JSON before and after, as for configuration and accelerators), compared with
 * what it stored before, so the events survive a restart and nothing is compared in the alert stage's minute. A row
 * without a "before" (an instance's first report) gives no events.
 */
final class DatabaseChanges {

    /** The {@code instance_changes.section} of a databases change. */
    static final String SECTION = "databases";

    private static final TypeReference<List<DatabaseInfo>> LIST = new TypeReference<>() { };

    private DatabaseChanges() {
    }

    static List<DatabaseEvent> read(Connection c, Database.Kind kind, String host, String instance, Instant since)
            throws SQLException, IOException {
        String written = kind == Database.Kind.POSTGRESQL ? "id" : "rowid";
        List<DatabaseEvent> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT changed_at, old_json, new_json FROM instance_changes"
                + " WHERE host = ? AND instance = ? AND section = '" + SECTION + "' AND changed_at >= ?"
                + " ORDER BY changed_at, " + written)) {
            s.setString(1, host);
            s.setString(2, instance);
            s.setLong(3, since.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    add(rs, 1, out);
                }
            }
        }
        return out;
    }

    /**
     * {@link #read} of several instances, one list per key in the order given. PostgreSQL: one query per chunk of their
     * hosts, since a restart that restores tens of thousands of instances otherwise waits on as many round trips; SQLite
     * (microseconds a query) one instance at a time.
     */
    static List<List<DatabaseEvent>> read(Connection c, Database.Kind kind, List<ReportStore.InstanceKey> keys, Instant since)
            throws SQLException, IOException {
        List<List<DatabaseEvent>> out = new ArrayList<>(keys.size());
        if (kind == Database.Kind.SQLITE) {
            for (ReportStore.InstanceKey k : keys) {
                out.add(read(c, kind, k.host(), k.instance(), since));
            }
            return out;
        }
        Map<String, Map<String, List<DatabaseEvent>>> byHost = new HashMap<>();
        for (ReportStore.InstanceKey k : keys) {
            byHost.computeIfAbsent(k.host(), h -> new HashMap<>()).put(k.instance(), new ArrayList<>());
        }
        List<String> hosts = new ArrayList<>(new TreeSet<>(byHost.keySet()));
        for (int from = 0; from < hosts.size(); from += SqlValues.IN_CHUNK) {
            List<String> chunk = hosts.subList(from, Math.min(hosts.size(), from + SqlValues.IN_CHUNK));
            try (PreparedStatement s = c.prepareStatement("SELECT host, instance, changed_at, old_json, new_json"
                    + " FROM instance_changes WHERE " + SqlValues.in(chunk) + " AND section = '" + SECTION
                    + "' AND changed_at >= ? ORDER BY host, instance, changed_at, id")) {
                SqlValues.bind(s, chunk);
                s.setLong(chunk.size() + 1, since.toEpochMilli());
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        List<DatabaseEvent> events = byHost.get(rs.getString(1)).get(rs.getString(2));
                        if (events != null) {
                            add(rs, 3, events);
                        }
                    }
                }
            }
        }
        for (ReportStore.InstanceKey k : keys) {
            out.add(byHost.get(k.host()).get(k.instance()));
        }
        return out;
    }

    /** The events of the row at {@code rs}, whose changed_at, old_json and new_json start at column {@code at}. */
    private static void add(ResultSet rs, int at, List<DatabaseEvent> into) throws SQLException, IOException {
        String before = rs.getString(at + 1);
        if (before != null) {
            into.addAll(DatabaseEvent.between(SqlValues.readList(before, LIST), SqlValues.readList(rs.getString(at + 2), LIST),
                    Instant.ofEpochMilli(rs.getLong(at))));
        }
    }
}
