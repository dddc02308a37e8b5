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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases on the {@link HostSlices} of the fleet, in PostgreSQL, so that several collectors on one store split the
 * alert stage: each evaluates and notifies for the hosts of the slices it leases. A collector renews its leases
 * (and its heartbeat in {@code collectors}) every few seconds; one that dies stops renewing, and once its leases
 * expire the others take its slices at their next balancing. Balancing gives each live collector an even share:
 * it takes free or expired slices up to its share and lets go of what it holds above it. Expiry is judged by the
 * database's clock, never by the collectors'.
 *
 * <p>Each acquisition of a slice raises its {@code epoch}; renewing keeps it. A lease that lapsed and was taken again
 * (by another collector and back, or by this one straight after its own expiry) therefore comes back with a new epoch,
 * so the alert stage can tell "held all along" from "held again" and fence writes by (slice, epoch). Locally the leases
 * count as held only until one lease after the start of the renewal that confirmed them, by the monotonic clock: a
 * collector resuming from a pause knows at once that it may no longer hold them.
 */
public final class SliceLeases {

    private static final Logger LOG = LoggerFactory.getLogger(SliceLeases.class);

    private final Database db;
    private final String owner;
    private final long ttlMillis;
    /** What the latest renewal confirmed (slice to epoch), and when that renewal started ({@link System#nanoTime}). */
    private Map<Integer, Long> held = Map.of();
    private long confirmedAtNanos;
    private volatile Map<Integer, Long> heldUntil = Map.of();
    private volatile long validUntilNanos;

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
                CREATE TABLE collectors (id TEXT PRIMARY KEY, seen_at TIMESTAMPTZ NOT NULL)""".formatted(HostSlices.COUNT - 1),
                // each acquisition a new epoch: "held again" differs from "held all along" (issue 34)
                "ALTER TABLE alert_slices ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0"));
    }

    /**
     * Writes this collector's heartbeat and takes nothing: a collector starting announces itself first, so that the
     * others starting with it (a restart of all of them) count it when they take their share, and it counts them.
     */
    public synchronized void announce() throws SQLException {
        run(c -> {
            heartbeat(c);
            return null;
        });
    }

    /** Renews this collector's heartbeat and leases; returns the slices it still holds. */
    public Set<Integer> renew() throws SQLException {
        return new TreeSet<>(renewLeases().keySet());
    }

    /** As {@link #renew()}, with each slice's epoch. */
    public synchronized Map<Integer, Long> renewLeases() throws SQLException {
        long started = System.nanoTime();
        Map<Integer, Long> renewed = run(c -> {
            heartbeat(c);
            return leases(c, RENEW, ttlMillis, owner);
        });
        confirmed(started, renewed, renewed);
        return renewed;
    }

    /**
     * The slices held now as far as this process knows without asking the database: what the latest renewal confirmed,
     * or nothing once a lease has passed since that renewal started (the collector was paused, or cannot reach the
     * database).
     */
    public Map<Integer, Long> heldNow() {
        return System.nanoTime() - validUntilNanos < 0 ? heldUntil : Map.of();
    }

    /**
     * Records a renewal that started at {@code started}: {@code renewed} are the leases it found still held (renewed in
     * place), {@code now} all it holds afterwards. Leases held before and not renewed lapsed: that is logged, with the
     * time since the last confirmation (a pause shows as a gap well over a lease).
     */
    private void confirmed(long started, Map<Integer, Long> renewed, Map<Integer, Long> now) {
        Set<Integer> lapsed = new TreeSet<>(held.keySet());
        lapsed.removeAll(renewed.keySet());
        if (!lapsed.isEmpty()) {
            Set<Integer> back = new TreeSet<>(lapsed);
            back.retainAll(now.keySet());
            LOG.warn("alerts: the leases on slices {} lapsed: {} ms since their last renewal, with leases of {} ms "
                    + "(paused longer than evaluation.leaseSeconds: SIGSTOP, a long GC, a frozen VM, or the database "
                    + "away); their hosts go to the collectors that take them{}", lapsed,
                    (started - confirmedAtNanos) / 1_000_000, ttlMillis,
                    back.isEmpty() ? "" : "; taken again at once: " + back + ", reloaded as a takeover");
        }
        held = now;
        confirmedAtNanos = started;
        heldUntil = Map.copyOf(now);
        validUntilNanos = started + ttlMillis * 1_000_000;
    }

    private static final String RENEW = "UPDATE alert_slices SET expires_at = clock_timestamp() + ? * interval "
            + "'1 millisecond' WHERE owner = ? AND expires_at > clock_timestamp() RETURNING slice, epoch";

    /**
     * Renews, then evens out: with {@code n} live collectors each should hold {@code ceil(COUNT / n)} slices; this one
     * lets go of slices above its share that {@code mayRelease} allows (none with a notification still in flight)
     * and takes free or expired ones up to it. Returns the slices it holds afterwards.
     */
    public Set<Integer> balance(IntPredicate mayRelease) throws SQLException {
        return new TreeSet<>(balanceLeases(mayRelease).keySet());
    }

    /** As {@link #balance}, with each slice's epoch (raised for a slice taken now). */
    public synchronized Map<Integer, Long> balanceLeases(IntPredicate mayRelease) throws SQLException {
        long started = System.nanoTime();
        Map<Integer, Long> renewed = new TreeMap<>();
        Map<Integer, Long> now = run(c -> {
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
                renewed.clear();
                renewed.putAll(leases(c, RENEW, ttlMillis, owner));
                Map<Integer, Long> held = new TreeMap<>(renewed);
                if (held.size() > share) {
                    List<Integer> excess = new ArrayList<>(new TreeSet<>(held.keySet()).descendingSet());
                    for (int slice : excess.subList(0, held.size() - share)) {
                        if (mayRelease.test(slice)) {
                            release(c, slice);
                            held.remove(slice);
                        }
                    }
                } else if (held.size() < share) {
                    held.putAll(leases(c, """
                            UPDATE alert_slices SET owner = ?, epoch = epoch + 1,
                              expires_at = clock_timestamp() + ? * interval '1 millisecond'
                            WHERE slice IN (SELECT slice FROM alert_slices
                              WHERE owner IS NULL OR expires_at IS NULL OR expires_at <= clock_timestamp()
                              ORDER BY slice LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING slice, epoch""",
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
        // a slice released above was renewed first: given up, not lapsed
        confirmed(started, renewed, now);
        return now;
    }

    /** Lets go of every slice and the heartbeat (a clean stop): the others take the slices at their next balancing. */
    public synchronized void releaseAll() throws SQLException {
        held = Map.of();
        heldUntil = Map.of();
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
    public static Map<Integer, Long> lockHeld(Connection c, String owner) throws SQLException {
        return leases(c, "SELECT slice, epoch FROM alert_slices WHERE owner = ? AND expires_at > clock_timestamp() FOR SHARE",
                owner);
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

    /** The (slice, epoch) rows {@code sql} returns. */
    private static Map<Integer, Long> leases(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            Map<Integer, Long> out = new TreeMap<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getLong(2));
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
