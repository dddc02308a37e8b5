package io.qatwatch.collector.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of the SQLite file before the collector takes a report into it: {@code PRAGMA quick_check} (every page
 * and record read, indexes not compared with their tables; docs/benchmarks.md gives its time per GB). A damaged file
 * is refused with what to do, rather than written on.
 */
final class SqliteStartupCheck {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteStartupCheck.class);
    /** Problems quoted in the refusal; quick_check stops after these. */
    private static final int QUOTED = 5;

    private SqliteStartupCheck() {
    }

    /** Throws the refusal when {@code c}'s file is damaged; logs how long the check took. */
    static void check(Connection c, Path file) throws SQLException {
        long started = System.nanoTime();
        List<String> found = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA quick_check(" + QUOTED + ")")) {
            while (rs.next()) {
                found.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw damaged(file, e);
        }
        if (!found.equals(List.of("ok"))) {
            throw damaged(file, new SQLException(String.join("; ", found)));
        }
        LOG.info("{}: integrity checked (PRAGMA quick_check) in {} ms", file, (System.nanoTime() - started) / 1_000_000);
    }

    /** The refusal of a damaged file (or of one that is no SQLite database): what was found and what to do. */
    static SQLException damaged(Path file, SQLException found) {
        return new SQLException(file + " is damaged (" + found.getMessage() + "); the collector does not start on a "
                + "damaged store. Move it aside with its -wal and -shm files, then put the last copy made by "
                + "'qatwatch collector store backup --to FILE' in its place and start again (or start without it for "
                + "a new, empty store: agents send again what their outboxes still hold); 'sqlite3 FILE .recover' "
                + "may salvage rows from the damaged file", "XX001", found);
    }
}
