package io.qatwatch.collector.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The collector's embedded SQLite file (WAL). Each part of the collector that keeps state owns its tables
 * and creates them through {@link #migrate}; every call here is blocking and runs off the event loop.
 */
public final class Database implements AutoCloseable {

    private final Path file;
    private final Connection connection;

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
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
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
        connection.close();
    }
}
