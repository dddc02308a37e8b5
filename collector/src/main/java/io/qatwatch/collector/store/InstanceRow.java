package io.qatwatch.collector.store;

import static io.qatwatch.collector.store.SqlValues.setLong;

import io.qatwatch.collector.store.ReportSections.InstanceSections;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The insert of an {@code instances} row from a report's snapshot, its columns and how they are bound: the same for
 * the report-at-a-time writer ({@link SqlReportStore}) and PostgreSQL's batch writer ({@link PostgresReportBatch}),
 * which differ only in their {@code ON CONFLICT} clause.
 */
final class InstanceRow {

    private InstanceRow() {
    }

    static final String INSERT = """
            INSERT INTO instances(host, name, last_seen, server_json, configuration_json, accelerators_json,
              databases_json, running_json, certificates_json, high_water_mark, asymmetric_keys_json)
              VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """;

    /** Binds {@link #INSERT}'s parameters for {@code snap} of {@code host}, seen at {@code now}. */
    static void bind(PreparedStatement s, String host, SqlInstanceSnapshot snap, InstanceSections sections, Instant now)
            throws SQLException {
        s.setString(1, host);
        s.setString(2, snap.name());
        s.setLong(3, now.toEpochMilli());
        s.setString(4, ReportSections.json(sections.server()));
        s.setString(5, ReportSections.json(sections.configuration()));
        s.setString(6, ReportSections.json(sections.accelerators()));
        s.setString(7, ReportSections.json(sections.databases()));
        s.setString(8, ReportSections.json(sections.running()));
        s.setString(9, ReportSections.json(sections.certificates()));
        setLong(s, 10, snap.backupHighWaterMark());
        s.setString(11, ReportSections.json(sections.asymmetricKeys()));
    }
}
