package io.qatwatch.collector.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.qatwatch.collector.config.Secrets;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A PostgreSQL database that several collectors share: a HikariCP pool of plain JDBC connections (pgjdbc). Writes
 * and reads borrow a connection for the call; the unique keys that make ingest exactly-once are the database's, so
 * they hold across collectors. Migrations take a transaction-scoped advisory lock, so collectors that start together
 * run each step once.
 */
public final class PostgresDatabase implements Database {

    /** The advisory lock key every qatwatch migration takes ("qatwatch" in ASCII). */
    static final long MIGRATION_LOCK = 0x7161747761746368L;

    private final String url;
    private final HikariDataSource pool;
    private final StoreCondition condition;

    private PostgresDatabase(String url, HikariDataSource pool) {
        this.url = url;
        this.pool = pool;
        this.condition = new StoreCondition(url, java.time.Clock.systemUTC());
    }

    /** Opens the pool and checks that a connection can be had; the password comes from a file or the environment. */
    public static PostgresDatabase open(StoreConfig config, Secrets secrets) throws SQLException {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("qatwatch-store");
        hikari.setJdbcUrl(config.url());
        hikari.setUsername(config.user());
        char[] password = secrets.read(config.passwordFile(), config.passwordEnv(), "store.passwordFile");
        if (password != null) {
            hikari.setPassword(new String(password));
        }
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(Math.min(2, config.poolSize()));
        // a request waits at most this long for a connection; then ingest answers 503 and the agent retries later
        hikari.setConnectionTimeout(5_000);
        hikari.setValidationTimeout(2_000);
        hikari.setInitializationFailTimeout(10_000);
        // JSON sections are bound as strings and typed by their jsonb columns
        hikari.addDataSourceProperty("stringtype", "unspecified");
        hikari.addDataSourceProperty("ApplicationName", "qatwatch-collector");
        hikari.addDataSourceProperty("tcpKeepAlive", "true");
        try {
            return new PostgresDatabase(config.url(), new HikariDataSource(hikari));
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new SQLException(config.url() + " as " + config.user() + ": cannot connect (" + cause.getMessage()
                    + "); check store.url, store.user and the password, and that PostgreSQL accepts this host", e);
        }
    }

    @Override
    public Kind kind() {
        return Kind.POSTGRESQL;
    }

    @Override
    public String where() {
        return url;
    }

    @Override
    public StoreCondition condition() {
        return condition;
    }

    @Override
    public <T> T write(Work<T> work) throws SQLException, IOException {
        condition.refuseWriteIfDamaged();
        return lend(work);
    }

    @Override
    public <T> T read(Work<T> work) throws SQLException, IOException {
        return lend(work);
    }

    private <T> T lend(Work<T> work) throws SQLException, IOException {
        try (Connection c = pool.getConnection()) {
            return condition.observing(work, c);
        } catch (SQLException e) {
            if (e.getSQLState() == null && "Connection is closed".equals(e.getMessage())) {
                // the pool closed a connection it found broken (the server went away) under the work: say so
                throw new SQLException("connection to " + url + " lost", "08003", e);
            }
            throw e;
        }
    }

    /**
     * All of one component's missing steps in one transaction (PostgreSQL's DDL is transactional) under the migration
     * lock: a collector that starts while another migrates waits, then finds the steps done. A step may hold several
     * statements, and PL/pgSQL bodies in dollar quotes; the driver splits them.
     */
    @Override
    public int migrate(String component, List<String> steps) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
                s.execute("CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)");
                int current = 0;
                try (PreparedStatement q = c.prepareStatement("SELECT version FROM schema_versions WHERE component = ?")) {
                    q.setString(1, component);
                    try (ResultSet rs = q.executeQuery()) {
                        if (rs.next()) {
                            current = rs.getInt(1);
                        }
                    }
                }
                if (current > steps.size()) {
                    throw new SQLException(url + ": the " + component + " tables are at schema version " + current
                            + ", newer than this qatwatch (" + steps.size() + "); run the newer qatwatch on every collector");
                }
                for (int version = current; version < steps.size(); version++) {
                    try {
                        s.execute(steps.get(version));
                    } catch (SQLException e) {
                        throw new SQLException(url + ": migrating " + component + " to schema version " + (version + 1)
                                + " failed: " + e.getMessage(), e);
                    }
                }
                if (current < steps.size()) {
                    try (PreparedStatement record = c.prepareStatement(
                            "INSERT INTO schema_versions(component, version) VALUES (?, ?) "
                                    + "ON CONFLICT(component) DO UPDATE SET version = excluded.version")) {
                        record.setString(1, component);
                        record.setInt(2, steps.size());
                        record.executeUpdate();
                    }
                }
                c.commit();
                return current;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
