package io.qatwatch.collector.store;

import io.qatwatch.collector.config.Secrets;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;

/**
 * Where the collector keeps its state: the embedded SQLite file ({@link SqliteDatabase}, the default) or a PostgreSQL
 * database that several collectors share ({@link PostgresDatabase}). Each part of the collector that keeps state owns
 * its tables and creates them through {@link #migrate}. Every call is blocking and runs off the event loop.
 *
 * <p>What differs between the two stays here: how connections are lent (SQLite: one writer under a lock and read-only
 * connections beside it; PostgreSQL: a pool), how migrations are serialised, and the few SQL spellings of {@link Kind}.
 */
public interface Database extends AutoCloseable {

    /** Which database, and the SQL spellings that differ between them. */
    enum Kind {
        SQLITE("MAX", "LIKE"),
        POSTGRESQL("GREATEST", "ILIKE");

        private final String greatest;
        private final String likeIgnoringCase;

        Kind(String greatest, String likeIgnoringCase) {
            this.greatest = greatest;
            this.likeIgnoringCase = likeIgnoringCase;
        }

        /** The larger of two values: SQLite's two-argument {@code MAX}, PostgreSQL's {@code GREATEST}. */
        public String greatest(String a, String b) {
            return greatest + "(" + a + ", " + b + ")";
        }

        /** A pattern match ignoring ASCII case: SQLite's {@code LIKE} already does, PostgreSQL's {@code ILIKE}. */
        public String likeIgnoringCase() {
            return likeIgnoringCase;
        }
    }

    /** One unit of work on a connection lent for the call. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException, IOException;
    }

    /** Opens (creating if needed) the embedded store, {@code qatwatch.db} under the data directory. */
    static Database open(Path dataDir) throws SQLException {
        return SqliteDatabase.open(dataDir);
    }

    /**
     * Opens the store {@code config} names: SQLite under {@code dataDir}, or PostgreSQL with its password read through
     * {@code secrets} (a file or the environment, never the YAML).
     */
    static Database open(StoreConfig config, Path dataDir, Secrets secrets) throws SQLException {
        return config.postgresql() ? PostgresDatabase.open(config, secrets) : SqliteDatabase.open(dataDir);
    }

    Kind kind();

    /** Whether the store takes writes: its disk full or the store damaged, as its last failures said. */
    StoreCondition condition();

    /** Where the data is, for messages: the file, or the JDBC URL (never a password). */
    String where();

    /**
     * Runs {@code work} on a connection for writing, in auto-commit mode; the work starts and ends its own
     * transaction when it needs one (see {@link #transaction}). SQLite: its one writer connection, one caller at a
     * time. PostgreSQL: a pooled connection.
     */
    <T> T write(Work<T> work) throws SQLException, IOException;

    /** Runs {@code work} in one transaction on a writing connection: committed when it returns, rolled back when it throws. */
    default <T> T transaction(Work<T> work) throws SQLException, IOException {
        return write(c -> {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | IOException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            } finally {
                try {
                    c.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // a broken connection: the pool drops it, SQLite reports it on the next call
                }
            }
        });
    }

    /**
     * Runs {@code work} on a connection for reading, which sees what was committed and never waits for the writer.
     * Each statement sees what was committed when it started.
     */
    <T> T read(Work<T> work) throws SQLException, IOException;

    /**
     * Brings one component's tables to the newest schema: {@code steps[i]} is the migration from version {@code i}
     * to {@code i + 1}, applied once, in order, with the version it reaches recorded in {@code schema_versions}.
     * Steps are only ever appended; a released step never changes. Several collectors starting together on one
     * PostgreSQL database run each step once.
     *
     * @return the schema version the component had before (0 for a new database)
     */
    int migrate(String component, List<String> steps) throws SQLException;

    @Override
    void close() throws SQLException;

    /**
     * True when {@code e} (or a cause) says the database cannot be reached right now — no connection within the
     * pool's timeout, a broken connection, a server shutting down or starting — rather than that the work is wrong:
     * ingest then answers 503 and the agent keeps the report and sends it again.
     */
    static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now
                if (state.startsWith("08") || state.startsWith("57P")) {
                    return true;
                }
            }
        }
        return false;
    }
}
