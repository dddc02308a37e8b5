package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.SliceLeases;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The alert pipeline's own tables: alert state, the notification log and silences, so a restarted collector
 * neither re-announces what it said nor forgets what fires. Blocking: callers run it off the event loop.
 *
 * <p>Alert rows and log entries carry the {@link HostSlices slice} of their host. Several collectors on one
 * PostgreSQL store each keep the rows of the slices they lease; with a {@code fenceOwner}, every write first locks
 * the owner's unexpired leases ({@code FOR SHARE}) and writes only the rows of those slices, and of those only the
 * slices still held under the lease the written state was derived under (the same epoch), so a collector that lost a
 * lease (it paused, or the database was unreachable) cannot overwrite what the slice's new owner wrote, not even once
 * it has taken the slice back.
 */
public final class AlertStore {

    private static final String ALERT_COLUMNS = "id, rule, severity, host, instance, database_name, subject, summary, "
            + "why, facts, series, since, resolved_at, forecast, refires, slice";
    /** The index of {@code slice} in an alert row (see {@link #row}). */
    private static final int SLICE = 15;

    private final Database db;
    /** The lease holder writes are fenced by; null: no fencing (one collector on its store). */
    private final String fenceOwner;
    /**
     * What {@code alert_state} holds of the scope since the last successful save or load, by id; null when unknown
     * (then the scope's rows are rewritten whole).
     */
    private Map<String, AlertRecord> saved;
    private boolean started;
    /** Called before each chunk {@link #saveAlerts} writes: thousands of new alerts are long work too. */
    private volatile Pacer pacer = Pacer.NONE;
    /** Rows a save writes per transaction. */
    static final int SAVE_CHUNK = 100;

    public AlertStore(Database db) {
        this(db, null);
    }

    /** A store whose writes only touch slices {@code fenceOwner} leases (see {@link SliceLeases}). */
    public AlertStore(Database db, String fenceOwner) {
        this.db = db;
        this.fenceOwner = fenceOwner;
    }

    /**
     * Brings the alert tables to the current schema (component {@code alerts}): on SQLite version 1 the state, log
     * and silences; version 2 forecasts, refires, acknowledgements, history and chat threads; version 3 the slices;
     * version 4 (PostgreSQL 2) silences matching a host group or tag.
     */
    public void migrate() throws SQLException {
        if (db.kind() == Database.Kind.POSTGRESQL) {
            db.migrate("alerts", List.of("""
                    CREATE TABLE alert_state (id TEXT PRIMARY KEY, rule TEXT NOT NULL, severity TEXT NOT NULL,
                      host TEXT, instance TEXT, database_name TEXT, subject TEXT, summary TEXT NOT NULL, why TEXT NOT NULL,
                      facts TEXT NOT NULL, series TEXT NOT NULL, since TEXT NOT NULL, resolved_at TEXT, forecast TEXT,
                      refires TEXT, slice INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX alert_state_slice ON alert_state(slice);
                    CREATE TABLE alert_notification_log (channel TEXT NOT NULL, group_key TEXT NOT NULL,
                      firing TEXT NOT NULL, sent_at TEXT NOT NULL, forecasts TEXT, thread_id TEXT,
                      slice INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (channel, group_key));
                    CREATE TABLE alert_silence (id TEXT PRIMARY KEY, rule TEXT, host TEXT, instance TEXT,
                      database_name TEXT, comment TEXT, created_by TEXT, starts_at TEXT NOT NULL, ends_at TEXT NOT NULL);
                    CREATE TABLE alert_ack (alert_id TEXT PRIMARY KEY, by_name TEXT NOT NULL, at TEXT NOT NULL, note TEXT,
                      expires_at TEXT, severity TEXT NOT NULL, forecast TEXT);
                    CREATE TABLE alert_event (seq BIGSERIAL PRIMARY KEY, alert_id TEXT NOT NULL, at BIGINT NOT NULL,
                      kind TEXT NOT NULL, by_name TEXT, text TEXT);
                    CREATE INDEX alert_event_by_alert ON alert_event(alert_id, at);
                    CREATE INDEX alert_event_at ON alert_event(at)""",
                    "ALTER TABLE alert_silence ADD COLUMN group_name TEXT; ALTER TABLE alert_silence ADD COLUMN tag TEXT"));
            return;
        }
        db.migrate("alerts", List.of(String.join(";\n",
                "CREATE TABLE alert_state (id TEXT PRIMARY KEY, rule TEXT NOT NULL, severity TEXT NOT NULL, "
                        + "host TEXT, instance TEXT, database_name TEXT, subject TEXT, summary TEXT NOT NULL, why TEXT NOT NULL, "
                        + "facts TEXT NOT NULL, series TEXT NOT NULL, since TEXT NOT NULL, resolved_at TEXT)",
                "CREATE TABLE alert_notification_log (channel TEXT NOT NULL, group_key TEXT NOT NULL, "
                        + "firing TEXT NOT NULL, sent_at TEXT NOT NULL, PRIMARY KEY (channel, group_key))",
                "CREATE TABLE alert_silence (id TEXT PRIMARY KEY, rule TEXT, host TEXT, instance TEXT, "
                        + "database_name TEXT, comment TEXT, created_by TEXT, starts_at TEXT NOT NULL, ends_at TEXT NOT NULL)"),
                String.join(";\n",
                        "ALTER TABLE alert_state ADD COLUMN forecast TEXT",
                        "ALTER TABLE alert_state ADD COLUMN refires TEXT",
                        "ALTER TABLE alert_notification_log ADD COLUMN forecasts TEXT",
                        "ALTER TABLE alert_notification_log ADD COLUMN thread_id TEXT",
                        "CREATE TABLE alert_ack (alert_id TEXT PRIMARY KEY, by_name TEXT NOT NULL, at TEXT NOT NULL, note TEXT, "
                                + "expires_at TEXT, severity TEXT NOT NULL, forecast TEXT)",
                        "CREATE TABLE alert_event (alert_id TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, by_name TEXT, "
                                + "text TEXT)",
                        "CREATE INDEX alert_event_by_alert ON alert_event(alert_id, at)",
                        "CREATE INDEX alert_event_at ON alert_event(at)"),
                // the slice of each row, so a store copied to PostgreSQL can be split between collectors
                String.join(";\n",
                        "ALTER TABLE alert_state ADD COLUMN slice INTEGER NOT NULL DEFAULT 0",
                        "ALTER TABLE alert_notification_log ADD COLUMN slice INTEGER NOT NULL DEFAULT 0"),
                String.join(";\n",
                        "ALTER TABLE alert_silence ADD COLUMN group_name TEXT",
                        "ALTER TABLE alert_silence ADD COLUMN tag TEXT")));
    }

    /** Every stored alert, firing or resolved-but-kept. */
    public List<AlertRecord> loadAlerts() throws SQLException {
        return loadAlerts(AlertScope.ALL);
    }

    /**
     * The stored alerts of {@code scope}'s hosts, firing or resolved-but-kept; they count as saved, so the next
     * {@link #saveAlerts} writes only what changed from them.
     */
    public List<AlertRecord> loadAlerts(AlertScope scope) throws SQLException {
        List<AlertRecord> out = read("SELECT " + ALERT_COLUMNS + " FROM alert_state" + where(scope), AlertStore::record);
        if (!started) {
            saved = new HashMap<>();
            started = true;
        }
        if (saved != null) {
            out.forEach(r -> saved.put(r.id(), r));
        }
        return out;
    }

    /** From now on, {@link #saveAlerts} calls {@code pacer} before each chunk it writes. */
    public void pacedBy(Pacer pacer) {
        this.pacer = pacer;
    }

    /** Forgets what was saved of {@code slices}: this collector no longer keeps them. */
    public void forget(Set<Integer> slices) {
        if (saved != null) {
            saved.values().removeIf(r -> slices.contains(HostSlices.of(r.alert().host())));
        }
    }

    /** Every stored alert as {@link #saveAlerts} left it, without counting as loaded (the API of several collectors). */
    public List<AlertRecord> readAlerts() throws SQLException {
        return read("SELECT " + ALERT_COLUMNS + " FROM alert_state WHERE resolved_at IS NULL", AlertStore::record);
    }

    /**
     * One host's stored alerts that resolved and are still kept, last resolved first, at most {@code limit} (the host
     * page of several collectors, whichever collector keeps the host).
     */
    public List<AlertRecord> readResolvedAlerts(String host, int limit) throws SQLException {
        return read("SELECT " + ALERT_COLUMNS + " FROM alert_state WHERE host = ? AND resolved_at IS NOT NULL "
                + "ORDER BY resolved_at DESC LIMIT ?", AlertStore::record, host, limit);
    }

    /** An {@code alert_state} row as its record (not silenced: silences are applied by the service). */
    private static AlertRecord record(ResultSet rs) throws SQLException {
        String forecast = rs.getString(14);
        Alert a = new Alert(rs.getString(2), Severity.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), facts(rs.getString(10)),
                facts(rs.getString(11)), forecast == null ? null : LocalDate.parse(forecast));
        String resolved = rs.getString(13);
        return new AlertRecord(a, Instant.parse(rs.getString(12)), resolved == null ? null : Instant.parse(resolved), false,
                instants(rs.getString(15)));
    }

    private static List<Instant> instants(String json) {
        if (json == null) {
            return List.of();
        }
        List<Instant> out = new ArrayList<>();
        new JsonArray(json).forEach(o -> out.add(Instant.parse((String) o)));
        return out;
    }

    /** As {@link #saveAlerts(List, AlertScope)} for every host. */
    public int saveAlerts(List<AlertRecord> alerts) throws SQLException {
        return saveAlerts(alerts, AlertScope.ALL);
    }

    /**
     * Makes the stored alerts of {@code scope}'s hosts {@code alerts}, writing only the rows that changed since the
     * previous save (the store is the only writer of its scope's rows): a fleet with tens of thousands of standing
     * alerts otherwise rewrote them all every minute, holding the writer ingest waits on. Returns how many rows were
     * written or deleted; nothing changed means no transaction at all. Deletions and writes go in chunks of
     * {@link #SAVE_CHUNK} rows, serialised before the lock is taken, each its own transaction: a crash in
     * between leaves some alerts a minute stale, which the next evaluation corrects.
     */
    public int saveAlerts(List<AlertRecord> alerts, AlertScope scope) throws SQLException {
        Map<String, AlertRecord> next = new HashMap<>();
        alerts.forEach(r -> next.put(r.id(), r));
        Map<String, AlertRecord> before = saved;
        List<AlertRecord> changed = new ArrayList<>();
        for (AlertRecord r : alerts) {
            if (before == null || !r.equals(before.get(r.id()))) {
                changed.add(r);
            }
        }
        List<String> gone = before == null ? List.of()
                : before.keySet().stream().filter(id -> !next.containsKey(id)).toList();
        if (before != null && changed.isEmpty() && gone.isEmpty()) {
            return 0;
        }
        saved = null;
        started = true;
        if (before == null) {
            write("DELETE FROM alert_state" + where(scope), List.of(), -1, scope);
        }
        List<Object[]> ids = gone.stream().map(id -> new Object[] {id, HostSlices.of(before.get(id).alert().host())}).toList();
        int passed = 0;
        for (int from = 0; from < ids.size(); from += SAVE_CHUNK) {
            pacer.pace();
            passed += write("DELETE FROM alert_state WHERE id = ?", ids.subList(from, Math.min(ids.size(), from + SAVE_CHUNK)),
                    1, scope);
        }
        String upsert = "INSERT INTO alert_state(" + ALERT_COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                + "ON CONFLICT(id) DO UPDATE SET " + java.util.Arrays.stream(ALERT_COLUMNS.split(", ")).skip(1)
                        .map(c -> c + " = excluded." + c).collect(Collectors.joining(", "));
        for (int from = 0; from < changed.size(); from += SAVE_CHUNK) {
            pacer.pace();
            List<Object[]> rows = changed.subList(from, Math.min(changed.size(), from + SAVE_CHUNK)).stream()
                    .map(AlertStore::row).toList();
            passed += write(upsert, rows, SLICE, scope);
        }
        // rows the fence held back (a lease lapsed): what the table holds of the scope is not known any more
        saved = passed == ids.size() + changed.size() ? next : null;
        return changed.size() + gone.size();
    }

    /** {@code " WHERE slice IN (...)"} for a scope of slices, nothing for every host. */
    private static String where(AlertScope scope) {
        if (scope.all()) {
            return "";
        }
        if (scope.slices().isEmpty()) {
            return " WHERE 1 = 0";
        }
        return " WHERE slice IN (" + scope.slices().stream().map(String::valueOf).collect(Collectors.joining(",")) + ")";
    }

    /**
     * One transaction: {@code sql} once per row (once if there are none), its parameters already serialised, so
     * the writer's lock is held for the SQL alone and ingest's group commits go on between chunks while thousands
     * of alerts first appear. A row holds the statement's parameters, then perhaps more. Fenced: only rows whose
     * slice (at index {@code sliceAt}) the owner leases under the epoch {@code lease} says; a statement without rows
     * only touches such slices. Returns how many rows passed the fence.
     */
    private int write(String sql, List<Object[]> rows, int sliceAt, AlertScope lease) throws SQLException {
        return write(sql, rows, sliceAt, lease, true);
    }

    private int write(String sql, List<Object[]> rows, int sliceAt, AlertScope lease, boolean fenced) throws SQLException {
        try {
            int params = (int) sql.chars().filter(ch -> ch == '?').count();
            return db.transaction(c -> {
                Set<Integer> held = null;
                if (fenceOwner != null && fenced) {
                    held = new java.util.TreeSet<>();
                    for (Map.Entry<Integer, Long> l : SliceLeases.lockHeld(c, fenceOwner).entrySet()) {
                        if (lease.holds(l.getKey(), l.getValue())) {
                            held.add(l.getKey());
                        }
                    }
                }
                Set<Integer> allowed = held;
                int passed = 0;
                try (PreparedStatement s = c.prepareStatement(
                        allowed != null && rows.isEmpty() ? sql + (sql.contains(" WHERE ") ? " AND " : " WHERE ")
                                + (allowed.isEmpty() ? "1 = 0" : "slice IN (" + allowed.stream().map(String::valueOf)
                                        .collect(Collectors.joining(",")) + ")") : sql)) {
                    if (rows.isEmpty()) {
                        s.executeUpdate();
                    }
                    for (Object[] row : rows) {
                        if (allowed != null && !allowed.contains((Integer) row[sliceAt])) {
                            continue;
                        }
                        for (int i = 0; i < params; i++) {
                            s.setObject(i + 1, row[i]);
                        }
                        s.addBatch();
                        passed++;
                    }
                    s.executeBatch();
                }
                return passed;
            });
        } catch (IOException e) {
            throw new SQLException(e);
        }
    }

    /** The 16 columns of an {@code alert_state} row. */
    private static Object[] row(AlertRecord r) {
        Alert a = r.alert();
        JsonArray refires = new JsonArray();
        r.refires().forEach(t -> refires.add(t.toString()));
        return new Object[] {a.id(), a.rule(), a.severity().name(), a.host(), a.instance(), a.database(), a.subject(),
            a.summary(), a.why(), json(a.facts()), json(a.series()), r.since().toString(),
            r.resolvedAt() == null ? null : r.resolvedAt().toString(), a.forecast() == null ? null : a.forecast().toString(),
            refires.isEmpty() ? null : refires.encode(), HostSlices.of(a.host())};
    }

    /** The notification log, keyed by channel then group. */
    public Map<String, Map<String, LogEntry>> loadLog() throws SQLException {
        return loadLog(AlertScope.ALL);
    }

    /** The notification log of {@code scope}'s hosts, keyed by channel then group. */
    public Map<String, Map<String, LogEntry>> loadLog(AlertScope scope) throws SQLException {
        Map<String, Map<String, LogEntry>> out = new HashMap<>();
        read("SELECT channel, group_key, firing, sent_at, forecasts, thread_id FROM alert_notification_log" + where(scope), rs -> {
            Map<String, Severity> firing = new LinkedHashMap<>();
            new JsonObject(rs.getString(3)).forEach(e -> firing.put(e.getKey(), Severity.valueOf((String) e.getValue())));
            Map<String, LocalDate> forecasts = new LinkedHashMap<>();
            if (rs.getString(5) != null) {
                new JsonObject(rs.getString(5)).forEach(e -> forecasts.put(e.getKey(), LocalDate.parse((String) e.getValue())));
            }
            out.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getString(2),
                    new LogEntry(firing, forecasts, Instant.parse(rs.getString(4)), rs.getString(6)));
            return null;
        });
        return out;
    }

    /** Records what was last announced for a channel and group, whose alerts are of {@code host}'s slice. */
    public void saveLogEntry(String channel, String group, LogEntry entry, String host) throws SQLException {
        saveLogEntry(channel, group, entry, host, AlertScope.ANY_EPOCH);
    }

    /**
     * As above, fenced by the lease the announcement was decided under: false when this collector no longer holds
     * {@code host}'s slice at {@code epoch} (its lease lapsed since), and nothing was written.
     */
    public boolean saveLogEntry(String channel, String group, LogEntry entry, String host, long epoch) throws SQLException {
        int slice = host == null ? 0 : HostSlices.of(host);
        JsonObject firing = new JsonObject();
        entry.firing().forEach((id, sev) -> firing.put(id, sev.name()));
        JsonObject forecasts = new JsonObject();
        entry.forecasts().forEach((id, d) -> forecasts.put(id, d.toString()));
        return write("INSERT INTO alert_notification_log(channel, group_key, firing, sent_at, forecasts, thread_id, slice) "
                        + "VALUES (?,?,?,?,?,?,?) ON CONFLICT(channel, group_key) DO UPDATE SET firing = excluded.firing, "
                        + "sent_at = excluded.sent_at, forecasts = excluded.forecasts, thread_id = excluded.thread_id, "
                        + "slice = excluded.slice",
                List.<Object[]>of(new Object[] {channel, group, firing.encode(), entry.sentAt().toString(),
                    forecasts.isEmpty() ? null : forecasts.encode(), entry.threadId(), slice}), 6,
                new AlertScope(Set.of(slice), epoch == AlertScope.ANY_EPOCH ? Map.of() : Map.of(slice, epoch))) > 0;
    }

    /** As {@link #saveLogEntry(String, String, LogEntry, String)} for a group of no particular host. */
    public void saveLogEntry(String channel, String group, LogEntry entry) throws SQLException {
        saveLogEntry(channel, group, entry, null);
    }

    /** Every acknowledgement that holds (ended ones are deleted). */
    public List<Acknowledgement> loadAcks() throws SQLException {
        return read("SELECT alert_id, by_name, at, note, expires_at, severity, forecast FROM alert_ack", rs -> {
            String expires = rs.getString(5);
            String forecast = rs.getString(7);
            return new Acknowledgement(rs.getString(1), rs.getString(2), Instant.parse(rs.getString(3)), rs.getString(4),
                    expires == null ? null : Instant.parse(expires), Severity.valueOf(rs.getString(6)),
                    forecast == null ? null : LocalDate.parse(forecast));
        });
    }

    /** Stores an acknowledgement, replacing the alert's previous one. Acknowledgements are the fleet's, unfenced. */
    public void saveAck(Acknowledgement a) throws SQLException {
        unfenced("INSERT INTO alert_ack(alert_id, by_name, at, note, expires_at, severity, forecast) VALUES (?,?,?,?,?,?,?) "
                + "ON CONFLICT(alert_id) DO UPDATE SET by_name = excluded.by_name, at = excluded.at, note = excluded.note, "
                + "expires_at = excluded.expires_at, severity = excluded.severity, forecast = excluded.forecast",
                List.<Object[]>of(new Object[] {a.alertId(), a.by(), a.at().toString(), a.note(),
                    a.expiresAt() == null ? null : a.expiresAt().toString(), a.severity().name(),
                    a.forecast() == null ? null : a.forecast().toString()}));
    }

    /** Deletes the acknowledgements of these alerts. */
    public void deleteAcks(List<String> alertIds) throws SQLException {
        if (!alertIds.isEmpty()) {
            unfenced("DELETE FROM alert_ack WHERE alert_id = ?", alertIds.stream().map(id -> new Object[] {id}).toList());
        }
    }

    /** Appends history events, {@link #SAVE_CHUNK} a transaction. */
    public void saveEvents(List<AlertEvent> events) throws SQLException {
        List<Object[]> rows = events.stream().map(e -> new Object[] {e.alertId(), e.at().toEpochMilli(), e.kind().name(),
            e.by(), e.text()}).toList();
        for (int from = 0; from < rows.size(); from += SAVE_CHUNK) {
            unfenced("INSERT INTO alert_event(alert_id, at, kind, by_name, text) VALUES (?,?,?,?,?)",
                    rows.subList(from, Math.min(rows.size(), from + SAVE_CHUNK)));
        }
    }

    /** One alert's history, oldest first, at most {@code limit} of its newest events. */
    public List<AlertEvent> events(String alertId, int limit) throws SQLException {
        // the order of insertion breaks ties of time: SQLite's rowid, PostgreSQL's seq
        String order = db.kind() == Database.Kind.POSTGRESQL ? "seq" : "rowid";
        List<AlertEvent> newestFirst = new ArrayList<>();
        try {
            db.read(c -> {
                try (PreparedStatement p = c.prepareStatement("SELECT alert_id, at, kind, by_name, text FROM alert_event "
                        + "WHERE alert_id = ? ORDER BY at DESC, " + order + " DESC LIMIT ?")) {
                    p.setString(1, alertId);
                    p.setInt(2, limit);
                    try (ResultSet rs = p.executeQuery()) {
                        while (rs.next()) {
                            newestFirst.add(new AlertEvent(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)),
                                    AlertEvent.Kind.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5)));
                        }
                    }
                }
                return null;
            });
        } catch (IOException e) {
            throw new SQLException(e);
        }
        java.util.Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** Forgets history older than {@code before}; returns how many events went. */
    public int pruneEvents(Instant before) throws SQLException {
        try {
            return db.write(c -> {
                try (PreparedStatement p = c.prepareStatement("DELETE FROM alert_event WHERE at < ?")) {
                    p.setLong(1, before.toEpochMilli());
                    return p.executeUpdate();
                }
            });
        } catch (IOException e) {
            throw new SQLException(e);
        }
    }

    /** {@link #write} without fencing: rows that belong to no slice. */
    private void unfenced(String sql, List<Object[]> rows) throws SQLException {
        write(sql, rows, -1, AlertScope.ALL, false);
    }

    /** All stored silences. */
    public List<Silence> loadSilences() throws SQLException {
        return read("SELECT id, rule, host, instance, database_name, comment, created_by, starts_at, ends_at, group_name, tag "
                        + "FROM alert_silence",
                rs -> new Silence(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), Instant.parse(rs.getString(8)), Instant.parse(rs.getString(9)),
                        rs.getString(10), rs.getString(11)));
    }

    /** Inserts or replaces a silence (expiring one early replaces its end). Silences are the whole fleet's, unfenced. */
    public void saveSilence(Silence s) throws SQLException {
        try {
            db.write(c -> {
                try (PreparedStatement p = c.prepareStatement("INSERT INTO alert_silence(id, rule, host, instance, "
                        + "database_name, comment, created_by, starts_at, ends_at, group_name, tag) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                        + "ON CONFLICT(id) DO UPDATE SET ends_at = excluded.ends_at, comment = excluded.comment")) {
                    p.setString(1, s.id());
                    p.setString(2, s.rule());
                    p.setString(3, s.host());
                    p.setString(4, s.instance());
                    p.setString(5, s.database());
                    p.setString(6, s.comment());
                    p.setString(7, s.createdBy());
                    p.setString(8, s.startsAt().toString());
                    p.setString(9, s.endsAt().toString());
                    p.setString(10, s.group());
                    p.setString(11, s.tag());
                    return p.executeUpdate();
                }
            });
        } catch (IOException e) {
            throw new SQLException(e);
        }
    }

    /** A row of a query. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> read(String sql, RowReader<T> reader, Object... parameters) throws SQLException {
        try {
            return db.read(c -> {
                List<T> out = new ArrayList<>();
                try (PreparedStatement s = c.prepareStatement(sql)) {
                    for (int i = 0; i < parameters.length; i++) {
                        s.setObject(i + 1, parameters[i]);
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(reader.read(rs));
                        }
                    }
                }
                return out;
            });
        } catch (IOException e) {
            throw new SQLException(e);
        }
    }

    private static String json(List<Alert.Fact> facts) {
        JsonArray a = new JsonArray();
        facts.forEach(f -> a.add(new JsonArray().add(f.label()).add(f.value())));
        return a.encode();
    }

    private static List<Alert.Fact> facts(String json) {
        List<Alert.Fact> out = new ArrayList<>();
        new JsonArray(json).forEach(o -> {
            JsonArray p = (JsonArray) o;
            out.add(new Alert.Fact(p.getString(0), p.getString(1)));
        });
        return out;
    }
}
