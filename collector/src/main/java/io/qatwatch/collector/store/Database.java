package io.qatwatch.collector.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * The collector's embedded SQLite file (WAL). Each part of the collector that keeps state owns its tables
 * and creates them through {@link #migrate}; every call here is blocking and runs off the event loop.
 */
public final class Database implements AutoCloseable {

    private final Path file;
    private final Connection connection;
    private final List<Connection> readers = new ArrayList<>();

    private Database(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    /** Opens (creating if needed) {@code qatwatch.db} under the data directory. */
    public static Database open(Path dataDir) throws SQLException {
        try {
            Files.createDirectories(dataDir);
        } catch (java.io.IOException e) {
            throw new SQLException("cannot create data directory " + dataDir + ": " + e.getMessage(), e);
        }
        Path file = dataDir.resolve("qatwatch.db");
        SQLiteConfig config = new SQLiteConfig();
        // no "SELECT last_insert_rowid()" after every INSERT: nothing here reads generated keys
        config.setGetGeneratedKeys(false);
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            // FULL: a 202 tells the agent to delete its copy, so the commit must survive a power cut, not only a crash
            s.execute("PRAGMA synchronous=FULL");
            s.execute("PRAGMA foreign_keys=ON");
            s.execute("PRAGMA busy_timeout=5000");
        }
        return new Database(file, c);
    }

    public Path file() {
        return file;
    }

    /**
     * The single connection. SQLite serialises writers anyway; callers synchronise on this object
     * (or run on the store's single worker) so statements never interleave.
     */
    public Connection connection() {
        return connection;
    }

    /**
     * A new read-only connection, for reads that need not see the writer's open transaction (the fleet, backup
     * history, tokens). In WAL mode a reader never waits for the writer nor the writer for it, so a long read (the
     * alert stage loading the whole fleet) cannot stall ingest. Each statement sees what was committed when it
     * started. The caller owns it (one thread at a time); it is closed with this database.
     */
    public synchronized Connection openReader() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setGetGeneratedKeys(false);
        config.setBusyTimeout(5000);
        Connection reader = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        readers.add(reader);
        return reader;
    }

    /**
     * Brings one component's tables to the newest schema: {@code steps[i]} is the migration from version {@code i}
     * to {@code i + 1}, applied once, in order, each in its own transaction with the version it reaches recorded in
     * {@code schema_versions}. Steps are only ever appended; a released step never changes.
     *
     * @return the schema version the component had before (0 for a new database)
     */
    public synchronized int migrate(String component, List<String> steps) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)");
        }
        int current = 0;
        try (PreparedStatement q = connection.prepareStatement("SELECT version FROM schema_versions WHERE component = ?")) {
            q.setString(1, component);
            try (ResultSet rs = q.executeQuery()) {
                if (rs.next()) {
                    current = rs.getInt(1);
                }
            }
        }
        if (current > steps.size()) {
            throw new SQLException(file + ": the " + component + " tables are at schema version " + current
                    + ", newer than this qatwatch (" + steps.size() + "); run the newer qatwatch or restore a backup");
        }
        for (int version = current; version < steps.size(); version++) {
            connection.setAutoCommit(false);
            try (Statement s = connection.createStatement();
                 PreparedStatement record = connection.prepareStatement(
                         "INSERT INTO schema_versions(component, version) VALUES (?, ?) "
                                 + "ON CONFLICT(component) DO UPDATE SET version = excluded.version")) {
                for (String statement : steps.get(version).split(";\\s*\\n")) {
                    if (!statement.isBlank()) {
                        s.execute(statement);
                    }
                }
                record.setString(1, component);
                record.setInt(2, version + 1);
                record.executeUpdate();
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw new SQLException(file + ": migrating " + component + " to schema version " + (version + 1)
                        + " failed: " + e.getMessage(), e);
            } finally {
                connection.setAutoCommit(true);
            }
        }
        return current;
    }

    /** Runs idempotent DDL ({@code CREATE TABLE IF NOT EXISTS ...}) for one component. */
    public synchronized void migrate(String... ddl) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String statement : ddl) {
                s.execute(statement);
            }
        }
    }

    @Override
    public synchronized void close() throws SQLException {
        for (Connection reader : readers) {
            reader.close();
        }
        readers.clear();
        connection.close();
    }
}
