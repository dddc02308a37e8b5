package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** The embedded {@link ReportStore}: one SQLite file in WAL mode, one transaction per report. */
public final class SqliteReportStore implements ReportStore {

    private static final ObjectMapper JSON = ReportJson.mapper();
    /** Host names per {@code IN (...)} list of a fleet page: well under SQLite's limit on bound parameters. */
    private static final int IN_CHUNK = 500;

    private final Database db;

    public SqliteReportStore(Database db) throws SQLException {
        this.db = db;
        db.migrate("reports", List.of(String.join(";\n", """
                CREATE TABLE IF NOT EXISTS reports (
                  report_id TEXT PRIMARY KEY,
                  host TEXT NOT NULL,
                  created_at INTEGER NOT NULL,
                  received_at INTEGER NOT NULL,
                  backups INTEGER NOT NULL)""",
                "CREATE INDEX IF NOT EXISTS reports_received ON reports(received_at)",
                """
                CREATE TABLE IF NOT EXISTS hosts (
                  name TEXT PRIMARY KEY,
                  first_seen INTEGER NOT NULL,
                  last_seen INTEGER NOT NULL,
                  agent_json TEXT,
                  facts_json TEXT,
                  qat_json TEXT,
                  licence_json TEXT,
                  licence_verdict TEXT,
                  facts_at INTEGER,
                  probes_json TEXT)""",
                """
                CREATE TABLE IF NOT EXISTS instances (
                  host TEXT NOT NULL,
                  name TEXT NOT NULL,
                  last_seen INTEGER NOT NULL,
                  server_json TEXT,
                  configuration_json TEXT,
                  accelerators_json TEXT,
                  databases_json TEXT,
                  running_json TEXT,
                  certificates_json TEXT,
                  high_water_mark INTEGER,
                  PRIMARY KEY (host, name))""",
                """
                CREATE TABLE IF NOT EXISTS instance_changes (
                  host TEXT NOT NULL,
                  instance TEXT NOT NULL,
                  section TEXT NOT NULL,
                  changed_at INTEGER NOT NULL,
                  old_json TEXT,
                  new_json TEXT)""",
                "CREATE INDEX IF NOT EXISTS instance_changes_at ON instance_changes(host, instance, changed_at)",
                """
                CREATE TABLE IF NOT EXISTS backups (
                  host TEXT NOT NULL,
                  instance TEXT NOT NULL,
                  backup_set_id INTEGER NOT NULL,
                  database_name TEXT NOT NULL,
                  database_guid TEXT,
                  type TEXT NOT NULL,
                  copy_only INTEGER NOT NULL,
                  started_at INTEGER NOT NULL,
                  finished_at INTEGER NOT NULL,
                  tz_known INTEGER NOT NULL,
                  size_bytes INTEGER NOT NULL,
                  compressed_bytes INTEGER,
                  algorithm TEXT,
                  checksums INTEGER NOT NULL,
                  key_algorithm TEXT,
                  encryptor_thumbprint TEXT,
                  encryptor_type TEXT,
                  device_type TEXT,
                  target TEXT,
                  PRIMARY KEY (host, instance, backup_set_id))""",
                "CREATE INDEX IF NOT EXISTS backups_by_start ON backups(host, instance, started_at)",
                "CREATE INDEX IF NOT EXISTS backups_by_guid ON backups(database_guid, started_at)")));
        // What the alert stage reads to load only what changed: a counter per host and instance row that
        // moves when a section the rules read changes content (the write path needs no change for it).
        db.migrate("reports-analysis", List.of(String.join(";\n",
                "ALTER TABLE hosts ADD COLUMN sections_seq INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE instances ADD COLUMN sections_seq INTEGER NOT NULL DEFAULT 0",
                "CREATE TRIGGER hosts_sections AFTER UPDATE OF facts_json, qat_json, licence_json ON hosts "
                        + "WHEN OLD.facts_json IS NOT NEW.facts_json OR OLD.qat_json IS NOT NEW.qat_json "
                        + "OR OLD.licence_json IS NOT NEW.licence_json "
                        + "BEGIN UPDATE hosts SET sections_seq = sections_seq + 1 WHERE rowid = NEW.rowid; END",
                "CREATE TRIGGER instances_sections AFTER UPDATE OF server_json, configuration_json, accelerators_json, "
                        + "databases_json, certificates_json ON instances "
                        + "WHEN OLD.server_json IS NOT NEW.server_json OR OLD.configuration_json IS NOT NEW.configuration_json "
                        + "OR OLD.accelerators_json IS NOT NEW.accelerators_json OR OLD.databases_json IS NOT NEW.databases_json "
                        + "OR OLD.certificates_json IS NOT NEW.certificates_json "
                        + "BEGIN UPDATE instances SET sections_seq = sections_seq + 1 WHERE rowid = NEW.rowid; END")));
        // Pages and counts of the fleet walk host names with their last report from this index alone: the host
        // rows hold kilobytes of facts each, 0.4 s to walk at 100,000 hosts against 0.02 s for the index.
        // A component of its own, so the reports tables' steps stay as they are.
        db.migrate("fleet-pages", List.of("CREATE INDEX IF NOT EXISTS hosts_by_name_seen ON hosts(name, last_seen)"));
    }

    @Override
    public Stored store(String host, AgentReport report, Instant receivedAt) throws SQLException, IOException {
        synchronized (db) {
            Connection c = db.connection();
            c.setAutoCommit(false);
            try {
                Stored stored = storeInTransaction(c, host, report, receivedAt);
                c.commit();
                return stored;
            } catch (SQLException | IOException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    /**
     * Group commit: every report in one transaction, each behind a savepoint so that one report's failure
     * rolls back only that report. With {@code synchronous=FULL} the commit is the expensive part.
     */
    @Override
    public List<Outcome> storeAll(List<Incoming> batch) {
        List<Outcome> out = new ArrayList<>(batch.size());
        synchronized (db) {
            Connection c = db.connection();
            try {
                c.setAutoCommit(false);
                for (Incoming in : batch) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SAVEPOINT report");
                        try {
                            out.add(new Outcome(storeInTransaction(c, in.host(), in.report(), in.receivedAt()), null));
                            s.execute("RELEASE report");
                        } catch (SQLException | IOException | RuntimeException e) {
                            s.execute("ROLLBACK TO report");
                            s.execute("RELEASE report");
                            out.add(new Outcome(null, e));
                        }
                    }
                }
                c.commit();
                return out;
            } catch (SQLException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the commit's error is the one to report
                }
                return batch.stream().map(in -> new Outcome(null, e)).toList();
            } finally {
                try {
                    c.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // the connection is broken; the next call reports it
                }
            }
        }
    }

    private Stored storeInTransaction(Connection c, String host, AgentReport report, Instant receivedAt)
            throws SQLException, IOException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT OR IGNORE INTO reports(report_id, host, created_at, received_at, backups) VALUES (?,?,?,?,0)")) {
            s.setString(1, report.reportId());
            s.setString(2, host);
            s.setLong(3, report.createdAt().toEpochMilli());
            s.setLong(4, receivedAt.toEpochMilli());
            if (s.executeUpdate() == 0) {
                return new Stored(report.reportId(), true, 0);
            }
        }
        upsertHost(c, host, report, receivedAt);
        int newBackups = 0;
        for (SqlInstanceSnapshot snapshot : report.instances()) {
            upsertInstance(c, host, snapshot, receivedAt);
            newBackups += insertBackups(c, host, snapshot);
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE reports SET backups = ? WHERE report_id = ?")) {
            s.setInt(1, newBackups);
            s.setString(2, report.reportId());
            s.executeUpdate();
        }
        return new Stored(report.reportId(), false, newBackups);
    }

    private void upsertHost(Connection c, String host, AgentReport report, Instant now) throws SQLException, IOException {
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO hosts(name, first_seen, last_seen, agent_json, probes_json) VALUES (?,?,?,?,?)
                ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen, agent_json = excluded.agent_json,
                  probes_json = excluded.probes_json""")) {
            s.setString(1, host);
            s.setLong(2, now.toEpochMilli());
            s.setLong(3, now.toEpochMilli());
            s.setString(4, JSON.writeValueAsString(report.agent()));
            s.setString(5, JSON.writeValueAsString(report.probes()));
            s.executeUpdate();
        }
        if (report.host() != null || report.qat() != null || report.licence() != null) {
            try (PreparedStatement s = c.prepareStatement("""
                    UPDATE hosts SET facts_json = COALESCE(?, facts_json), qat_json = COALESCE(?, qat_json),
                      licence_json = COALESCE(?, licence_json), licence_verdict = COALESCE(?, licence_verdict),
                      facts_at = ? WHERE name = ?""")) {
                s.setString(1, report.host() == null ? null : JSON.writeValueAsString(report.host()));
                s.setString(2, report.qat() == null ? null : JSON.writeValueAsString(report.qat()));
                s.setString(3, report.licence() == null ? null : JSON.writeValueAsString(report.licence()));
                s.setString(4, report.licence() == null ? null : report.licence().verdict().name());
                s.setLong(5, report.createdAt().toEpochMilli());
                s.setString(6, host);
                s.executeUpdate();
            }
        }
    }

    private void upsertInstance(Connection c, String host, SqlInstanceSnapshot snap, Instant now)
            throws SQLException, IOException {
        Map<String, String> previous = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT configuration_json, accelerators_json FROM instances WHERE host = ? AND name = ?")) {
            s.setString(1, host);
            s.setString(2, snap.name());
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    previous.put("configuration", rs.getString(1));
                    previous.put("accelerators", rs.getString(2));
                }
            }
        }
        String configuration = json(snap.configuration());
        String accelerators = json(snap.accelerators());
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO instances(host, name, last_seen, server_json, configuration_json, accelerators_json,
                  databases_json, running_json, certificates_json, high_water_mark) VALUES (?,?,?,?,?,?,?,?,?,?)
                ON CONFLICT(host, name) DO UPDATE SET last_seen = excluded.last_seen,
                  server_json = COALESCE(excluded.server_json, server_json),
                  configuration_json = COALESCE(excluded.configuration_json, configuration_json),
                  accelerators_json = COALESCE(excluded.accelerators_json, accelerators_json),
                  databases_json = COALESCE(excluded.databases_json, databases_json),
                  running_json = COALESCE(excluded.running_json, running_json),
                  certificates_json = COALESCE(excluded.certificates_json, certificates_json),
                  high_water_mark = MAX(COALESCE(excluded.high_water_mark, 0), COALESCE(high_water_mark, 0))""")) {
            s.setString(1, host);
            s.setString(2, snap.name());
            s.setLong(3, now.toEpochMilli());
            s.setString(4, json(snap.server()));
            s.setString(5, configuration);
            s.setString(6, accelerators);
            s.setString(7, json(snap.databases()));
            s.setString(8, json(snap.runningBackups()));
            s.setString(9, json(snap.certificates()));
            if (snap.backupHighWaterMark() == null) {
                s.setNull(10, Types.BIGINT);
            } else {
                s.setLong(10, snap.backupHighWaterMark());
            }
            s.executeUpdate();
        }
        recordChange(c, host, snap, "configuration", previous.get("configuration"), configuration);
        recordChange(c, host, snap, "accelerators", previous.get("accelerators"), accelerators);
    }

    private static void recordChange(Connection c, String host, SqlInstanceSnapshot snap, String section,
            String oldJson, String newJson) throws SQLException {
        if (newJson == null || Objects.equals(oldJson, newJson)) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO instance_changes(host, instance, section, changed_at, old_json, new_json) VALUES (?,?,?,?,?,?)")) {
            s.setString(1, host);
            s.setString(2, snap.name());
            s.setString(3, section);
            s.setLong(4, snap.collectedAt().toEpochMilli());
            s.setString(5, oldJson);
            s.setString(6, newJson);
            s.executeUpdate();
        }
    }

    private static int insertBackups(Connection c, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.backups() == null || snap.backups().isEmpty()) {
            return 0;
        }
        int inserted = 0;
        try (PreparedStatement s = c.prepareStatement("""
                INSERT OR IGNORE INTO backups(host, instance, backup_set_id, database_name, database_guid, type,
                  copy_only, started_at, finished_at, tz_known, size_bytes, compressed_bytes, algorithm, checksums,
                  key_algorithm, encryptor_thumbprint, encryptor_type, device_type, target)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""")) {
            for (BackupRecord b : snap.backups()) {
                s.setString(1, host);
                s.setString(2, snap.name());
                s.setLong(3, b.backupSetId());
                s.setString(4, b.databaseName());
                s.setString(5, b.databaseGuid());
                s.setString(6, b.type());
                s.setInt(7, b.copyOnly() ? 1 : 0);
                s.setLong(8, b.startedAt().toEpochMilli());
                s.setLong(9, b.finishedAt().toEpochMilli());
                s.setInt(10, b.timeZoneKnown() ? 1 : 0);
                s.setLong(11, b.backupSizeBytes());
                if (b.compressedSizeBytes() == null) {
                    s.setNull(12, Types.BIGINT);
                } else {
                    s.setLong(12, b.compressedSizeBytes());
                }
                s.setString(13, b.compressionAlgorithm());
                s.setInt(14, b.hasChecksums() ? 1 : 0);
                s.setString(15, b.keyAlgorithm());
                s.setString(16, b.encryptorThumbprint());
                s.setString(17, b.encryptorType());
                s.setString(18, b.deviceType());
                s.setString(19, b.target());
                inserted += s.executeUpdate();
            }
        }
        return inserted;
    }

    @Override
    public List<FleetRow> fleet() throws SQLException, IOException {
        return fleet(null);
    }

    @Override
    public java.util.Optional<FleetRow> fleetRow(String host) throws SQLException, IOException {
        return fleet(host).stream().findFirst();
    }

    /** Every host's row, or only {@code host}'s when it is not null. */
    private List<FleetRow> fleet(String only) throws SQLException, IOException {
        synchronized (db) {
            return only == null ? fleetRows("", "", List.of())
                    : fleetRows(" WHERE host = ?", " WHERE name = ?", List.of(only));
        }
    }

    @Override
    public List<HostSeen> hostsSeen() throws SQLException {
        synchronized (db) {
            List<HostSeen> out = new ArrayList<>();
            try (PreparedStatement s = db.connection().prepareStatement("SELECT name, last_seen FROM hosts ORDER BY name");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new HostSeen(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))));
                }
            }
            return out;
        }
    }

    /** Walks the host names in index order from the cursor; only the page's own rows are then read in full. */
    @Override
    public List<FleetRow> fleetPage(String after, String hostPattern, Predicate<HostSeen> filter, int limit)
            throws SQLException, IOException {
        synchronized (db) {
            List<String> names = new ArrayList<>();
            String sql = "SELECT name, last_seen FROM hosts WHERE name > ?"
                    + (hostPattern == null ? "" : " AND name LIKE ? ESCAPE '\\'") + " ORDER BY name";
            try (PreparedStatement s = db.connection().prepareStatement(sql)) {
                s.setString(1, after == null ? "" : after);
                if (hostPattern != null) {
                    s.setString(2, like(hostPattern));
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (names.size() < limit && rs.next()) {
                        HostSeen seen = new HostSeen(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)));
                        if (filter.test(seen)) {
                            names.add(seen.host());
                        }
                    }
                }
            }
            List<FleetRow> rows = new ArrayList<>(names.size());
            for (int from = 0; from < names.size(); from += IN_CHUNK) {
                List<String> chunk = names.subList(from, Math.min(names.size(), from + IN_CHUNK));
                String in = " IN (" + "?,".repeat(chunk.size() - 1) + "?)";
                rows.addAll(fleetRows(" WHERE host" + in, " WHERE name" + in, chunk));
            }
            return rows;
        }
    }

    /** A shell-style host pattern as a LIKE pattern (case-insensitive for ASCII, as host names are). */
    static String like(String glob) {
        StringBuilder like = new StringBuilder(glob.length() + 8);
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> like.append('%');
                case '?' -> like.append('_');
                case '%', '_', '\\' -> like.append('\\').append(c);
                default -> like.append(c);
            }
        }
        return like.toString();
    }

    private List<FleetRow> fleetRows(String instancesWhere, String hostsWhere, List<String> names)
            throws SQLException, IOException {
        Connection c = db.connection();
        Map<String, List<SqlInstanceSnapshot>> instances = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("""
                SELECT host, name, last_seen, server_json, configuration_json, accelerators_json, databases_json,
                  running_json, certificates_json, high_water_mark FROM instances""" + instancesWhere + " ORDER BY host, name")) {
            bind(s, names);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long hwm = rs.getLong("high_water_mark");
                    Long highWaterMark = rs.wasNull() ? null : hwm;
                    instances.computeIfAbsent(rs.getString("host"), h -> new ArrayList<>()).add(new SqlInstanceSnapshot(
                            rs.getString("name"),
                            Instant.ofEpochMilli(rs.getLong("last_seen")),
                            read(rs.getString("server_json"), ServerInfo.class),
                            readList(rs.getString("configuration_json"), new TypeReference<List<ConfigOption>>() { }),
                            readList(rs.getString("accelerators_json"), new TypeReference<List<AcceleratorStatus>>() { }),
                            readList(rs.getString("databases_json"), new TypeReference<List<DatabaseInfo>>() { }),
                            null,
                            readList(rs.getString("running_json"), new TypeReference<List<RunningBackup>>() { }),
                            readList(rs.getString("certificates_json"), new TypeReference<List<CertificateInfo>>() { }),
                            highWaterMark));
                }
            }
        }
        List<FleetRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                SELECT name, first_seen, last_seen, agent_json, facts_json, qat_json, licence_json, probes_json
                FROM hosts""" + hostsWhere + " ORDER BY name")) {
            bind(s, names);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString("name");
                    rows.add(new FleetRow(host,
                            Instant.ofEpochMilli(rs.getLong("first_seen")),
                            Instant.ofEpochMilli(rs.getLong("last_seen")),
                            read(rs.getString("agent_json"), AgentInfo.class),
                            read(rs.getString("facts_json"), HostFacts.class),
                            read(rs.getString("qat_json"), QatFacts.class),
                            read(rs.getString("licence_json"), LicenceFacts.class),
                            readList(rs.getString("probes_json"), new TypeReference<List<ProbeStatus>>() { }),
                            instances.getOrDefault(host, List.of())));
                }
            }
        }
        return rows;
    }

    private static void bind(PreparedStatement s, List<String> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            s.setString(i + 1, values.get(i));
        }
    }

    @Override
    public List<StoredBackup> backups(String host, String instance, Instant since) throws SQLException {
        synchronized (db) {
            try (PreparedStatement s = db.connection().prepareStatement("""
                    SELECT * FROM backups WHERE host = ? AND instance = ? AND started_at >= ?
                    ORDER BY started_at, backup_set_id""")) {
                s.setString(1, host);
                s.setString(2, instance);
                s.setLong(3, since.toEpochMilli());
                List<StoredBackup> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StoredBackup(rs.getString("host"), rs.getString("instance"), backupOf(rs)));
                    }
                }
                return out;
            }
        }
    }

    @Override
    public List<StoredBackup> backupsOfDatabase(String databaseGuid, Instant since) throws SQLException {
        synchronized (db) {
            try (PreparedStatement s = db.connection().prepareStatement("""
                    SELECT * FROM backups WHERE database_guid = ? AND started_at >= ?
                    ORDER BY started_at, host, instance, backup_set_id""")) {
                s.setString(1, databaseGuid);
                s.setLong(2, since.toEpochMilli());
                List<StoredBackup> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StoredBackup(rs.getString("host"), rs.getString("instance"), backupOf(rs)));
                    }
                }
                return out;
            }
        }
    }

    @Override
    public BackupDelta backupsAfter(long after, Instant since) throws SQLException {
        synchronized (db) {
            long upTo;
            try (PreparedStatement s = db.connection().prepareStatement("SELECT COALESCE(max(rowid), 0) FROM backups");
                 ResultSet rs = s.executeQuery()) {
                upTo = rs.next() ? rs.getLong(1) : 0;
            }
            List<StoredBackup> out = new ArrayList<>();
            try (PreparedStatement s = db.connection().prepareStatement("""
                    SELECT * FROM backups WHERE rowid > ? AND rowid <= ? AND started_at >= ? ORDER BY rowid""")) {
                s.setLong(1, after);
                s.setLong(2, upTo);
                s.setLong(3, since.toEpochMilli());
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StoredBackup(rs.getString("host"), rs.getString("instance"), backupOf(rs)));
                    }
                }
            }
            return new BackupDelta(upTo, out);
        }
    }

    @Override
    public List<FleetHead> fleetHeads() throws SQLException, IOException {
        synchronized (db) {
            Connection c = db.connection();
            Map<String, List<InstanceHead>> instances = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT host, name, last_seen, sections_seq, running_json FROM instances ORDER BY host, name");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String running = rs.getString("running_json");
                    instances.computeIfAbsent(rs.getString("host"), h -> new ArrayList<>()).add(new InstanceHead(
                            rs.getString("name"), Instant.ofEpochMilli(rs.getLong("last_seen")), rs.getLong("sections_seq"),
                            running == null || "[]".equals(running) ? List.of()
                                    : readList(running, new TypeReference<List<RunningBackup>>() { })));
                }
            }
            List<FleetHead> heads = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, last_seen, sections_seq FROM hosts ORDER BY name");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString("name");
                    heads.add(new FleetHead(host, Instant.ofEpochMilli(rs.getLong("last_seen")), rs.getLong("sections_seq"),
                            instances.getOrDefault(host, List.of())));
                }
            }
            return heads;
        }
    }

    /** Maps a {@code backups} row back to its record. */
    static BackupRecord backupOf(ResultSet rs) throws SQLException {
        long compressed = rs.getLong("compressed_bytes");
        Long compressedBytes = rs.wasNull() ? null : compressed;
        return new BackupRecord(
                rs.getLong("backup_set_id"),
                rs.getString("database_name"),
                rs.getString("database_guid"),
                rs.getString("type"),
                rs.getInt("copy_only") != 0,
                Instant.ofEpochMilli(rs.getLong("started_at")),
                Instant.ofEpochMilli(rs.getLong("finished_at")),
                rs.getInt("tz_known") != 0,
                rs.getLong("size_bytes"),
                compressedBytes,
                rs.getString("algorithm"),
                rs.getInt("checksums") != 0,
                rs.getString("key_algorithm"),
                rs.getString("encryptor_thumbprint"),
                rs.getString("encryptor_type"),
                rs.getString("device_type"),
                rs.getString("target"));
    }

    @Override
    public int prune(Instant backupsBefore, Instant reportIdsBefore) throws SQLException {
        synchronized (db) {
            int deleted = 0;
            try (PreparedStatement s = db.connection().prepareStatement(
                    // The newest row stays even when old (a late report's): SQLite would hand its rowid to the next
                    // insert, and the alert stage reads new backups by rowid.
                    "DELETE FROM backups WHERE started_at < ? AND rowid < (SELECT max(rowid) FROM backups)")) {
                s.setLong(1, backupsBefore.toEpochMilli());
                deleted += s.executeUpdate();
            }
            try (PreparedStatement s = db.connection().prepareStatement("DELETE FROM reports WHERE received_at < ?")) {
                s.setLong(1, reportIdsBefore.toEpochMilli());
                deleted += s.executeUpdate();
            }
            return deleted;
        }
    }

    private static String json(Object value) throws IOException {
        return value == null ? null : JSON.writeValueAsString(value);
    }

    private static <T> T read(String json, Class<T> type) throws IOException {
        return json == null ? null : JSON.readValue(json, type);
    }

    private static <T> List<T> readList(String json, TypeReference<List<T>> type) throws IOException {
        return json == null ? null : JSON.readValue(json, type);
    }
}
