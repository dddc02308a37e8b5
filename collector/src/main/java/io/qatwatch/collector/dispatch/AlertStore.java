package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.store.Database;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The alert pipeline's own tables: alert state, the notification log and silences, so a restarted collector
 * neither re-announces what it said nor forgets what fires. Blocking: callers run it off the event loop.
 */
public final class AlertStore {

    private final Database db;
    /** What {@code alert_state} holds since the last successful save, by id; null when unknown (then rewritten whole). */
    private Map<String, AlertRecord> saved;
    /** Rows a save writes per transaction. */
    static final int SAVE_CHUNK = 100;

    public AlertStore(Database db) {
        this.db = db;
    }

    /**
     * Brings the alert tables to the current schema (component {@code alerts}): version 1 the state, log and
     * silences; version 2 forecasts, refires, acknowledgements, history and chat threads.
     */
    public void migrate() throws SQLException {
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
                        "CREATE INDEX alert_event_at ON alert_event(at)")));
    }

    /** Every stored alert, firing or resolved-but-kept. */
    public List<AlertRecord> loadAlerts() throws SQLException {
        List<AlertRecord> out = new ArrayList<>();
        synchronized (db) {
            try (Statement s = db.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT rule, severity, host, instance, database_name, subject, summary, why, "
                         + "facts, series, since, resolved_at, forecast, refires FROM alert_state")) {
                while (rs.next()) {
                    String forecast = rs.getString(13);
                    Alert a = new Alert(rs.getString(1), Severity.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), facts(rs.getString(9)),
                            facts(rs.getString(10)), forecast == null ? null : LocalDate.parse(forecast));
                    String resolved = rs.getString(12);
                    out.add(new AlertRecord(a, Instant.parse(rs.getString(11)), resolved == null ? null : Instant.parse(resolved),
                            false, instants(rs.getString(14))));
                }
            }
        }
        return out;
    }

    /**
     * Makes the stored alerts {@code alerts}, writing only the rows that changed since the previous save (the
     * store is the only writer of {@code alert_state}): a fleet with tens of thousands of standing alerts
     * otherwise rewrote them all every minute, holding the writer ingest waits on. Returns how many rows were
     * written or deleted; nothing changed means no transaction at all. Deletions and writes go in chunks of
     * {@link #SAVE_CHUNK} rows, serialised before the lock is taken, each its own transaction: a crash in
     * between leaves some alerts a minute stale, which the next evaluation corrects.
     */
    public int saveAlerts(List<AlertRecord> alerts) throws SQLException {
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
        if (before == null) {
            write("DELETE FROM alert_state", List.of());
        }
        List<String[]> ids = gone.stream().map(id -> new String[] {id}).toList();
        for (int from = 0; from < ids.size(); from += SAVE_CHUNK) {
            write("DELETE FROM alert_state WHERE id = ?", ids.subList(from, Math.min(ids.size(), from + SAVE_CHUNK)));
        }
        for (int from = 0; from < changed.size(); from += SAVE_CHUNK) {
            List<String[]> rows = changed.subList(from, Math.min(changed.size(), from + SAVE_CHUNK)).stream()
                    .map(AlertStore::row).toList();
            write("INSERT OR REPLACE INTO alert_state VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows);
        }
        saved = next;
        return changed.size() + gone.size();
    }

    /**
     * One transaction: {@code sql} once per row (once if there are none), its parameters already serialised, so
     * the writer's lock is held for the SQL alone and ingest's group commits go on between chunks while thousands
     * of alerts first appear.
     */
    private void write(String sql, List<String[]> rows) throws SQLException {
        synchronized (db) {
            Connection c = db.connection();
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement(sql)) {
                if (rows.isEmpty()) {
                    s.executeUpdate();
                }
                for (String[] row : rows) {
                    for (int i = 0; i < row.length; i++) {
                        s.setString(i + 1, row[i]);
                    }
                    s.addBatch();
                }
                s.executeBatch();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    /** The 15 columns of an {@code alert_state} row. */
    private static String[] row(AlertRecord r) {
        Alert a = r.alert();
        JsonArray refires = new JsonArray();
        r.refires().forEach(t -> refires.add(t.toString()));
        return new String[] {a.id(), a.rule(), a.severity().name(), a.host(), a.instance(), a.database(), a.subject(),
            a.summary(), a.why(), json(a.facts()), json(a.series()), r.since().toString(),
            r.resolvedAt() == null ? null : r.resolvedAt().toString(), a.forecast() == null ? null : a.forecast().toString(),
            refires.isEmpty() ? null : refires.encode()};
    }

    private static List<Instant> instants(String json) {
        if (json == null) {
            return List.of();
        }
        List<Instant> out = new ArrayList<>();
        new JsonArray(json).forEach(o -> out.add(Instant.parse((String) o)));
        return out;
    }

    /** The notification log, keyed by channel then group. */
    public Map<String, Map<String, LogEntry>> loadLog() throws SQLException {
        Map<String, Map<String, LogEntry>> out = new HashMap<>();
        synchronized (db) {
            try (Statement s = db.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT channel, group_key, firing, sent_at, forecasts, thread_id "
                         + "FROM alert_notification_log")) {
                while (rs.next()) {
                    Map<String, Severity> firing = new LinkedHashMap<>();
                    new JsonObject(rs.getString(3)).forEach(e -> firing.put(e.getKey(), Severity.valueOf((String) e.getValue())));
                    Map<String, LocalDate> forecasts = new LinkedHashMap<>();
                    if (rs.getString(5) != null) {
                        new JsonObject(rs.getString(5)).forEach(e -> forecasts.put(e.getKey(), LocalDate.parse((String) e.getValue())));
                    }
                    out.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getString(2),
                            new LogEntry(firing, forecasts, Instant.parse(rs.getString(4)), rs.getString(6)));
                }
            }
        }
        return out;
    }

    /** Records what was last announced for a channel and group. */
    public void saveLogEntry(String channel, String group, LogEntry entry) throws SQLException {
        JsonObject firing = new JsonObject();
        entry.firing().forEach((id, sev) -> firing.put(id, sev.name()));
        JsonObject forecasts = new JsonObject();
        entry.forecasts().forEach((id, d) -> forecasts.put(id, d.toString()));
        synchronized (db) {
            try (PreparedStatement p = db.connection().prepareStatement(
                    "INSERT OR REPLACE INTO alert_notification_log VALUES (?,?,?,?,?,?)")) {
                p.setString(1, channel);
                p.setString(2, group);
                p.setString(3, firing.encode());
                p.setString(4, entry.sentAt().toString());
                p.setString(5, forecasts.isEmpty() ? null : forecasts.encode());
                p.setString(6, entry.threadId());
                p.executeUpdate();
            }
        }
    }

    /** Every acknowledgement that holds (ended ones are deleted). */
    public List<Acknowledgement> loadAcks() throws SQLException {
        List<Acknowledgement> out = new ArrayList<>();
        synchronized (db) {
            try (Statement s = db.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT alert_id, by_name, at, note, expires_at, severity, forecast FROM alert_ack")) {
                while (rs.next()) {
                    String expires = rs.getString(5);
                    String forecast = rs.getString(7);
                    out.add(new Acknowledgement(rs.getString(1), rs.getString(2), Instant.parse(rs.getString(3)), rs.getString(4),
                            expires == null ? null : Instant.parse(expires), Severity.valueOf(rs.getString(6)),
                            forecast == null ? null : LocalDate.parse(forecast)));
                }
            }
        }
        return out;
    }

    /** Stores an acknowledgement, replacing the alert's previous one. */
    public void saveAck(Acknowledgement a) throws SQLException {
        write("INSERT OR REPLACE INTO alert_ack VALUES (?,?,?,?,?,?,?)", List.<String[]>of(new String[] {a.alertId(), a.by(),
            a.at().toString(), a.note(), a.expiresAt() == null ? null : a.expiresAt().toString(), a.severity().name(),
            a.forecast() == null ? null : a.forecast().toString()}));
    }

    /** Deletes the acknowledgements of these alerts. */
    public void deleteAcks(List<String> alertIds) throws SQLException {
        if (!alertIds.isEmpty()) {
            write("DELETE FROM alert_ack WHERE alert_id = ?", alertIds.stream().map(id -> new String[] {id}).toList());
        }
    }

    /** Appends history events, {@link #SAVE_CHUNK} a transaction. */
    public void saveEvents(List<AlertEvent> events) throws SQLException {
        List<String[]> rows = events.stream().map(e -> new String[] {e.alertId(), Long.toString(e.at().toEpochMilli()), e.kind().name(), e.by(),
            e.text()}).toList();
        for (int from = 0; from < rows.size(); from += SAVE_CHUNK) {
            write("INSERT INTO alert_event VALUES (?,?,?,?,?)", rows.subList(from, Math.min(rows.size(), from + SAVE_CHUNK)));
        }
    }

    /** One alert's history, oldest first, at most {@code limit} of its newest events. */
    public List<AlertEvent> events(String alertId, int limit) throws SQLException {
        List<AlertEvent> out = new ArrayList<>();
        synchronized (db) {
            try (PreparedStatement p = db.connection().prepareStatement(
                    "SELECT alert_id, at, kind, by_name, text FROM alert_event WHERE alert_id = ? ORDER BY at DESC, rowid DESC LIMIT ?")) {
                p.setString(1, alertId);
                p.setInt(2, limit);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(0, new AlertEvent(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)),
                                AlertEvent.Kind.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5)));
                    }
                }
            }
        }
        return out;
    }

    /** Forgets history older than {@code before}; returns how many events went. */
    public int pruneEvents(Instant before) throws SQLException {
        synchronized (db) {
            try (PreparedStatement p = db.connection().prepareStatement("DELETE FROM alert_event WHERE at < ?")) {
                p.setLong(1, before.toEpochMilli());
                return p.executeUpdate();
            }
        }
    }

    /** All stored silences. */
    public List<Silence> loadSilences() throws SQLException {
        List<Silence> out = new ArrayList<>();
        synchronized (db) {
            try (Statement s = db.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, rule, host, instance, database_name, comment, created_by, "
                         + "starts_at, ends_at FROM alert_silence")) {
                while (rs.next()) {
                    out.add(new Silence(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), Instant.parse(rs.getString(8)), Instant.parse(rs.getString(9))));
                }
            }
        }
        return out;
    }

    /** Inserts or replaces a silence (expiring one early replaces its end). */
    public void saveSilence(Silence s) throws SQLException {
        synchronized (db) {
            try (PreparedStatement p = db.connection().prepareStatement("INSERT OR REPLACE INTO alert_silence VALUES (?,?,?,?,?,?,?,?,?)")) {
                p.setString(1, s.id());
                p.setString(2, s.rule());
                p.setString(3, s.host());
                p.setString(4, s.instance());
                p.setString(5, s.database());
                p.setString(6, s.comment());
                p.setString(7, s.createdBy());
                p.setString(8, s.startsAt().toString());
                p.setString(9, s.endsAt().toString());
                p.executeUpdate();
            }
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
