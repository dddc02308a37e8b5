package io.qatwatch.collector.store;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * Leases on the {@link HostSlices} of the fleet, in PostgreSQL, so that several collectors on one store split the
 * alert stage: each evaluates and notifies for the hosts of the slices it leases. A collector renews its leases
 * (and its heartbeat in {@code collectors}) every few seconds; one that dies stops renewing, and once its leases
 * expire the others take its slices at their next balancing. Balancing gives each live collector an even share:
 * it takes free or expired slices up to its share and lets go of what it holds above it. Expiry is judged by the
 * database's clock, never by the collectors'.
 */
public final class SliceLeases {

    private final Database db;
    private final String owner;
    private final long ttlMillis;

    /** Leases of {@code owner} (unique per running collector) lasting {@code ttl} after each renewal. */
    public SliceLeases(Database db, String owner, Duration ttl) {
        this.db = db;
        this.owner = owner;
        this.ttlMillis = ttl.toMillis();
    }

    public String owner() {
        return owner;
    }

    /** Creates the lease tables once (component {@code alert-slices}), one row per slice. */
    public void migrate() throws SQLException {
        db.migrate("alert-slices", List.of("""
                CREATE TABLE alert_slices (slice INTEGER PRIMARY KEY, owner TEXT, expires_at TIMESTAMPTZ);
                INSERT INTO alert_slices(slice) SELECT generate_series(0, %d);
                CREATE TABLE collectors (id TEXT PRIMARY KEY, seen_at TIMESTAMPTZ NOT NULL)""".formatted(HostSlices.COUNT - 1)));
    }

    /** Renews this collector's heartbeat and leases; returns the slices it still holds. */
    public Set<Integer> renew() throws SQLException {
        return run(c -> {
            heartbeat(c);
            return slices(c, "UPDATE alert_slices SET expires_at = clock_timestamp() + ? * interval '1 millisecond' "
                    + "WHERE owner = ? AND expires_at > clock_timestamp() RETURNING slice", ttlMillis, owner);
        });
    }

    /**
     * Renews, then evens out: with {@code n} live collectors each should hold {@code ceil(COUNT / n)} slices; this one
     * lets go of slices above its share that {@code mayRelease} allows (none with a notification still in flight)
     * and takes free or expired ones up to it. Returns the slices it holds afterwards.
     */
    public Set<Integer> balance(IntPredicate mayRelease) throws SQLException {
        return run(c -> {
            c.setAutoCommit(false);
            try {
                heartbeat(c);
                int live;
                try (PreparedStatement s = c.prepareStatement(
                        "SELECT count(*) FROM collectors WHERE seen_at > clock_timestamp() - ? * interval '1 millisecond'")) {
                    s.setLong(1, ttlMillis);
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                        live = Math.max(1, rs.getInt(1));
                    }
                }
                int share = (HostSlices.COUNT + live - 1) / live;
                Set<Integer> held = slices(c, "UPDATE alert_slices SET expires_at = clock_timestamp() + ? * interval "
                        + "'1 millisecond' WHERE owner = ? AND expires_at > clock_timestamp() RETURNING slice", ttlMillis, owner);
                if (held.size() > share) {
                    List<Integer> excess = new ArrayList<>(new TreeSet<>(held).descendingSet());
                    for (int slice : excess.subList(0, held.size() - share)) {
                        if (mayRelease.test(slice)) {
                            release(c, slice);
                            held.remove(slice);
                        }
                    }
                } else if (held.size() < share) {
                    held.addAll(slices(c, """
                            UPDATE alert_slices SET owner = ?, expires_at = clock_timestamp() + ? * interval '1 millisecond'
                            WHERE slice IN (SELECT slice FROM alert_slices
                              WHERE owner IS NULL OR expires_at IS NULL OR expires_at <= clock_timestamp()
                              ORDER BY slice LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING slice""",
                            owner, ttlMillis, share - held.size()));
                }
                c.commit();
                return held;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /** Lets go of every slice and the heartbeat (a clean stop): the others take the slices at their next balancing. */
    public void releaseAll() throws SQLException {
        run(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE alert_slices SET owner = NULL, expires_at = NULL WHERE owner = ?");
                 PreparedStatement d = c.prepareStatement("DELETE FROM collectors WHERE id = ?")) {
                s.setString(1, owner);
                s.executeUpdate();
                d.setString(1, owner);
                d.executeUpdate();
            }
            return null;
        });
    }

    /** Who holds each slice now (unexpired leases only), for tests and the log. */
    public Map<Integer, String> owners() throws SQLException {
        return run(c -> {
            Map<Integer, String> out = new TreeMap<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT slice, owner FROM alert_slices WHERE expires_at > clock_timestamp()");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getString(2));
                }
            }
            return out;
        });
    }

    /**
     * The slices {@code owner} holds unexpired, locked against a takeover until the caller's transaction ends: what a
     * fenced write may touch.
     */
    public static Set<Integer> lockHeld(Connection c, String owner) throws SQLException {
        return slices(c, "SELECT slice FROM alert_slices WHERE owner = ? AND expires_at > clock_timestamp() FOR SHARE", owner);
    }

    private void heartbeat(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO collectors(id, seen_at) VALUES (?, clock_timestamp()) "
                + "ON CONFLICT(id) DO UPDATE SET seen_at = excluded.seen_at");
             PreparedStatement gone = c.prepareStatement(
                     "DELETE FROM collectors WHERE seen_at < clock_timestamp() - ? * interval '1 millisecond'")) {
            s.setString(1, owner);
            s.executeUpdate();
            gone.setLong(1, 10 * ttlMillis);
            gone.executeUpdate();
        }
    }

    private static void release(Connection c, int slice) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE alert_slices SET owner = NULL, expires_at = NULL WHERE slice = ?")) {
            s.setInt(1, slice);
            s.executeUpdate();
        }
    }

    private static Set<Integer> slices(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            Set<Integer> out = new TreeSet<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getInt(1));
                }
            }
            return out;
        }
    }

    private <T> T run(Database.Work<T> work) throws SQLException {
        try {
            return db.write(work);
        } catch (IOException e) {
            throw new SQLException(e);
        }
    }
}
