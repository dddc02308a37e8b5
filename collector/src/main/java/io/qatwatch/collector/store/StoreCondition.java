package io.qatwatch.collector.store;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the store can take writes, from what its last failures said: its disk is full ({@code SQLITE_FULL},
 * PostgreSQL's {@code 53100}) until a report is stored again, or it is damaged ({@code SQLITE_CORRUPT},
 * {@code SQLITE_NOTADB}, PostgreSQL's {@code XX001}/{@code XX002}) until the collector is restarted on a sound store.
 * Ingest answers 503 for either (nothing is written on a damaged store), {@code /healthz} fails and {@code /metrics}
 * says which.
 */
public final class StoreCondition {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCondition.class);

    /** What is wrong with the store; {@link #label} is the {@code /healthz} and metrics spelling. */
    public enum Problem {
        FULL("store_full"), CORRUPT("store_corrupt");

        private final String label;

        Problem(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A problem, since when, and the database's own words. */
    public record State(Problem problem, Instant since, String detail) {
    }

    private final String where;
    private final Clock clock;
    private volatile State state;

    public StoreCondition(String where, Clock clock) {
        this.where = where;
        this.clock = clock;
    }

    /** The store's problem now, if it has one. */
    public Optional<State> problem() {
        return Optional.ofNullable(state);
    }

    /** True when nothing may be written: the store is damaged. */
    public boolean damaged() {
        State s = state;
        return s != null && s.problem() == Problem.CORRUPT;
    }

    /** Notes a failure when it says the disk is full or the store damaged; returns that problem, if any. */
    public Optional<Problem> failed(Throwable e) {
        Problem p = problemOf(e);
        if (p == null) {
            return Optional.empty();
        }
        synchronized (this) {
            State s = state;
            if (s == null || (s.problem() == Problem.FULL && p == Problem.CORRUPT)) {
                state = new State(p, clock.instant(), message(e));
                if (p == Problem.FULL) {
                    LOG.error("{}: the disk is full ({}); reports are refused with 503 (agents keep them) until there "
                            + "is space again; free space on that file system", where, message(e));
                } else {
                    LOG.error("{}: the store is damaged ({}); nothing more is written: reports are refused with 503 "
                            + "(agents keep them) and /healthz fails. Stop the collector and restore the last backup "
                            + "(docs/collector.md, Store)", where, message(e));
                }
            }
        }
        return Optional.of(p);
    }

    /** A report was stored: a full disk has space again (a damaged store stays damaged). */
    public void stored() {
        State s = state;
        if (s != null && s.problem() == Problem.FULL) {
            synchronized (this) {
                if (state != null && state.problem() == Problem.FULL) {
                    LOG.info("{}: the store takes writes again (full since {})", where, state.since());
                    state = null;
                }
            }
        }
    }

    /** Runs {@code work} on {@code c}, noting a failure that says the disk is full or the store damaged. */
    <T> T observing(Database.Work<T> work, Connection c) throws SQLException, IOException {
        try {
            return work.run(c);
        } catch (SQLException | IOException | RuntimeException e) {
            failed(e);
            throw e;
        }
    }

    /** Throws instead of letting a write reach a damaged store. */
    void refuseWriteIfDamaged() throws SQLException {
        State s = state;
        if (s != null && s.problem() == Problem.CORRUPT) {
            throw new SQLException(where + ": the store is damaged (" + s.detail() + ", since " + s.since()
                    + "); nothing more is written until the collector restarts on a sound store", "XX001");
        }
    }

    /** The problem a failure (or one of its causes) reports, or null. */
    static Problem problemOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if ("53100".equals(state)) {
                    return Problem.FULL;
                }
                if ("XX001".equals(state) || "XX002".equals(state)) {
                    return Problem.CORRUPT;
                }
                if (t.getClass().getName().startsWith("org.sqlite.")) {
                    // the primary result code is the low byte of SQLite's extended code
                    switch (sql.getErrorCode() & 0xff) {
                        case 13:
                            return Problem.FULL;
                        case 11, 26:
                            return Problem.CORRUPT;
                        default:
                            break;
                    }
                }
            }
        }
        return null;
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.toString() : m;
    }
}
