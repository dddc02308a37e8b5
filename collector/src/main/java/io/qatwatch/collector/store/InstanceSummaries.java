package io.qatwatch.collector.store;

import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.PGStatement;

/**
 * The {@code instance_summaries} table (issue 33): per instance, what the alert stage keeps of its backups, written as
 * it changes so a restart reads kilobytes per instance instead of every backup row. The rows stay the truth: a summary
 * is only ever a shortcut the stage checks (its format, the sections it was made with) and replaces.
 */
final class InstanceSummaries {

    /** The migration component that creates it, on each database. */
    static final String COMPONENT = "instance-summaries";

    private InstanceSummaries() {
    }

    /** The steps of {@link #COMPONENT} for {@code kind}. */
    static List<String> steps(Database.Kind kind) {
        boolean pg = kind == Database.Kind.POSTGRESQL;
        String text = pg ? "TEXT COLLATE \"C\"" : "TEXT";
        String big = pg ? "BIGINT" : "INTEGER";
        return List.of("CREATE TABLE instance_summaries (\n"
                + "  host " + text + " NOT NULL,\n"
                + "  instance " + text + " NOT NULL,\n"
                + "  format INTEGER NOT NULL,\n"
                + "  position " + big + " NOT NULL,\n"
                + "  sections_seq " + big + " NOT NULL,\n"
                + "  written_at " + big + " NOT NULL,\n"
                + "  body " + (pg ? "BYTEA" : "BLOB") + " NOT NULL,\n"
                + "  PRIMARY KEY (host, instance))");
    }

    private static final String UPSERT = "INSERT INTO instance_summaries(host, instance, format, position, sections_seq, "
            + "written_at, body) VALUES (?,?,?,?,?,?,?) ON CONFLICT(host, instance) DO UPDATE SET format = excluded.format, "
            + "position = excluded.position, sections_seq = excluded.sections_seq, written_at = excluded.written_at, "
            + "body = excluded.body";

    /** Replaces the summaries of {@code summaries}' instances, in the caller's transaction. */
    static void write(Connection c, List<InstanceSummary> summaries) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(UPSERT)) {
            for (InstanceSummary x : summaries) {
                s.setString(1, x.host());
                s.setString(2, x.instance());
                s.setInt(3, x.format());
                s.setLong(4, x.position());
                s.setLong(5, x.sectionsSeq());
                s.setLong(6, x.writtenAt().toEpochMilli());
                s.setBytes(7, x.body());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /**
     * Hands each summary of the hosts {@code only} selects to {@code each}, one row at a time, so the whole table is never
     * held at once; on PostgreSQL only those hosts' rows are read (by their slices).
     */
    static void read(Connection c, Database.Kind kind, HostSelection only, ReportStore.SummaryReader each)
            throws SQLException {
        boolean pg = kind == Database.Kind.POSTGRESQL;
        if (pg) {
            // a cursor: PostgreSQL's driver fetches every row at once unless in a transaction with a fetch size
            c.setAutoCommit(false);
        }
        try (PreparedStatement s = select(c, kind, only); ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                String host = rs.getString(1);
                if (!only.test(host)) {
                    continue;
                }
                each.take(new InstanceSummary(host, rs.getString(2), rs.getInt(3), rs.getLong(4), rs.getLong(5),
                        java.time.Instant.ofEpochMilli(rs.getLong(6)), rs.getBytes(7)));
            }
        } finally {
            if (pg) {
                c.commit();
                c.setAutoCommit(true);
            }
        }
    }

    /**
     * The statement {@link #read} reads with. On PostgreSQL the bodies come in binary: as text the server sends each
     * body hex-encoded (twice its bytes) and the driver decodes it again. The driver asks for binary only on a statement
     * it has prepared on the server, which it does from the fifth execution unless forced (a negative threshold); a
     * restart executes this once.
     */
    static PreparedStatement select(Connection c, Database.Kind kind, HostSelection only) throws SQLException {
        boolean pg = kind == Database.Kind.POSTGRESQL;
        boolean some = pg && !only.all();
        PreparedStatement s = c.prepareStatement("SELECT host, instance, format, position, sections_seq, written_at, body"
                + " FROM instance_summaries" + (some ? " WHERE " + HostSliceColumn.hostIn("host") : ""));
        try {
            s.setFetchSize(256);
            if (pg) {
                s.unwrap(PGStatement.class).setPrepareThreshold(-1);
            }
            if (some) {
                HostSliceColumn.bind(s, 1, only);
            }
            return s;
        } catch (SQLException e) {
            s.close();
            throw e;
        }
    }

    /** Deletes the summaries of instances the store no longer has (a host or instance removed, pruned). */
    static int prune(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM instance_summaries WHERE NOT EXISTS (SELECT 1 FROM instances i"
                + " WHERE i.host = instance_summaries.host AND i.name = instance_summaries.instance)")) {
            return s.executeUpdate();
        }
    }
}
