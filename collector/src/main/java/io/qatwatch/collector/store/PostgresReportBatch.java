package io.qatwatch.collector.store;

import static io.qatwatch.collector.store.SqlValues.setLong;

import io.qatwatch.collector.store.ReportSections.InstanceSections;
import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.store.ReportStore.Stored;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A batch of reports stored on PostgreSQL in a number of statements that does not grow with the batch (about ten, each
 * a round trip): one multi-row insert of the reports' ids tells the new ones from those stored before, then the new
 * reports' hosts, instances, configuration, accelerator and databases changes, backups, job activity and backup counts, each
 * table in one multi-row statement or one pipelined JDBC batch. Each report is stored as
 * {@link SqlReportStore#store} would store it alone, in the batch's order; a report id twice in the batch is stored
 * by its first. When a statement fails the batch is rolled back, and the caller stores it again report by report,
 * each behind a savepoint, so that only the failing report is refused (as on SQLite).
 *
 * <p>Locks are taken table by table in the batch's order (host, then report id), the same order on every collector,
 * so two collectors storing batches of the same hosts wait for each other rather than deadlock; the host row is
 * locked before its instances and rows, so it serialises everything of one host. Against a collector storing
 * report by report (a batch gone round again after a failure) a deadlock on a report id sent to both is possible;
 * PostgreSQL then ends one transaction, and its reports fail and are sent again, as after any store error.
 *
 * <p>A host or instance whose sections (those the {@code sections_seq} trigger watches) this collector wrote, and that
 * come again unchanged, is written by a plain {@code UPDATE} of what changes every report, guarded by the row's
 * {@code sections_seq}: no section is sent, parsed into {@code jsonb}, compared or read back, and the trigger, which
 * fires only when a section is in the statement, does not run. Any writer's change of a section moves the counter
 * (it only grows: rows are never deleted), so a row whose counter moved is written whole as a new one is, with its
 * change history read and compared. What this collector knows is learned only from a committed batch, and only used
 * on the PostgreSQL it was learned on (same start time). When a batch may touch hosts, it first locks its hosts' rows
 * in name order and reads their counters ({@code SELECT ... FOR NO KEY UPDATE}, one round trip), so the touches and
 * the upserts keep the one lock order.
 */
final class PostgresReportBatch {

    /** Rows a multi-row statement carries: a backup row binds 42 parameters, well under PostgreSQL's 65,535. */
    private static final int ROWS_PER_STATEMENT = 1000;

    /** A section the report left out (null) or sent unchanged keeps the stored value, so PostgreSQL rewrites no TOAST. */
    private static String kept(String table, String column) {
        return column + " = CASE WHEN excluded." + column + " IS NULL OR excluded." + column + " = " + table + "."
                + column + " THEN " + table + "." + column + " ELSE excluded." + column + " END";
    }

    private static final String HOST_UPSERT = """
            INSERT INTO hosts(name, first_seen, last_seen, agent_json, probes_json, tags_json, facts_json, qat_json,
              licence_json, licence_verdict, facts_at, slice) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen, agent_json = excluded.agent_json,
              probes_json = excluded.probes_json, tags_json = excluded.tags_json, """
            + kept("hosts", "facts_json") + ", " + kept("hosts", "qat_json") + ", " + kept("hosts", "licence_json")
            + ", licence_verdict = COALESCE(excluded.licence_verdict, hosts.licence_verdict),"
            + " facts_at = COALESCE(excluded.facts_at, hosts.facts_at)";

    private static final String INSTANCE_UPSERT = InstanceRow.INSERT + """
            ON CONFLICT(host, name) DO UPDATE SET last_seen = excluded.last_seen, """
            + String.join(", ", kept("instances", "server_json"), kept("instances", "configuration_json"),
                    kept("instances", "accelerators_json"), kept("instances", "databases_json"),
                    kept("instances", "running_json"), kept("instances", "certificates_json"),
                    kept("instances", "asymmetric_keys_json"))
            + ", high_water_mark = " + Database.Kind.POSTGRESQL.greatest("COALESCE(excluded.high_water_mark, 0)",
                    "COALESCE(instances.high_water_mark, 0)");

    private static final String CHANGE_INSERT =
            "INSERT INTO instance_changes(host, instance, section, changed_at, old_json, new_json) VALUES (?,?,?,?,?,?)";

    /** The sections whose changes {@code instance_changes} keeps, in the order {@link #storedHistorySections} reads them. */
    private static final String[] SECTIONS = {"configuration", "accelerators", DatabaseChanges.SECTION};

    /**
     * The section triggers fire only for statements that write a section: the guarded updates of what changes every
     * report (and the job activity's update) leave the counters as they are without comparing a section.
     */
    static final String TRIGGERS_COMPONENT = "section-triggers";
    static final List<String> TRIGGER_STEPS = List.of("""
            DROP TRIGGER hosts_sections ON hosts;
            CREATE TRIGGER hosts_sections BEFORE UPDATE OF facts_json, qat_json, licence_json, tags_json ON hosts
              FOR EACH ROW EXECUTE FUNCTION hosts_sections();
            DROP TRIGGER instances_sections ON instances;
            CREATE TRIGGER instances_sections BEFORE UPDATE OF server_json, configuration_json, accelerators_json,
              databases_json, certificates_json, asymmetric_keys_json ON instances
              FOR EACH ROW EXECUTE FUNCTION instances_sections()""");

    /** A host whose sections are as this collector knows them: what changes every report, only while its counter stands. */
    private static final String HOST_TOUCH = "UPDATE hosts SET last_seen = ?, agent_json = ?, probes_json = ?, "
            + "facts_at = COALESCE(?, facts_at) WHERE name = ? AND sections_seq = ?";

    /** The same for an instance: its last report, running backups and high-water mark. */
    private static final String INSTANCE_TOUCH = "UPDATE instances SET last_seen = ?, running_json = COALESCE(?, running_json), "
            + "high_water_mark = " + Database.Kind.POSTGRESQL.greatest("COALESCE(?, 0)", "COALESCE(high_water_mark, 0)")
            + " WHERE host = ? AND name = ? AND sections_seq = ?";

    /**
     * What this collector knows a row holds: the digest of the sections it last wrote whole and the row's
     * {@code sections_seq} just after, on the server that was up since {@code server} (PostgreSQL's start time). The
     * pair stays true while the counter stands, since any change of a section moves it; a restarted, promoted or
     * restored server may have lost commits and counted again from an older value, so a pair from another start is
     * not used.
     */
    private record Known(String server, long seq, ReportSections.Digest digest) {
    }

    /** By host name, and by {@code host\ninstance}; written after a commit only. */
    private final Map<String, Known> hostsKnown = new ConcurrentHashMap<>();
    private final Map<String, Known> instancesKnown = new ConcurrentHashMap<>();

    PostgresReportBatch() {
    }

    private static ReportSections.Digest hostDigest(ReportSections s) {
        return ReportSections.combined(s.facts(), s.qat(), s.licence(), s.tags());
    }

    private static ReportSections.Digest instanceDigest(InstanceSections s) {
        return ReportSections.combined(s.server(), s.configuration(), s.accelerators(), s.databases(), s.certificates(),
                s.asymmetricKeys());
    }

    /** One instance of one new report of the batch, in the batch's order. */
    private record Snapshot(int report, String host, SqlInstanceSnapshot snap, InstanceSections sections) {
        String key() {
            return host + '\n' + snap.name();
        }
    }

    private record BackupKey(String host, String instance, long backupSetId) {
    }

    /**
     * Stores {@code batch} (sorted by host, creation and report id) in one transaction on {@code c}; null when a statement
     * failed (everything rolled back): a report of the batch is refused, which one only a report-by-report store tells.
     *
     * @throws SQLException when the database cannot be reached ({@link Database#unavailable}): no report can be stored
     */
    List<Outcome> store(Connection c, List<Incoming> batch) throws SQLException {
        c.setAutoCommit(false);
        try {
            Map<String, Known> hostsLearned = new HashMap<>();
            Map<String, Known> instancesLearned = new HashMap<>();
            List<Outcome> out = storeInTransaction(c, batch, hostsLearned, instancesLearned);
            c.commit();
            // only now: a batch rolled back wrote nothing, and what it would have taught is not true
            hostsKnown.putAll(hostsLearned);
            instancesKnown.putAll(instancesLearned);
            return out;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            if (e instanceof SQLException sql && Database.unavailable(sql)) {
                throw sql;
            }
            return null;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private List<Outcome> storeInTransaction(Connection c, List<Incoming> batch, Map<String, Known> hostsLearned,
            Map<String, Known> instancesLearned) throws SQLException {
        Outcome[] out = new Outcome[batch.size()];
        String[] server = new String[1];
        List<Integer> fresh = insertReports(c, batch, out, server);
        List<Snapshot> snapshots = new ArrayList<>();
        for (int i : fresh) {
            Incoming in = batch.get(i);
            for (int j = 0; j < in.report().instances().size(); j++) {
                snapshots.add(new Snapshot(i, in.host(), in.report().instances().get(j), in.sections().instances().get(j)));
            }
        }
        upsertHosts(c, batch, fresh, server[0], hostsLearned);
        upsertInstances(c, batch, snapshots, server[0], instancesLearned);
        int[] newBackups = insertBackups(c, batch.size(), snapshots);
        storeJobActivity(c, snapshots);
        storeObservedRestores(c, snapshots);
        PreparedStatement counts = null;
        try {
            for (int i : fresh) {
                AgentReport report = batch.get(i).report();
                if (newBackups[i] != carried(report)) {
                    // some were stored before (a resent backup): the row counts the new ones
                    if (counts == null) {
                        counts = c.prepareStatement("UPDATE reports SET backups = ? WHERE report_id = ?");
                    }
                    counts.setInt(1, newBackups[i]);
                    counts.setString(2, report.reportId());
                    counts.addBatch();
                }
                out[i] = new Outcome(new Stored(report.reportId(), false, newBackups[i]), null);
            }
            if (counts != null) {
                counts.executeBatch();
            }
        } finally {
            if (counts != null) {
                counts.close();
            }
        }
        return List.of(out);
    }

    private static int carried(AgentReport report) {
        int carried = 0;
        for (SqlInstanceSnapshot snapshot : report.instances()) {
            carried += snapshot.backups() == null ? 0 : snapshot.backups().size();
        }
        return carried;
    }

    /**
     * Inserts the reports' ids; returns the indexes of the new reports and marks the others duplicates in {@code out}.
     * Sets {@code server[0]} to PostgreSQL's start time when a report is new (the same round trip).
     */
    private static List<Integer> insertReports(Connection c, List<Incoming> batch, Outcome[] out, String[] server)
            throws SQLException {
        Map<String, Integer> first = new HashMap<>();
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (first.putIfAbsent(batch.get(i).report().reportId(), i) == null) {
                candidates.add(i);
            }
        }
        Set<String> inserted = new HashSet<>();
        for (int from = 0; from < candidates.size(); from += ROWS_PER_STATEMENT) {
            List<Integer> chunk = candidates.subList(from, Math.min(candidates.size(), from + ROWS_PER_STATEMENT));
            try (PreparedStatement s = c.prepareStatement("INSERT INTO reports(report_id, host, created_at, received_at, "
                    + "backups) VALUES " + rows(chunk.size(), 5) + " ON CONFLICT(report_id) DO NOTHING RETURNING report_id, "
                    + "pg_postmaster_start_time()::text")) {
                int at = 1;
                for (int i : chunk) {
                    Incoming in = batch.get(i);
                    s.setString(at++, in.report().reportId());
                    s.setString(at++, in.host());
                    s.setLong(at++, in.report().createdAt().toEpochMilli());
                    s.setLong(at++, in.receivedAt().toEpochMilli());
                    s.setInt(at++, carried(in.report()));
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        inserted.add(rs.getString(1));
                        server[0] = rs.getString(2);
                    }
                }
            }
        }
        List<Integer> fresh = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            String id = batch.get(i).report().reportId();
            if (first.get(id) == i && inserted.contains(id)) {
                fresh.add(i);
            } else {
                out[i] = new Outcome(new Stored(id, true, 0), null);
            }
        }
        return fresh;
    }

    /**
     * The new reports' hosts: those whose sections this collector knows and that sent them unchanged by a guarded update
     * of the agent, probes and times; the others by one upsert a report, in one pipelined batch: agent, probes and tags
     * overwritten, facts kept when left out. When some may be touched, the batch's hosts are first locked in name order
     * and their counters read, so that touches and upserts (two statements) still take the rows' locks in one order.
     */
    private void upsertHosts(Connection c, List<Incoming> batch, List<Integer> fresh, String server,
            Map<String, Known> learned) throws SQLException {
        if (fresh.isEmpty()) {
            return;
        }
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int i : fresh) {
            byHost.computeIfAbsent(batch.get(i).host(), h -> new ArrayList<>()).add(i);
        }
        Map<String, Known> candidates = new HashMap<>();
        byHost.forEach((host, reports) -> {
            Known known = hostsKnown.get(host);
            boolean same = known != null && known.server().equals(server);
            for (int i = 0; same && i < reports.size(); i++) {
                same = hostDigest(batch.get(reports.get(i)).sections()).equals(known.digest());
            }
            if (same) {
                candidates.put(host, known);
            }
        });
        Map<String, Known> touched = new HashMap<>();
        if (!candidates.isEmpty()) {
            Map<String, Long> seqs = lockHosts(c, byHost.keySet());
            // a counter that moved since: another writer changed a section, and the row is written whole
            candidates.forEach((host, known) -> {
                if (seqs.getOrDefault(host, -1L) == known.seq()) {
                    touched.put(host, known);
                }
            });
        }
        List<Integer> whole = new ArrayList<>();
        if (!touched.isEmpty()) {
            List<Integer> touches = new ArrayList<>();
            byHost.forEach((host, reports) -> (touched.containsKey(host) ? touches : whole).addAll(reports));
            try (PreparedStatement s = c.prepareStatement(HOST_TOUCH)) {
                for (int i : touches) {
                    Incoming in = batch.get(i);
                    AgentReport report = in.report();
                    boolean facts = report.host() != null || report.qat() != null || report.licence() != null;
                    s.setLong(1, in.receivedAt().toEpochMilli());
                    s.setString(2, ReportSections.json(in.sections().agent()));
                    s.setString(3, ReportSections.json(in.sections().probes()));
                    setLong(s, 4, facts ? report.createdAt().toEpochMilli() : null);
                    s.setString(5, in.host());
                    s.setLong(6, touched.get(in.host()).seq());
                    s.addBatch();
                }
                int[] counts = s.executeBatch();
                for (int k = 0; k < counts.length; k++) {
                    if (counts[k] == 0) {
                        // the row is locked and its counter was read: only a writer that bypasses both gets here
                        throw new IllegalStateException("host " + batch.get(touches.get(k)).host()
                                + ": its section counter moved while this transaction held the row's lock");
                    }
                }
            }
        } else {
            whole.addAll(fresh);
        }
        if (whole.isEmpty()) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement(HOST_UPSERT, new String[] {"name", "sections_seq"})) {
            for (int i : whole) {
                Incoming in = batch.get(i);
                AgentReport report = in.report();
                ReportSections sections = in.sections();
                boolean facts = report.host() != null || report.qat() != null || report.licence() != null;
                s.setString(1, in.host());
                s.setLong(2, in.receivedAt().toEpochMilli());
                s.setLong(3, in.receivedAt().toEpochMilli());
                s.setString(4, ReportSections.json(sections.agent()));
                s.setString(5, ReportSections.json(sections.probes()));
                s.setString(6, ReportSections.json(sections.tags()));
                s.setString(7, ReportSections.json(sections.facts()));
                s.setString(8, ReportSections.json(sections.qat()));
                s.setString(9, ReportSections.json(sections.licence()));
                s.setString(10, report.licence() == null ? null : report.licence().verdict().name());
                setLong(s, 11, facts ? report.createdAt().toEpochMilli() : null);
                // set here so that the column's trigger (HostSliceColumn) need not work it out in PL/pgSQL
                s.setShort(12, (short) HostSlices.of(in.host()));
                s.addBatch();
            }
            s.executeBatch();
            // one row a report, in the batch's order: a host's last holds the sections of its last report
            Map<String, Long> seqs = new HashMap<>();
            try (ResultSet rs = s.getGeneratedKeys()) {
                while (rs.next()) {
                    seqs.put(rs.getString(1), rs.getLong(2));
                }
            }
            for (int i : whole) {
                Incoming in = batch.get(i);
                learned.put(in.host(), new Known(server, seqs.get(in.host()), hostDigest(in.sections())));
            }
        }
    }

    /** Locks the stored rows of {@code hosts} in name order, the order of every batch; returns their section counters. */
    private static Map<String, Long> lockHosts(Connection c, Set<String> hosts) throws SQLException {
        Map<String, Long> seqs = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT name, sections_seq FROM hosts WHERE name = ANY(?) ORDER BY name FOR NO KEY UPDATE")) {
            s.setArray(1, c.createArrayOf("text", hosts.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    seqs.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return seqs;
    }

    /**
     * The instances' rows, and their configuration, accelerator and databases changes against what was stored before (one read
     * for the batch; a second report of an instance compares with the first's). An instance whose sections this collector
     * knows and that sent them unchanged is only touched (its last report, running backups and high-water mark), with
     * nothing to compare: unchanged sections make no change history.
     */
    private void upsertInstances(Connection c, List<Incoming> batch, List<Snapshot> snapshots, String server,
            Map<String, Known> learned) throws SQLException {
        if (snapshots.isEmpty()) {
            return;
        }
        Map<String, List<Snapshot>> byInstance = new LinkedHashMap<>();
        for (Snapshot x : snapshots) {
            byInstance.computeIfAbsent(x.key(), k -> new ArrayList<>()).add(x);
        }
        Map<String, Known> candidates = new HashMap<>();
        byInstance.forEach((key, reports) -> {
            Known known = instancesKnown.get(key);
            boolean same = known != null && known.server().equals(server);
            for (int i = 0; same && i < reports.size(); i++) {
                same = instanceDigest(reports.get(i).sections()).equals(known.digest());
            }
            if (same) {
                candidates.put(key, known);
            }
        });
        Set<String> whole = new HashSet<>(byInstance.keySet());
        whole.removeAll(candidates.keySet());
        if (!candidates.isEmpty()) {
            // the hosts' rows are locked already (above), so the instances' lock order does not matter
            List<Snapshot> touches = snapshots.stream().filter(x -> candidates.containsKey(x.key())).toList();
            try (PreparedStatement s = c.prepareStatement(INSTANCE_TOUCH)) {
                for (Snapshot x : touches) {
                    s.setLong(1, batch.get(x.report()).receivedAt().toEpochMilli());
                    s.setString(2, ReportSections.json(x.sections().running()));
                    setLong(s, 3, x.snap().backupHighWaterMark());
                    s.setString(4, x.host());
                    s.setString(5, x.snap().name());
                    s.setLong(6, candidates.get(x.key()).seq());
                    s.addBatch();
                }
                int[] counts = s.executeBatch();
                for (int k = 0; k < counts.length; k++) {
                    if (counts[k] == 0) {
                        // another writer changed a section since: the row is written whole, its history compared
                        whole.add(touches.get(k).key());
                    }
                }
            }
        }
        if (whole.isEmpty()) {
            return;
        }
        List<Snapshot> written = snapshots.stream().filter(x -> whole.contains(x.key())).toList();
        Map<String, String[]> stored = storedHistorySections(c, written);
        try (PreparedStatement s = c.prepareStatement(INSTANCE_UPSERT, new String[] {"host", "name", "sections_seq"});
             PreparedStatement changes = c.prepareStatement(CHANGE_INSERT)) {
            int changed = 0;
            for (Snapshot x : written) {
                SqlInstanceSnapshot snap = x.snap();
                InstanceSections sections = x.sections();
                InstanceRow.bind(s, x.host(), snap, sections, batch.get(x.report()).receivedAt());
                s.addBatch();
                String[] previous = stored.computeIfAbsent(x.key(), k -> new String[SECTIONS.length]);
                String[] next = {ReportSections.json(sections.configuration()), ReportSections.json(sections.accelerators()),
                    ReportSections.json(sections.databases())};
                for (int k = 0; k < SECTIONS.length; k++) {
                    if (next[k] != null && !SqlReportStore.sameJson(previous[k], next[k])) {
                        changes.setString(1, x.host());
                        changes.setString(2, snap.name());
                        changes.setString(3, SECTIONS[k]);
                        changes.setLong(4, snap.collectedAt().toEpochMilli());
                        changes.setString(5, previous[k]);
                        changes.setString(6, next[k]);
                        changes.addBatch();
                        changed++;
                    }
                    if (next[k] != null) {
                        previous[k] = next[k];
                    }
                }
            }
            s.executeBatch();
            Map<String, Long> seqs = new HashMap<>();
            try (ResultSet rs = s.getGeneratedKeys()) {
                while (rs.next()) {
                    seqs.put(rs.getString(1) + '\n' + rs.getString(2), rs.getLong(3));
                }
            }
            for (Snapshot x : written) {
                learned.put(x.key(), new Known(server, seqs.get(x.key()), instanceDigest(x.sections())));
            }
            if (changed > 0) {
                changes.executeBatch();
            }
        }
    }

    /** The stored configuration and accelerator JSON of the snapshots' instances, by {@code host\ninstance}. */
    private static Map<String, String[]> storedHistorySections(Connection c, List<Snapshot> snapshots) throws SQLException {
        Map<String, Snapshot> distinct = new LinkedHashMap<>();
        for (Snapshot x : snapshots) {
            distinct.putIfAbsent(x.key(), x);
        }
        List<Snapshot> keys = new ArrayList<>(distinct.values());
        Map<String, String[]> out = new HashMap<>();
        for (int from = 0; from < keys.size(); from += ROWS_PER_STATEMENT) {
            List<Snapshot> chunk = keys.subList(from, Math.min(keys.size(), from + ROWS_PER_STATEMENT));
            try (PreparedStatement s = c.prepareStatement("SELECT host, name, configuration_json, accelerators_json, "
                    + "databases_json FROM instances WHERE (host, name) IN (" + rows(chunk.size(), 2) + ")")) {
                int at = 1;
                for (Snapshot x : chunk) {
                    s.setString(at++, x.host());
                    s.setString(at++, x.snap().name());
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1) + '\n' + rs.getString(2), new String[] {rs.getString(3), rs.getString(4),
                                rs.getString(5)});
                    }
                }
            }
        }
        return out;
    }

    /**
     * Inserts the backups no backup stored before (or earlier in the batch) has the key of; returns each report's
     * number of new backups, by its index in the batch.
     */
    private static int[] insertBackups(Connection c, int reports, List<Snapshot> snapshots) throws SQLException {
        int[] newBackups = new int[reports];
        Map<BackupKey, Integer> carrier = new HashMap<>();
        List<BackupKey> keys = new ArrayList<>();
        List<BackupRecord> rows = new ArrayList<>();
        for (Snapshot x : snapshots) {
            if (x.snap().backups() == null) {
                continue;
            }
            for (BackupRecord b : x.snap().backups()) {
                BackupKey key = new BackupKey(x.host(), x.snap().name(), b.backupSetId());
                if (carrier.putIfAbsent(key, x.report()) == null) {
                    keys.add(key);
                    rows.add(b);
                }
            }
        }
        // only a backup stored before is skipped; any other constraint (NOT NULL) fails the batch
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            int to = Math.min(rows.size(), from + ROWS_PER_STATEMENT);
            try (PreparedStatement s = c.prepareStatement(BackupsTable.INSERT
                    + (BackupsTable.ROW + ",").repeat(to - from - 1) + BackupsTable.ROW
                    + " ON CONFLICT(host, instance, backup_set_id) DO NOTHING RETURNING host, instance, backup_set_id")) {
                int at = 0;
                for (int r = from; r < to; r++) {
                    BackupsTable.bind(s, at, keys.get(r).host(), keys.get(r).instance(), rows.get(r));
                    at += BackupsTable.PARAMS;
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        newBackups[carrier.get(new BackupKey(rs.getString(1), rs.getString(2), rs.getLong(3)))]++;
                    }
                }
            }
        }
        return newBackups;
    }

    /** Job runs, CommandLog rows and restores in one batch a table, then each instance's jobs section and marks. */
    private static void storeJobActivity(Connection c, List<Snapshot> snapshots) throws SQLException {
        List<Snapshot> reporting = snapshots.stream().filter(x -> JobActivityTables.reported(x.snap())).toList();
        if (reporting.isEmpty()) {
            return;
        }
        int[][] rows = new int[3][reporting.size()];
        int[][] counts = new int[3][];
        try (PreparedStatement runs = c.prepareStatement(JobActivityTables.JOB_RUN_INSERT);
             PreparedStatement commands = c.prepareStatement(JobActivityTables.COMMAND_LOG_INSERT);
             PreparedStatement restores = c.prepareStatement(JobActivityTables.RESTORE_INSERT)) {
            int[] total = new int[3];
            for (int k = 0; k < reporting.size(); k++) {
                Snapshot x = reporting.get(k);
                rows[0][k] = JobActivityTables.addRuns(runs, x.host(), x.snap());
                rows[1][k] = JobActivityTables.addCommands(commands, x.host(), x.snap());
                rows[2][k] = JobActivityTables.addRestores(restores, x.host(), x.snap());
                for (int t = 0; t < 3; t++) {
                    total[t] += rows[t][k];
                }
            }
            PreparedStatement[] tables = {runs, commands, restores};
            for (int t = 0; t < 3; t++) {
                counts[t] = total[t] == 0 ? new int[0] : tables[t].executeBatch();
            }
        }
        try (PreparedStatement u = c.prepareStatement(JobActivityTables.update(Database.Kind.POSTGRESQL))) {
            int[] offset = new int[3];
            for (int k = 0; k < reporting.size(); k++) {
                Snapshot x = reporting.get(k);
                int inserted = 0;
                for (int t = 0; t < 3; t++) {
                    inserted += JobActivityTables.added(counts[t], offset[t], rows[t][k]);
                    offset[t] += rows[t][k];
                }
                JobActivityTables.bindUpdate(u, x.host(), x.snap(), ReportSections.json(x.sections().jobs()), inserted);
                u.addBatch();
            }
            u.executeBatch();
        }
    }

    /** The observed restores of every instance in one batch; one stored before (a re-sent report's) is skipped. */
    private static void storeObservedRestores(Connection c, List<Snapshot> snapshots) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(RestoresTable.INSERT)) {
            int rows = 0;
            for (Snapshot x : snapshots) {
                rows += RestoresTable.add(s, x.host(), x.snap());
            }
            if (rows > 0) {
                s.executeBatch();
            }
        }
    }

    /** {@code n} rows of {@code width} parameters each, for a multi-row {@code VALUES} or {@code IN} list. */
    private static String rows(int n, int width) {
        String row = "(" + "?,".repeat(width - 1) + "?)";
        return (row + ",").repeat(n - 1) + row;
    }
}
