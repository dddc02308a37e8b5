package io.qatwatch.collector.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The collector's embedded SQLite file (WAL): one writer connection, which callers take in turn, and read-only
 * connections beside it that never wait for the writer nor it for them.
 *
 * <p>Two things keep ingest's commits short while the alert stage writes thousands of alert rows (issue 21's 3 s
 * stall at 1,000 reports/s): callers take the writer <em>in turn</em> (a fair lock: the alert stage's chunks and
 * ingest's group commits alternate, where the JVM's monitor let one caller re-enter ahead of a waiting one), and
 * WAL checkpoints run on a thread and connection of their own instead of inside whichever commit crossed SQLite's
 * auto-checkpoint threshold, where copying the WAL into the database and its disk flush held every writer.
 */
public final class SqliteDatabase implements Database {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteDatabase.class);
    /** How often the checkpointer copies the WAL into the database when there is something to copy. */
    static final long CHECKPOINT_EVERY_MILLIS = 200;
    /** WAL frames (pages) from which the checkpointer makes sure the WAL restarts: SQLite's auto-checkpoint default. */
    static final int RESTART_FRAMES = 1000;

    private final Path file;
    private final Connection connection;
    /** The writer connection, lent first come, first served. */
    private final ReentrantLock writer = new ReentrantLock(true);
    private final Thread checkpointer;
    private volatile boolean closing;
    /** Read-only connections not lent right now; one is opened when all are lent. */
    private final Deque<Connection> idleReaders = new ArrayDeque<>();
    private final List<Connection> readers = new ArrayList<>();
    private final StoreCondition condition;

    private SqliteDatabase(Path file, Connection connection, Connection checkpoints) {
        this.file = file;
        this.condition = new StoreCondition(file.toString(), java.time.Clock.systemUTC());
        this.connection = connection;
        this.checkpointer = new Thread(() -> checkpoints(checkpoints), "qatwatch-sqlite-checkpoint");
        checkpointer.setDaemon(true);
        checkpointer.start();
    }

    /** Opens (creating if needed) {@code qatwatch.db} under the data directory. */
    public static SqliteDatabase open(Path dataDir) throws SQLException {
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
            // checkpoints are the checkpointer's (below), not the committing writer's
            s.execute("PRAGMA wal_autocheckpoint=0");
        } catch (SQLException e) {
            c.close();
            // a file that is no database at all fails its first statement
            throw StoreCondition.problemOf(e) == StoreCondition.Problem.CORRUPT ? SqliteStartupCheck.damaged(file, e) : e;
        }
        try {
            SqliteStartupCheck.check(c, file);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        Connection checkpoints = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        try (Statement s = checkpoints.createStatement()) {
            // its disk flushes as durable as the writer's commits
            s.execute("PRAGMA synchronous=FULL");
            s.execute("PRAGMA busy_timeout=5000");
        }
        return new SqliteDatabase(file, c, checkpoints);
    }

    /**
     * Copies committed WAL frames into the database every {@link #CHECKPOINT_EVERY_MILLIS} ms. PASSIVE: it waits for
     * no writer or reader, copying what was committed when it started. Under a steady stream of commits it never
     * catches up with the end of the WAL, and only a WAL wholly copied is restarted by the next transaction; so when
     * the WAL holds {@link #RESTART_FRAMES} or more, it copies the few frames since once more holding the writer,
     * which lets the writer's next transaction restart the WAL. Runs until {@link #close}; closes its connection.
     */
    private void checkpoints(Connection c) {
        try (c; Statement s = c.createStatement()) {
            // said once while checkpoints keep failing (a full disk fails one every 200 ms), and when they work again
            boolean failing = false;
            while (!closing) {
                try {
                    if (checkpoint(s) >= RESTART_FRAMES) {
                        writer.lock();
                        try {
                            checkpoint(s);
                        } finally {
                            writer.unlock();
                        }
                    }
                    if (failing) {
                        LOG.info("{}: WAL checkpoints work again", file);
                        failing = false;
                    }
                } catch (SQLException e) {
                    if (!closing && !failing) {
                        LOG.warn("{}: WAL checkpoint failed (retried every {} ms; said again when it works): {}", file,
                                CHECKPOINT_EVERY_MILLIS, e.getMessage());
                        failing = true;
                    }
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(CHECKPOINT_EVERY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        } catch (SQLException e) {
            LOG.warn("{}: closing the checkpoint connection failed: {}", file, e.getMessage());
        }
    }

    /** One PASSIVE checkpoint; returns the frames in the WAL. */
    private static int checkpoint(Statement s) throws SQLException {
        // the pragma answers a row; until it is read and closed the statement holds a read transaction, and a
        // reader's snapshot keeps the WAL from ever restarting
        try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            return rs.next() ? rs.getInt(2) : 0;
        }
    }

    public Path file() {
        return file;
    }

    @Override
    public Kind kind() {
        return Kind.SQLITE;
    }

    @Override
    public String where() {
        return file.toString();
    }

    @Override
    public StoreCondition condition() {
        return condition;
    }

    /** The single writer connection, one caller at a time in the order they asked: SQLite serialises writers anyway. */
    @Override
    public <T> T write(Work<T> work) throws SQLException, IOException {
        writer.lock();
        try {
            condition.refuseWriteIfDamaged();
            return condition.observing(work, connection);
        } finally {
            writer.unlock();
        }
    }

    /** Callers waiting for the writer now (for tests). */
    int writersWaiting() {
        return writer.getQueueLength();
    }

    /**
     * A read-only connection: in WAL mode a reader never waits for the writer nor the writer for it, so a long read
     * (the alert stage loading the whole fleet) cannot stall ingest, and a read never sees the writer's open
     * transaction.
     */
    @Override
    public <T> T read(Work<T> work) throws SQLException, IOException {
        Connection reader = lendReader();
        try {
            return condition.observing(work, reader);
        } finally {
            synchronized (idleReaders) {
                if (readers.contains(reader)) {
                    idleReaders.push(reader);
                }
            }
        }
    }

    private Connection lendReader() throws SQLException {
        synchronized (idleReaders) {
            Connection idle = idleReaders.poll();
            if (idle != null) {
                return idle;
            }
            SQLiteConfig config = new SQLiteConfig();
            config.setReadOnly(true);
            config.setGetGeneratedKeys(false);
            config.setBusyTimeout(5000);
            Connection reader = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
            readers.add(reader);
            return reader;
        }
    }

    /** Each step in its own transaction, its statements separated by a semicolon at the end of a line. */
    @Override
    public int migrate(String component, List<String> steps) throws SQLException {
        writer.lock();
        try {
            return migrateLocked(component, steps);
        } finally {
            writer.unlock();
        }
    }

    private int migrateLocked(String component, List<String> steps) throws SQLException {
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

    @Override
    public void close() throws SQLException {
        closing = true;
        checkpointer.interrupt();
        try {
            checkpointer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.lock();
        try {
            synchronized (idleReaders) {
                for (Connection reader : readers) {
                    reader.close();
                }
                readers.clear();
                idleReaders.clear();
            }
            connection.close();
        } finally {
            writer.unlock();
        }
    }
}
