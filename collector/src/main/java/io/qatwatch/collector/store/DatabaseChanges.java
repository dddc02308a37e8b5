package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an instance's {@link DatabaseEvent}s from {@code instance_changes}: at ingest the store keeps each change of an
 * instance's databases section there (its JSON before and after, as for configuration and accelerators), compared with
 * what it stored before, so the events survive a restart and nothing is compared in the alert stage's minute. A row
 * without a "before" (an instance's first report) gives no events.
 */
final class DatabaseChanges {

    /** The {@code instance_changes.section} of a databases change. */
    static final String SECTION = "databases";

    private static final ObjectMapper JSON = ReportJson.mapper();
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
                    String before = rs.getString(2);
                    if (before != null) {
                        out.addAll(DatabaseEvent.between(JSON.readValue(before, LIST), JSON.readValue(rs.getString(3), LIST),
                                Instant.ofEpochMilli(rs.getLong(1))));
                    }
                }
            }
        }
        return out;
    }
}
