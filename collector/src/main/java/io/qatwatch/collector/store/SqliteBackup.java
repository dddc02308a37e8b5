package io.qatwatch.collector.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * A consistent copy of the embedded store while the collector runs: {@code VACUUM INTO} reads the file in one read
 * transaction (WAL: the collector's writer neither waits for it nor is seen half-way), writes a compact new file, and
 * the copy is checked ({@code PRAGMA quick_check}) before it is called good.
 */
public final class SqliteBackup {

    /** What was copied: the copy, its size, a few row counts and how long it took. */
    public record Copy(Path file, long bytes, Map<String, Long> rows, long millis) {
    }

    private SqliteBackup() {
    }

    /** Copies {@code store} (a qatwatch.db, in use or not) to {@code to}, which must not exist yet. */
    public static Copy copy(Path store, Path to) throws SQLException, IOException {
        if (!Files.isRegularFile(store)) {
            throw new IOException("no store at " + store + " (give --data DIR)");
        }
        if (Files.exists(to)) {
            throw new IOException(to + " exists already; name a new file (a backup never overwrites one)");
        }
        Path parent = to.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        long started = System.nanoTime();
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(10_000);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store, config.toProperties());
             PreparedStatement vacuum = c.prepareStatement("VACUUM INTO ?")) {
            vacuum.setString(1, to.toAbsolutePath().toString());
            vacuum.execute();
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + to, config.toProperties());
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
                String verdict = rs.next() ? rs.getString(1) : "no answer";
                if (!"ok".equals(verdict)) {
                    throw new SQLException(to + ": the copy failed its check (" + verdict + "); it is not a backup");
                }
            }
            for (String table : new String[] {"hosts", "reports", "backups", "alert_state", "tokens"}) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.put(table, rs.next() ? rs.getLong(1) : 0);
                } catch (SQLException missing) {
                    // a store that never ran that part of the collector has no such table
                }
            }
        }
        return new Copy(to, Files.size(to), rows, (System.nanoTime() - started) / 1_000_000);
    }
}
