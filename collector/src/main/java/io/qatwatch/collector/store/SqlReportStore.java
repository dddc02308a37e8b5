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
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
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
import java.time.Instant;
import io.qatwatch.collector.store.ReportSections.Digest;
import io.qatwatch.collector.store.ReportSections.InstanceSections;
import io.qatwatch.collector.store.ReportSections.Section;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The {@link ReportStore} over SQL, on the embedded SQLite file or on PostgreSQL: reports are stored in
 * group-committed batches, reads run on connections that never wait for the writer. The SQL is the same on both
 * ({@code INSERT ... ON CONFLICT}); what differs is the schema (each database has its own migrations), how store
 * positions are read ({@link #backupsAfter}) and whether this process may remember what it wrote: on SQLite it is
 * the only writer, on PostgreSQL other collectors write the same rows.
 */
public final class SqlReportStore implements ReportStore {

    private static final ObjectMapper JSON = ReportJson.mapper();

    /**
     * The PostgreSQL schema: SQLite's tables as its four components built them, with 64-bit integers for times,
     * {@code jsonb} sections, byte-order ({@code "C"}) collation for names so pages sort as on SQLite, the section
     * counters kept by a trigger, and {@code backups.tx}, the inserting transaction's id, as the store position.
     */
    private static final List<String> POSTGRES_STEPS = List.of("""
            CREATE TABLE reports (
              report_id TEXT COLLATE "C" PRIMARY KEY,
              host TEXT COLLATE "C" NOT NULL,
              created_at BIGINT NOT NULL,
              received_at BIGINT NOT NULL,
              backups INTEGER NOT NULL);
            CREATE INDEX reports_received ON reports(received_at);
            CREATE TABLE hosts (
              name TEXT COLLATE "C" PRIMARY KEY,
              first_seen BIGINT NOT NULL,
              last_seen BIGINT NOT NULL,
              agent_json JSONB,
              facts_json JSONB,
              qat_json JSONB,
              licence_json JSONB,
              licence_verdict TEXT,
              facts_at BIGINT,
              probes_json JSONB,
              sections_seq BIGINT NOT NULL DEFAULT 0);
            CREATE INDEX hosts_by_name_seen ON hosts(name, last_seen);
            CREATE TABLE instances (
              host TEXT COLLATE "C" NOT NULL,
              name TEXT COLLATE "C" NOT NULL,
              last_seen BIGINT NOT NULL,
              server_json JSONB,
              configuration_json JSONB,
              accelerators_json JSONB,
              databases_json JSONB,
              running_json JSONB,
              certificates_json JSONB,
              high_water_mark BIGINT,
              asymmetric_keys_json JSONB,
              sections_seq BIGINT NOT NULL DEFAULT 0,
              PRIMARY KEY (host, name));
            CREATE TABLE instance_changes (
              id BIGSERIAL PRIMARY KEY,
              host TEXT COLLATE "C" NOT NULL,
              instance TEXT COLLATE "C" NOT NULL,
              section TEXT NOT NULL,
              changed_at BIGINT NOT NULL,
              old_json JSONB,
              new_json JSONB);
            CREATE INDEX instance_changes_at ON instance_changes(host, instance, changed_at);
            CREATE TABLE backups (
              host TEXT COLLATE "C" NOT NULL,
              instance TEXT COLLATE "C" NOT NULL,
              backup_set_id BIGINT NOT NULL,
              database_name TEXT NOT NULL,
              database_guid TEXT,
              type TEXT NOT NULL,
              copy_only SMALLINT NOT NULL,
              started_at BIGINT NOT NULL,
              finished_at BIGINT NOT NULL,
              tz_known SMALLINT NOT NULL,
              size_bytes BIGINT NOT NULL,
              compressed_bytes BIGINT,
              algorithm TEXT,
              checksums SMALLINT NOT NULL,
              key_algorithm TEXT,
              encryptor_thumbprint TEXT,
              encryptor_type TEXT,
              device_type TEXT,
              target TEXT,
              family_guid TEXT,
              snapshot SMALLINT,
              tx BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
              PRIMARY KEY (host, instance, backup_set_id));
            CREATE INDEX backups_by_start ON backups(host, instance, started_at);
            CREATE INDEX backups_by_guid ON backups(database_guid, started_at);
            CREATE INDEX backups_by_tx ON backups(tx);
            CREATE FUNCTION hosts_sections() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF OLD.facts_json IS DISTINCT FROM NEW.facts_json OR OLD.qat_json IS DISTINCT FROM NEW.qat_json
                 OR OLD.licence_json IS DISTINCT FROM NEW.licence_json THEN
                NEW.sections_seq := OLD.sections_seq + 1;
              END IF;
              RETURN NEW;
            END $$;
            CREATE TRIGGER hosts_sections BEFORE UPDATE ON hosts FOR EACH ROW EXECUTE FUNCTION hosts_sections();
            CREATE FUNCTION instances_sections() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF OLD.server_json IS DISTINCT FROM NEW.server_json
                 OR OLD.configuration_json IS DISTINCT FROM NEW.configuration_json
                 OR OLD.accelerators_json IS DISTINCT FROM NEW.accelerators_json
                 OR OLD.databases_json IS DISTINCT FROM NEW.databases_json
                 OR OLD.certificates_json IS DISTINCT FROM NEW.certificates_json
                 OR OLD.asymmetric_keys_json IS DISTINCT FROM NEW.asymmetric_keys_json THEN
                NEW.sections_seq := OLD.sections_seq + 1;
              END IF;
              RETURN NEW;
            END $$;
            CREATE TRIGGER instances_sections BEFORE UPDATE ON instances FOR EACH ROW
              EXECUTE FUNCTION instances_sections()""");

    /**
     * The agent's tags (issue 23) in a column of their own, so that a change of tags moves the section counter: a
     * component of its own, as on SQLite.
     */
    private static final List<String> POSTGRES_TAGS_STEPS = List.of("""
            ALTER TABLE hosts ADD COLUMN tags_json JSONB;
            CREATE OR REPLACE FUNCTION hosts_sections() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF OLD.facts_json IS DISTINCT FROM NEW.facts_json OR OLD.qat_json IS DISTINCT FROM NEW.qat_json
                 OR OLD.licence_json IS DISTINCT FROM NEW.licence_json OR OLD.tags_json IS DISTINCT FROM NEW.tags_json THEN
                NEW.sections_seq := OLD.sections_seq + 1;
              END IF;
              RETURN NEW;
            END $$""");

    /**
     * Issue 15: SQL Server Agent jobs (the latest section, with a counter of its own that moves when it or the job
     * activity below changes), job runs, Ola Hallengren's CommandLog backup rows, restores, and each backup's number
     * of media families. A component of its own, so the steps above stay as they are.
     */
    private static final List<String> POSTGRES_JOBS_STEPS = List.of("""
            ALTER TABLE backups ADD COLUMN media_families INTEGER;
            ALTER TABLE instances ADD COLUMN jobs_status TEXT;
            ALTER TABLE instances ADD COLUMN jobs_json JSONB;
            ALTER TABLE instances ADD COLUMN job_history_hwm BIGINT;
            ALTER TABLE instances ADD COLUMN command_log_hwm BIGINT;
            ALTER TABLE instances ADD COLUMN restore_hwm BIGINT;
            ALTER TABLE instances ADD COLUMN jobs_seq BIGINT NOT NULL DEFAULT 0;
            CREATE TABLE job_runs (
              host TEXT COLLATE "C" NOT NULL,
              instance TEXT COLLATE "C" NOT NULL,
              instance_id BIGINT NOT NULL,
              job_id TEXT NOT NULL,
              job_name TEXT,
              step_id INTEGER NOT NULL,
              step_name TEXT,
              status TEXT NOT NULL,
              started_at BIGINT NOT NULL,
              duration_seconds BIGINT NOT NULL,
              message TEXT,
              sql_message_id INTEGER,
              sql_severity INTEGER,
              PRIMARY KEY (host, instance, instance_id));
            CREATE INDEX job_runs_by_start ON job_runs(host, instance, started_at);
            CREATE TABLE command_log (
              host TEXT COLLATE "C" NOT NULL,
              instance TEXT COLLATE "C" NOT NULL,
              id BIGINT NOT NULL,
              database_name TEXT,
              command_type TEXT,
              command TEXT,
              started_at BIGINT NOT NULL,
              ended_at BIGINT,
              algorithm TEXT,
              level TEXT,
              error_number INTEGER,
              PRIMARY KEY (host, instance, id));
            CREATE INDEX command_log_by_start ON command_log(host, instance, started_at);
            CREATE TABLE restores (
              host TEXT COLLATE "C" NOT NULL,
              instance TEXT COLLATE "C" NOT NULL,
              restore_history_id BIGINT NOT NULL,
              destination_database TEXT,
              restored_at BIGINT NOT NULL,
              restore_type TEXT,
              source_server TEXT,
              source_database TEXT,
              source_database_guid TEXT,
              family_guid TEXT,
              backup_finished_at BIGINT,
              backup_type TEXT,
              PRIMARY KEY (host, instance, restore_history_id));
            CREATE INDEX restores_by_time ON restores(host, instance, restored_at)""");

    /**
     * Issue 21: {@code backups_by_guid} goes. No query of the collector reads backups by database GUID (the alert
     * stage merges availability-group replicas from the backups it loads per instance), yet every backup inserted
     * wrote a leaf of that index at a random place, a page of WAL on SQLite. A component of its own on both stores.
     */
    private static final List<String> INDEX_STEPS = List.of("DROP INDEX IF EXISTS backups_by_guid");

    /** The advisory lock key of retention pruning on PostgreSQL. */
    private static final long PRUNE_LOCK = 0x7161747761746370L;

    private final Database db;
    private final StageReads reads;
    private final Database.Kind kind;
    /**
     * True on SQLite, where this store is the only writer of its rows and so may skip writing a section it knows the
     * row holds already; on PostgreSQL other collectors write the same rows, and {@link PostgresReportBatch} skips
     * only while the row's section counter shows that nobody wrote a section since.
     */
    private final boolean onlyWriter;
    /** The SQLite writer's statements by their SQL, prepared once for the store's life (the writer is one connection). */
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    /**
     * What this store last wrote of each host's sections (agent, probes, facts, QAT, licence) and of each
     * {@code host\ninstance}'s: the digest of the JSON in the row. Only when {@link #onlyWriter}.
     */
    private final Map<String, Digest[]> hostsWritten = new HashMap<>();
    private final Map<String, InstanceWritten> instancesWritten = new HashMap<>();
    /** The hosts and instances the report being stored wrote, forgotten above if it rolls back. */
    private final List<String> touched = new ArrayList<>();
    /** PostgreSQL's batch writer, with what it knows of the rows it wrote; null on SQLite. */
    private final PostgresReportBatch batches;

    public SqlReportStore(Database db) throws SQLException {
        this.db = db;
        this.reads = new StageReads(db);
        this.kind = db.kind();
        this.onlyWriter = kind == Database.Kind.SQLITE;
        this.batches = onlyWriter ? null : new PostgresReportBatch();
        if (kind == Database.Kind.POSTGRESQL) {
            db.migrate("reports", POSTGRES_STEPS);
            db.migrate("host-tags", POSTGRES_TAGS_STEPS);
            db.migrate("jobs", POSTGRES_JOBS_STEPS);
            db.migrate("backups-indexes", INDEX_STEPS);
            db.migrate(BackupsTable.CHAIN_AND_CPU_COMPONENT, BackupsTable.chainAndCpuSteps(kind));
            db.migrate(BackupsTable.SET_UUID_COMPONENT, BackupsTable.setUuidSteps());
            db.migrate(RestoresTable.COMPONENT, RestoresTable.steps(kind));
            db.migrate(PostgresReportBatch.TRIGGERS_COMPONENT, PostgresReportBatch.TRIGGER_STEPS);
            db.migrate(HostSliceColumn.COMPONENT, HostSliceColumn.STEPS);
            db.migrate(InstanceSummaries.COMPONENT, InstanceSummaries.steps(kind));
            return;
        }
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
        // What a real SQL Server also says (issue 14): a backup's family GUID and whether it was a snapshot (NULL in
        // rows stored before: not known), and an instance's asymmetric keys, which the rules read, so a change of
        // them moves the instance's section counter. A component of its own, so the steps above stay as they are.
        db.migrate("reports-fidelity", List.of(String.join(";\n",
                "ALTER TABLE backups ADD COLUMN family_guid TEXT",
                "ALTER TABLE backups ADD COLUMN snapshot INTEGER",
                "ALTER TABLE instances ADD COLUMN asymmetric_keys_json TEXT",
                "DROP TRIGGER instances_sections",
                "CREATE TRIGGER instances_sections AFTER UPDATE OF server_json, configuration_json, accelerators_json, "
                        + "databases_json, certificates_json, asymmetric_keys_json ON instances "
                        + "WHEN OLD.server_json IS NOT NEW.server_json OR OLD.configuration_json IS NOT NEW.configuration_json "
                        + "OR OLD.accelerators_json IS NOT NEW.accelerators_json OR OLD.databases_json IS NOT NEW.databases_json "
                        + "OR OLD.certificates_json IS NOT NEW.certificates_json "
                        + "OR OLD.asymmetric_keys_json IS NOT NEW.asymmetric_keys_json "
                        + "BEGIN UPDATE instances SET sections_seq = sections_seq + 1 WHERE rowid = NEW.rowid; END")));
        // The agent's tags (issue 23) in a column of their own: the agent section changes every report (uptime), the
        // tags seldom, and host groups match them, so a change of tags moves the host's section counter.
        db.migrate("host-tags", List.of(String.join(";\n",
                "ALTER TABLE hosts ADD COLUMN tags_json TEXT",
                "DROP TRIGGER hosts_sections",
                "CREATE TRIGGER hosts_sections AFTER UPDATE OF facts_json, qat_json, licence_json, tags_json ON hosts "
                        + "WHEN OLD.facts_json IS NOT NEW.facts_json OR OLD.qat_json IS NOT NEW.qat_json "
                        + "OR OLD.licence_json IS NOT NEW.licence_json OR OLD.tags_json IS NOT NEW.tags_json "
                        + "BEGIN UPDATE hosts SET sections_seq = sections_seq + 1 WHERE rowid = NEW.rowid; END")));
        // Pages and counts of the fleet walk host names with their last report from this index alone: the host
        // rows hold kilobytes of facts each, 0.4 s to walk at 100,000 hosts against 0.02 s for the index.
        // A component of its own, so the reports tables' steps stay as they are.
        db.migrate("fleet-pages", List.of("CREATE INDEX IF NOT EXISTS hosts_by_name_seen ON hosts(name, last_seen)"));
        // Issue 15: SQL Server Agent jobs, job runs, CommandLog backup rows and restores (see POSTGRES_JOBS_STEPS).
        db.migrate("jobs", List.of(String.join(";\n",
                "ALTER TABLE backups ADD COLUMN media_families INTEGER",
                "ALTER TABLE instances ADD COLUMN jobs_status TEXT",
                "ALTER TABLE instances ADD COLUMN jobs_json TEXT",
                "ALTER TABLE instances ADD COLUMN job_history_hwm INTEGER",
                "ALTER TABLE instances ADD COLUMN command_log_hwm INTEGER",
                "ALTER TABLE instances ADD COLUMN restore_hwm INTEGER",
                "ALTER TABLE instances ADD COLUMN jobs_seq INTEGER NOT NULL DEFAULT 0",
                """
                CREATE TABLE job_runs (
                  host TEXT NOT NULL,
                  instance TEXT NOT NULL,
                  instance_id INTEGER NOT NULL,
                  job_id TEXT NOT NULL,
                  job_name TEXT,
                  step_id INTEGER NOT NULL,
                  step_name TEXT,
                  status TEXT NOT NULL,
                  started_at INTEGER NOT NULL,
                  duration_seconds INTEGER NOT NULL,
                  message TEXT,
                  sql_message_id INTEGER,
                  sql_severity INTEGER,
                  PRIMARY KEY (host, instance, instance_id))""",
                "CREATE INDEX job_runs_by_start ON job_runs(host, instance, started_at)",
                """
                CREATE TABLE command_log (
                  host TEXT NOT NULL,
                  instance TEXT NOT NULL,
                  id INTEGER NOT NULL,
                  database_name TEXT,
                  command_type TEXT,
                  command TEXT,
                  started_at INTEGER NOT NULL,
                  ended_at INTEGER,
                  algorithm TEXT,
                  level TEXT,
                  error_number INTEGER,
                  PRIMARY KEY (host, instance, id))""",
                "CREATE INDEX command_log_by_start ON command_log(host, instance, started_at)",
                """
                CREATE TABLE restores (
                  host TEXT NOT NULL,
                  instance TEXT NOT NULL,
                  restore_history_id INTEGER NOT NULL,
                  destination_database TEXT,
                  restored_at INTEGER NOT NULL,
                  restore_type TEXT,
                  source_server TEXT,
                  source_database TEXT,
                  source_database_guid TEXT,
                  family_guid TEXT,
                  backup_finished_at INTEGER,
                  backup_type TEXT,
                  PRIMARY KEY (host, instance, restore_history_id))""",
                "CREATE INDEX restores_by_time ON restores(host, instance, restored_at)")));
        db.migrate("backups-indexes", INDEX_STEPS);
        db.migrate(BackupsTable.CHAIN_AND_CPU_COMPONENT, BackupsTable.chainAndCpuSteps(kind));
        db.migrate(BackupsTable.SET_UUID_COMPONENT, BackupsTable.setUuidSteps());
        db.migrate(RestoresTable.COMPONENT, RestoresTable.steps(kind));
        db.migrate(InstanceSummaries.COMPONENT, InstanceSummaries.steps(kind));
    }

    @Override
    public Stored store(String host, AgentReport report, Instant receivedAt) throws SQLException, IOException {
        Incoming in = new Incoming(host, report, receivedAt);
        return db.write(c -> {
            c.setAutoCommit(false);
            try {
                Stored stored = storeInTransaction(c, in);
                c.commit();
                return stored;
            } catch (SQLException | IOException | RuntimeException e) {
                c.rollback();
                forgetWritten();
                throw e;
            } finally {
                touched.clear();
                c.setAutoCommit(true);
            }
        });
    }

    /**
     * Group commit: every report in one transaction, so the commit (with {@code synchronous=FULL}, the disk flush)
     * is paid once per batch. One report's failure must fail only that report: the batch is first stored without
     * savepoints (reports rarely fail, and two statements a report are saved); if one fails, the transaction is
     * rolled back and the batch stored again with each report behind a savepoint of its own. On PostgreSQL the first
     * try is {@link PostgresReportBatch}: each table written once for the batch, not once per report.
     *
     * <p>On PostgreSQL the batch is stored in host order, so that two collectors storing reports of the same hosts
     * take the rows' locks in the same order and never deadlock.
     */
    @Override
    public List<Outcome> storeAll(List<Incoming> batch) {
        List<Integer> order = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            order.add(i);
        }
        if (!onlyWriter) {
            // by host (the rows' lock order), then in the order the reports were made, so that an instance's change
            // history (configuration, accelerators, databases) compares each report with the one before it
            order.sort(java.util.Comparator.comparing((Integer i) -> batch.get(i).host())
                    .thenComparing(i -> batch.get(i).report().createdAt())
                    .thenComparing(i -> batch.get(i).report().reportId()));
        }
        List<Incoming> sorted = order.stream().map(batch::get).toList();
        List<Outcome> stored;
        try {
            stored = db.write(c -> {
                // PostgreSQL: a round trip per table and batch instead of several per report
                List<Outcome> out = onlyWriter ? storeBatch(c, sorted, false) : batches.store(c, sorted);
                return out != null ? out : storeBatch(c, sorted, true);
            });
        } catch (SQLException | IOException e) {
            // no connection: every report fails, and the agents send them again
            stored = sorted.stream().map(in -> new Outcome(null, e)).toList();
        }
        Outcome[] out = new Outcome[batch.size()];
        for (int i = 0; i < order.size(); i++) {
            out[order.get(i)] = stored.get(i);
        }
        return List.of(out);
    }

    /** One transaction; without savepoints, null when a report failed (everything rolled back). */
    private List<Outcome> storeBatch(Connection c, List<Incoming> batch, boolean savepoints) {
        List<Outcome> out = new ArrayList<>(batch.size());
        try {
            c.setAutoCommit(false);
            for (Incoming in : batch) {
                if (savepoints) {
                    statement(c, "SAVEPOINT report").execute();
                }
                try {
                    out.add(new Outcome(storeInTransaction(c, in), null));
                    if (savepoints) {
                        statement(c, "RELEASE report").execute();
                        touched.clear();
                    }
                } catch (SQLException | IOException | RuntimeException e) {
                    forgetWritten();
                    touched.clear();
                    if (e instanceof SQLException sql && Database.unavailable(sql)) {
                        // the database went away: no report of the batch can be stored, and the agents retry
                        throw sql;
                    }
                    if (!savepoints) {
                        c.rollback();
                        return null;
                    }
                    statement(c, "ROLLBACK TO report").execute();
                    statement(c, "RELEASE report").execute();
                    out.add(new Outcome(null, e));
                }
            }
            c.commit();
            touched.clear();
            return out;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the commit's error is the one to report
            }
            touched.clear();
            hostsWritten.clear();
            instancesWritten.clear();
            return batch.stream().map(in -> new Outcome(null, e)).toList();
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the next call reports it
            }
        }
    }

    /**
     * A statement of the writer connection: on SQLite prepared once for the store's life; on PostgreSQL prepared on the
     * pooled connection, whose driver keeps it prepared on the server, and closed by the pool when it is returned.
     */
    private PreparedStatement statement(Connection c, String sql) throws SQLException {
        if (!onlyWriter) {
            return c.prepareStatement(sql);
        }
        PreparedStatement s = statements.get(sql);
        if (s == null) {
            s = c.prepareStatement(sql);
            statements.put(sql, s);
        }
        return s;
    }

    /** The report being stored rolled back: what it wrote is no longer known, so its host and instances are rewritten whole. */
    private void forgetWritten() {
        for (String key : touched) {
            hostsWritten.remove(key);
            instancesWritten.remove(key);
        }
    }

    private Stored storeInTransaction(Connection c, Incoming in) throws SQLException, IOException {
        AgentReport report = in.report();
        int carried = 0;
        for (SqlInstanceSnapshot snapshot : report.instances()) {
            carried += snapshot.backups() == null ? 0 : snapshot.backups().size();
        }
        PreparedStatement s = statement(c, """
                INSERT INTO reports(report_id, host, created_at, received_at, backups) VALUES (?,?,?,?,?)
                ON CONFLICT(report_id) DO NOTHING""");
        s.setString(1, report.reportId());
        s.setString(2, in.host());
        s.setLong(3, report.createdAt().toEpochMilli());
        s.setLong(4, in.receivedAt().toEpochMilli());
        s.setInt(5, carried);
        if (s.executeUpdate() == 0) {
            return new Stored(report.reportId(), true, 0);
        }
        upsertHost(c, in.host(), report, in.sections(), in.receivedAt());
        int newBackups = 0;
        for (int i = 0; i < report.instances().size(); i++) {
            SqlInstanceSnapshot snapshot = report.instances().get(i);
            upsertInstance(c, in.host(), snapshot, in.sections().instances().get(i), in.receivedAt());
            newBackups += insertBackups(c, in.host(), snapshot);
            storeJobActivity(c, in.host(), snapshot, in.sections().instances().get(i));
            if (snapshot.observedRestores() != null && !snapshot.observedRestores().isEmpty()) {
                PreparedStatement restores = statement(c, RestoresTable.INSERT);
                RestoresTable.add(restores, in.host(), snapshot);
                restores.executeBatch();
            }
        }
        if (newBackups != carried) {
            // some were stored before (a resent backup): the row counts the new ones
            PreparedStatement count = statement(c, "UPDATE reports SET backups = ? WHERE report_id = ?");
            count.setInt(1, newBackups);
            count.setString(2, report.reportId());
            count.executeUpdate();
        }
        return new Stored(report.reportId(), false, newBackups);
    }

    /**
     * Updates the host's row. Its first report since the store opened writes every section; later ones write only
     * the sections whose JSON changed (an agent resends unchanged facts every cycle) and the times.
     */
    private void upsertHost(Connection c, String host, AgentReport report, ReportSections sections, Instant now)
            throws SQLException {
        touched.add(host);
        boolean facts = report.host() != null || report.qat() != null || report.licence() != null;
        Digest[] known = onlyWriter ? hostsWritten.get(host) : null;
        if (known == null) {
            PreparedStatement s = statement(c, """
                    INSERT INTO hosts(name, first_seen, last_seen, agent_json, probes_json) VALUES (?,?,?,?,?)
                    ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen, agent_json = excluded.agent_json,
                      probes_json = excluded.probes_json""");
            s.setString(1, host);
            s.setLong(2, now.toEpochMilli());
            s.setLong(3, now.toEpochMilli());
            s.setString(4, ReportSections.json(sections.agent()));
            s.setString(5, ReportSections.json(sections.probes()));
            s.executeUpdate();
            if (facts) {
                PreparedStatement f = statement(c, """
                        UPDATE hosts SET facts_json = COALESCE(?, facts_json), qat_json = COALESCE(?, qat_json),
                          licence_json = COALESCE(?, licence_json), licence_verdict = COALESCE(?, licence_verdict),
                          facts_at = ? WHERE name = ?""");
                f.setString(1, ReportSections.json(sections.facts()));
                f.setString(2, ReportSections.json(sections.qat()));
                f.setString(3, ReportSections.json(sections.licence()));
                f.setString(4, report.licence() == null ? null : report.licence().verdict().name());
                f.setLong(5, report.createdAt().toEpochMilli());
                f.setString(6, host);
                f.executeUpdate();
            }
            PreparedStatement t = statement(c, "UPDATE hosts SET tags_json = ? WHERE name = ?");
            t.setString(1, ReportSections.json(sections.tags()));
            t.setString(2, host);
            t.executeUpdate();
            // agent, probes and tags are overwritten (null too); facts, QAT and licence only by a value (null: not known)
            if (onlyWriter) {
                hostsWritten.put(host, new Digest[] {digest(sections.agent()), digest(sections.probes()),
                    digest(sections.facts()), digest(sections.qat()), digest(sections.licence()), digest(sections.tags())});
            }
            return;
        }
        Update update = new Update("hosts");
        update.set("last_seen", now.toEpochMilli());
        overwrite(update, "agent_json", sections.agent(), known, 0);
        overwrite(update, "probes_json", sections.probes(), known, 1);
        overwrite(update, "tags_json", sections.tags(), known, 5);
        coalesce(update, "facts_json", sections.facts(), known, 2);
        coalesce(update, "qat_json", sections.qat(), known, 3);
        if (coalesce(update, "licence_json", sections.licence(), known, 4)) {
            update.set("licence_verdict", report.licence().verdict().name());
        }
        if (facts) {
            update.set("facts_at", report.createdAt().toEpochMilli());
        }
        update.run(c, "name = ?", host);
    }

    /**
     * Updates the instance's row and records configuration and accelerator changes. As for hosts, the first report
     * since the store opened writes every section, later ones only what changed.
     */
    private void upsertInstance(Connection c, String host, SqlInstanceSnapshot snap, InstanceSections sections,
            Instant now) throws SQLException {
        String key = host + '\n' + snap.name();
        touched.add(key);
        InstanceWritten known = onlyWriter ? instancesWritten.get(key) : null;
        if (known == null) {
            String[] previous = previousHistorySections(c, host, snap.name());
            PreparedStatement s = statement(c, InstanceRow.INSERT + """
                    ON CONFLICT(host, name) DO UPDATE SET last_seen = excluded.last_seen,
                      server_json = COALESCE(excluded.server_json, instances.server_json),
                      configuration_json = COALESCE(excluded.configuration_json, instances.configuration_json),
                      accelerators_json = COALESCE(excluded.accelerators_json, instances.accelerators_json),
                      databases_json = COALESCE(excluded.databases_json, instances.databases_json),
                      running_json = COALESCE(excluded.running_json, instances.running_json),
                      certificates_json = COALESCE(excluded.certificates_json, instances.certificates_json),
                      asymmetric_keys_json = COALESCE(excluded.asymmetric_keys_json, instances.asymmetric_keys_json),
                      high_water_mark = """ + kind.greatest("COALESCE(excluded.high_water_mark, 0)",
                "COALESCE(instances.high_water_mark, 0)"));
            InstanceRow.bind(s, host, snap, sections, now);
            s.executeUpdate();
            recordChange(c, host, snap, "configuration", previous[0], ReportSections.json(sections.configuration()));
            recordChange(c, host, snap, "accelerators", previous[1], ReportSections.json(sections.accelerators()));
            recordChange(c, host, snap, DatabaseChanges.SECTION, previous[2], ReportSections.json(sections.databases()));
            if (onlyWriter) {
                instancesWritten.put(key, new InstanceWritten(new Digest[] {digest(sections.server()),
                    digest(sections.configuration()), digest(sections.accelerators()), digest(sections.databases()),
                    digest(sections.running()), digest(sections.certificates()), digest(sections.asymmetricKeys())},
                    snap.backupHighWaterMark()));
            }
            return;
        }
        boolean configurationChanged = changed(sections.configuration(), known.digests(), 1);
        boolean acceleratorsChanged = changed(sections.accelerators(), known.digests(), 2);
        boolean databasesChanged = changed(sections.databases(), known.digests(), 3);
        String[] previous = configurationChanged || acceleratorsChanged || databasesChanged
                ? previousHistorySections(c, host, snap.name()) : null;
        Update update = new Update("instances");
        update.set("last_seen", now.toEpochMilli());
        coalesce(update, "server_json", sections.server(), known.digests(), 0);
        coalesce(update, "configuration_json", sections.configuration(), known.digests(), 1);
        coalesce(update, "accelerators_json", sections.accelerators(), known.digests(), 2);
        coalesce(update, "databases_json", sections.databases(), known.digests(), 3);
        coalesce(update, "running_json", sections.running(), known.digests(), 4);
        coalesce(update, "certificates_json", sections.certificates(), known.digests(), 5);
        coalesce(update, "asymmetric_keys_json", sections.asymmetricKeys(), known.digests(), 6);
        Long mark = snap.backupHighWaterMark();
        if (mark != null && (known.highWaterMark() == null || mark > known.highWaterMark())) {
            update.setExpression("high_water_mark", kind.greatest("?", "COALESCE(high_water_mark, 0)"), mark);
            instancesWritten.put(key, new InstanceWritten(known.digests(), mark));
        }
        update.run(c, "host = ? AND name = ?", host, snap.name());
        if (configurationChanged) {
            recordChange(c, host, snap, "configuration", previous[0], sections.configuration().json());
        }
        if (acceleratorsChanged) {
            recordChange(c, host, snap, "accelerators", previous[1], sections.accelerators().json());
        }
        if (databasesChanged) {
            recordChange(c, host, snap, DatabaseChanges.SECTION, previous[2], sections.databases().json());
        }
    }

    /**
     * The stored configuration, accelerator and databases JSON of an instance (nulls for a new one), for the change
     * history.
     */
    private String[] previousHistorySections(Connection c, String host, String instance) throws SQLException {
        PreparedStatement s = statement(c,
                "SELECT configuration_json, accelerators_json, databases_json FROM instances WHERE host = ? AND name = ?");
        s.setString(1, host);
        s.setString(2, instance);
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? new String[] {rs.getString(1), rs.getString(2), rs.getString(3)} : new String[3];
        }
    }

    private static Digest digest(Section section) {
        return section == null ? null : section.digest();
    }

    /** A section written only when present (null keeps the stored value): did it change? */
    private static boolean changed(Section section, Digest[] known, int index) {
        return section != null && !section.digest().equals(known[index]);
    }

    /** A section the report always sets, null included: write it when it differs from what was written. */
    private static void overwrite(Update update, String column, Section section, Digest[] known, int index) {
        if (!Objects.equals(digest(section), known[index])) {
            update.set(column, ReportSections.json(section));
            known[index] = digest(section);
        }
    }

    /** A section that keeps the stored value when left out: write it when present and changed. */
    private static boolean coalesce(Update update, String column, Section section, Digest[] known, int index) {
        if (!changed(section, known, index)) {
            return false;
        }
        update.set(column, section.json());
        known[index] = section.digest();
        return true;
    }

    /** An {@code UPDATE} of the columns that changed; its few shapes are prepared once each. */
    private final class Update {
        private final String table;
        private final StringBuilder sets = new StringBuilder();
        private final List<Object> values = new ArrayList<>();

        Update(String table) {
            this.table = table;
        }

        void set(String column, Object value) {
            setExpression(column, "?", value);
        }

        void setExpression(String column, String expression, Object value) {
            sets.append(sets.isEmpty() ? "" : ", ").append(column).append(" = ").append(expression);
            values.add(value);
        }

        void run(Connection c, String where, Object... keys) throws SQLException {
            PreparedStatement s = statement(c, "UPDATE " + table + " SET " + sets + " WHERE " + where);
            int i = 1;
            for (Object v : values) {
                s.setObject(i++, v);
            }
            for (Object k : keys) {
                s.setObject(i++, k);
            }
            s.executeUpdate();
        }
    }

    /** What this store last wrote of an instance's sections, and the highest high-water mark it wrote. */
    private record InstanceWritten(Digest[] digests, Long highWaterMark) {
    }

    private static void recordChange(Connection c, String host, SqlInstanceSnapshot snap, String section,
            String oldJson, String newJson) throws SQLException {
        if (newJson == null || sameJson(oldJson, newJson)) {
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

    /**
     * Equal text, or (PostgreSQL's {@code jsonb} gives its own spelling back: keys reordered, spaces) the same JSON
     * value; text that is not JSON compares as text.
     */
    static boolean sameJson(String a, String b) {
        if (Objects.equals(a, b)) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        try {
            return JSON.readTree(a).equals(JSON.readTree(b));
        } catch (IOException notJson) {
            return false;
        }
    }

    /** Backup rows one PostgreSQL statement inserts: a round trip per report's backups, not per backup. */
    private static final int BACKUPS_PER_STATEMENT = 100;

    /**
     * Inserts the backups a backup stored before is not; returns how many were new. On SQLite one prepared statement
     * per row (in process, no round trip); on PostgreSQL up to {@link #BACKUPS_PER_STATEMENT} rows a statement, since
     * each statement is a round trip to the server.
     */
    private int insertBackups(Connection c, String host, SqlInstanceSnapshot snap) throws SQLException {
        if (snap.backups() == null || snap.backups().isEmpty()) {
            return 0;
        }
        int inserted = 0;
        // only a backup stored before is skipped; any other constraint (NOT NULL) fails the report
        List<BackupRecord> backups = snap.backups();
        int perStatement = onlyWriter ? 1 : BACKUPS_PER_STATEMENT;
        for (int from = 0; from < backups.size(); from += perStatement) {
            List<BackupRecord> chunk = backups.subList(from, Math.min(backups.size(), from + perStatement));
            PreparedStatement s = statement(c, BackupsTable.INSERT + (BackupsTable.ROW + ",").repeat(chunk.size() - 1) + BackupsTable.ROW
                    + " ON CONFLICT(host, instance, backup_set_id) DO NOTHING");
            int at = 0;
            for (BackupRecord b : chunk) {
                BackupsTable.bind(s, at, host, snap.name(), b);
                at += BackupsTable.PARAMS;
            }
            inserted += s.executeUpdate();
        }
        return inserted;
    }

    /**
     * Stores an instance's job runs, CommandLog rows and restores once each (a row stored before is skipped, as a
     * backup is), its latest jobs section and high-water marks, and moves its {@code jobs_seq} when any of it changed.
     * Agents before issue 15 send none of it: nothing is written.
     */
    private void storeJobActivity(Connection c, String host, SqlInstanceSnapshot snap, InstanceSections sections)
            throws SQLException {
        if (!JobActivityTables.reported(snap)) {
            return;
        }
        int inserted = 0;
        if (snap.jobRuns() != null && !snap.jobRuns().isEmpty()) {
            PreparedStatement s = statement(c, JobActivityTables.JOB_RUN_INSERT);
            int n = JobActivityTables.addRuns(s, host, snap);
            inserted += JobActivityTables.added(s.executeBatch(), 0, n);
        }
        if (snap.commandLog() != null && !snap.commandLog().isEmpty()) {
            PreparedStatement s = statement(c, JobActivityTables.COMMAND_LOG_INSERT);
            int n = JobActivityTables.addCommands(s, host, snap);
            inserted += JobActivityTables.added(s.executeBatch(), 0, n);
        }
        if (snap.restores() != null && !snap.restores().isEmpty()) {
            PreparedStatement s = statement(c, JobActivityTables.RESTORE_INSERT);
            int n = JobActivityTables.addRestores(s, host, snap);
            inserted += JobActivityTables.added(s.executeBatch(), 0, n);
        }
        PreparedStatement u = statement(c, JobActivityTables.update(kind));
        JobActivityTables.bindUpdate(u, host, snap, ReportSections.json(sections.jobs()), inserted);
        u.executeUpdate();
    }

    @Override
    public JobActivity jobActivity(String host, String instance, Instant since) throws SQLException, IOException {
        return db.read(c -> JobActivityReads.read(c, host, instance, since));
    }

    @Override
    public List<FleetRow> fleet() throws SQLException, IOException {
        return rowsOf(null);
    }

    @Override
    public java.util.Optional<FleetRow> fleetRow(String host) throws SQLException, IOException {
        return rowsOf(host).stream().findFirst();
    }

    /** Every host's row, or only {@code host}'s when it is not null. */
    private List<FleetRow> rowsOf(String only) throws SQLException, IOException {
        return db.read(c -> only == null ? fleetRows(c, "", "", s -> { })
                : fleetRows(c, " WHERE host = ?", " WHERE name = ?", s -> s.setString(1, only)));
    }

    /** On PostgreSQL one query for all of them (a takeover brings thousands); SQLite one host at a time. */
    @Override
    public List<FleetRow> fleetRows(java.util.Collection<String> hosts) throws Exception {
        if (kind == Database.Kind.SQLITE || hosts.size() < 2) {
            return ReportStore.super.fleetRows(hosts);
        }
        return fleet(HostSelection.of(Set.of(), Set.copyOf(hosts)));
    }

    /** On PostgreSQL only the selected hosts' rows are read; SQLite (one collector, every host) filters. */
    @Override
    public List<FleetRow> fleet(HostSelection only) throws Exception {
        if (only.all() || kind == Database.Kind.SQLITE) {
            return ReportStore.super.fleet(only);
        }
        return db.read(c -> fleetRows(c, " WHERE " + HostSliceColumn.hostIn("host"), " WHERE " + HostSliceColumn.HOSTS,
                s -> HostSliceColumn.bind(s, 1, only)));
    }

    @Override
    public List<HostSeen> hostsSeen() throws SQLException, IOException {
        return db.read(c -> {
            List<HostSeen> out = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, last_seen FROM hosts ORDER BY name");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new HostSeen(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))));
                }
            }
            return out;
        });
    }

    @Override
    public HostsSeenMark hostsSeenMark() throws SQLException, IOException {
        return db.read(c -> {
            // sum(last_seen) is numeric on PostgreSQL: read as a long, it fits (10,000 hosts sum to about 1.8e16)
            try (PreparedStatement s = c.prepareStatement("SELECT count(*), sum(last_seen), max(last_seen) FROM hosts");
                 ResultSet rs = s.executeQuery()) {
                rs.next();
                return new HostsSeenMark(rs.getLong(1), rs.getLong(2), rs.getLong(3));
            }
        });
    }

    @Override
    public List<HostSeen> hostsSeenAfter(long afterMillis) throws SQLException, IOException {
        return db.read(c -> {
            List<HostSeen> out = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, last_seen FROM hosts WHERE last_seen > ? ORDER BY name")) {
                s.setLong(1, afterMillis);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new HostSeen(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))));
                    }
                }
            }
            return out;
        });
    }

    /** Walks the host names in index order from the cursor; only the page's own rows are then read in full. */
    @Override
    public List<FleetRow> fleetPage(String after, String hostPattern, Predicate<HostSeen> filter, int limit)
            throws SQLException, IOException {
        return db.read(c -> {
            List<String> names = new ArrayList<>();
            String sql = "SELECT name, last_seen FROM hosts WHERE name > ?"
                    + (hostPattern == null ? "" : " AND name " + kind.likeIgnoringCase() + " ? ESCAPE '\\'")
                    + " ORDER BY name";
            try (PreparedStatement s = c.prepareStatement(sql)) {
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
            for (int from = 0; from < names.size(); from += SqlValues.IN_CHUNK) {
                List<String> chunk = names.subList(from, Math.min(names.size(), from + SqlValues.IN_CHUNK));
                String in = " IN (" + "?,".repeat(chunk.size() - 1) + "?)";
                rows.addAll(fleetRows(c, " WHERE host" + in, " WHERE name" + in, s -> SqlValues.bind(s, chunk)));
            }
            return rows;
        });
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

    private static List<FleetRow> fleetRows(Connection c, String instancesWhere, String hostsWhere, SqlValues.Binds binds)
            throws SQLException, IOException {
        Map<String, List<SqlInstanceSnapshot>> instances = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("""
                SELECT host, name, last_seen, server_json, configuration_json, accelerators_json, databases_json,
                  running_json, certificates_json, high_water_mark, asymmetric_keys_json FROM instances""" + instancesWhere + " ORDER BY host, name")) {
            binds.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long hwm = rs.getLong("high_water_mark");
                    Long highWaterMark = rs.wasNull() ? null : hwm;
                    instances.computeIfAbsent(rs.getString("host"), h -> new ArrayList<>()).add(new SqlInstanceSnapshot(
                            rs.getString("name"),
                            Instant.ofEpochMilli(rs.getLong("last_seen")),
                            SqlValues.read(rs.getString("server_json"), ServerInfo.class),
                            SqlValues.readList(rs.getString("configuration_json"), new TypeReference<List<ConfigOption>>() { }),
                            SqlValues.readList(rs.getString("accelerators_json"), new TypeReference<List<AcceleratorStatus>>() { }),
                            SqlValues.readList(rs.getString("databases_json"), new TypeReference<List<DatabaseInfo>>() { }),
                            null,
                            SqlValues.readList(rs.getString("running_json"), new TypeReference<List<RunningBackup>>() { }),
                            SqlValues.readList(rs.getString("certificates_json"), new TypeReference<List<CertificateInfo>>() { }),
                            highWaterMark,
                            SqlValues.readList(rs.getString("asymmetric_keys_json"), new TypeReference<List<AsymmetricKeyInfo>>() { }),
                            null));
                }
            }
        }
        List<FleetRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                SELECT name, first_seen, last_seen, agent_json, facts_json, qat_json, licence_json, probes_json
                FROM hosts""" + hostsWhere + " ORDER BY name")) {
            binds.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String host = rs.getString("name");
                    rows.add(new FleetRow(host,
                            Instant.ofEpochMilli(rs.getLong("first_seen")),
                            Instant.ofEpochMilli(rs.getLong("last_seen")),
                            SqlValues.read(rs.getString("agent_json"), AgentInfo.class),
                            SqlValues.read(rs.getString("facts_json"), HostFacts.class),
                            SqlValues.read(rs.getString("qat_json"), QatFacts.class),
                            SqlValues.read(rs.getString("licence_json"), LicenceFacts.class),
                            SqlValues.readList(rs.getString("probes_json"), new TypeReference<List<ProbeStatus>>() { }),
                            instances.getOrDefault(host, List.of())));
                }
            }
        }
        return rows;
    }

    @Override
    public List<StoredBackup> backups(String host, String instance, Instant since) throws SQLException, IOException {
        return reads.backups(host, instance, since);
    }

    @Override
    public List<List<AcceleratorChange>> acceleratorChanges(List<InstanceKey> keys, Instant since)
            throws SQLException, IOException {
        return reads.acceleratorChanges(keys, since);
    }

    @Override
    public List<InstanceHistory> histories(List<InstanceKey> keys, Instant since, Instant acceleratorSince)
            throws SQLException, IOException {
        return reads.histories(keys, since, acceleratorSince);
    }

    @Override
    public BackupDelta backupsAfter(long after, Instant since) throws SQLException, IOException {
        return reads.backupsAfter(after, since, HostSelection.ALL);
    }

    /** On PostgreSQL only the selected hosts' backups are read; SQLite (one collector, every host) filters. */
    @Override
    public BackupDelta backupsAfter(long after, Instant since, HostSelection only) throws Exception {
        return kind == Database.Kind.SQLITE ? ReportStore.super.backupsAfter(after, since, only)
                : reads.backupsAfter(after, since, only);
    }

    @Override
    public BackupDelta backupsBetween(long after, long upTo, Instant since, HostSelection only) throws Exception {
        BackupDelta all = reads.backupsBetween(after, upTo, since, kind == Database.Kind.SQLITE ? HostSelection.ALL : only);
        return only.all() || kind != Database.Kind.SQLITE ? all
                : new BackupDelta(all.upTo(), all.backups().stream().filter(b -> only.test(b.host())).toList());
    }

    @Override
    public void summaries(HostSelection only, SummaryReader each) throws SQLException, IOException {
        db.read(c -> {
            InstanceSummaries.read(c, kind, only, each);
            return null;
        });
    }

    @Override
    public void writeSummaries(List<InstanceSummary> summaries) throws SQLException, IOException {
        if (!summaries.isEmpty()) {
            db.transaction(c -> {
                InstanceSummaries.write(c, summaries);
                return null;
            });
        }
    }

    @Override
    public List<FleetHead> fleetHeads() throws SQLException, IOException {
        return heads(HostSelection.ALL);
    }

    /** On PostgreSQL only the selected hosts' heads are read; SQLite (one collector, every host) filters. */
    @Override
    public List<FleetHead> fleetHeads(HostSelection only) throws Exception {
        return kind == Database.Kind.SQLITE ? ReportStore.super.fleetHeads(only) : heads(only);
    }

    /** The heads of {@code only}: every host, or on PostgreSQL those the {@code slice} column and names select. */
    private List<FleetHead> heads(HostSelection only) throws SQLException, IOException {
        boolean some = !only.all();
        return db.read(c -> {
            Map<String, List<InstanceHead>> instances = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT host, name, last_seen, sections_seq, running_json, jobs_seq"
                    + " FROM instances" + (some ? " WHERE " + HostSliceColumn.hostIn("host") : "") + " ORDER BY host, name")) {
                if (some) {
                    HostSliceColumn.bind(s, 1, only);
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String running = rs.getString("running_json");
                        instances.computeIfAbsent(rs.getString("host"), h -> new ArrayList<>()).add(new InstanceHead(
                                rs.getString("name"), Instant.ofEpochMilli(rs.getLong("last_seen")), rs.getLong("sections_seq"),
                                running == null || "[]".equals(running) ? List.of()
                                        : SqlValues.readList(running, new TypeReference<List<RunningBackup>>() { }),
                                rs.getLong("jobs_seq")));
                    }
                }
            }
            List<FleetHead> heads = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, last_seen, sections_seq FROM hosts"
                    + (some ? " WHERE " + HostSliceColumn.HOSTS : "") + " ORDER BY name")) {
                if (some) {
                    HostSliceColumn.bind(s, 1, only);
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String host = rs.getString("name");
                        heads.add(new FleetHead(host, Instant.ofEpochMilli(rs.getLong("last_seen")), rs.getLong("sections_seq"),
                                instances.getOrDefault(host, List.of())));
                    }
                }
            }
            return heads;
        });
    }

    @Override
    public List<AcceleratorChange> acceleratorChanges(String host, String instance, Instant since)
            throws SQLException, IOException {
        return reads.acceleratorChanges(host, instance, since);
    }

    @Override
    public List<DatabaseEvent> databaseEvents(String host, String instance, Instant since) throws SQLException, IOException {
        return db.read(c -> DatabaseChanges.read(c, kind, host, instance, since));
    }

    @Override
    public List<List<DatabaseEvent>> databaseEvents(List<InstanceKey> keys, Instant since) throws SQLException, IOException {
        return db.read(c -> DatabaseChanges.read(c, kind, keys, since));
    }

    @Override
    public java.util.SortedSet<String> hostsWithAvailabilityDatabases(java.util.Collection<String> databaseGuids)
            throws SQLException, IOException {
        List<String> guids = List.copyOf(databaseGuids);
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        String elements = kind == Database.Kind.POSTGRESQL
                ? "jsonb_array_elements(i.databases_json) d WHERE d->>'availabilityGroup' IS NOT NULL AND d->>'databaseGuid'"
                : "json_each(i.databases_json) d WHERE json_extract(d.value, '$.availabilityGroup') IS NOT NULL "
                        + "AND json_extract(d.value, '$.databaseGuid')";
        db.read(c -> {
            for (int from = 0; from < guids.size(); from += SqlValues.IN_CHUNK) {
                List<String> chunk = guids.subList(from, Math.min(guids.size(), from + SqlValues.IN_CHUNK));
                try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT i.host FROM instances i, " + elements
                        + " IN (" + "?,".repeat(chunk.size() - 1) + "?) AND i.databases_json IS NOT NULL")) {
                    SqlValues.bind(s, chunk);
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    }
                }
            }
            return null;
        });
        return out;
    }

    /** Maps a {@code backups} row back to its record. */
    static BackupRecord backupOf(ResultSet rs) throws SQLException {
        return BackupsTable.read(rs);
    }

    @Override
    public List<RestoreObservation> observedRestores(Instant since) throws SQLException, IOException {
        return db.read(c -> RestoresTable.read(c, since, HostSelection.ALL));
    }

    /** On PostgreSQL only the selected hosts' restores are read; SQLite (one collector, every host) filters. */
    @Override
    public List<RestoreObservation> observedRestores(Instant since, HostSelection only) throws Exception {
        return kind == Database.Kind.SQLITE ? ReportStore.super.observedRestores(since, only)
                : db.read(c -> RestoresTable.read(c, since, only));
    }

    @Override
    public List<RestoreObservation> observedRestores(String host, String instance, Instant since) throws SQLException, IOException {
        return db.read(c -> RestoresTable.read(c, host, instance, since));
    }

    @Override
    public int prune(Instant backupsBefore, Instant reportIdsBefore) throws SQLException, IOException {
        if (!onlyWriter) {
            // every collector prunes on its own hour; one at a time, and the others find little left to delete
            return db.transaction(c -> {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_try_advisory_xact_lock(" + PRUNE_LOCK + ")")) {
                    rs.next();
                    return rs.getBoolean(1) ? delete(c, backupsBefore, reportIdsBefore) : 0;
                }
            });
        }
        return db.write(c -> delete(c, backupsBefore, reportIdsBefore));
    }

    private int delete(Connection c, Instant backupsBefore, Instant reportIdsBefore) throws SQLException {
        {
            int deleted = 0;
            try (PreparedStatement s = c.prepareStatement(onlyWriter
                    // The newest row stays even when old (a late report's): SQLite would hand its rowid to the next
                    // insert, and the alert stage reads new backups by rowid. PostgreSQL's positions are transaction ids.
                    ? "DELETE FROM backups WHERE started_at < ? AND rowid < (SELECT max(rowid) FROM backups)"
                    : "DELETE FROM backups WHERE started_at < ?")) {
                s.setLong(1, backupsBefore.toEpochMilli());
                deleted += s.executeUpdate();
            }
            for (String history : List.of("DELETE FROM job_runs WHERE started_at < ?",
                    "DELETE FROM command_log WHERE started_at < ?", "DELETE FROM restores WHERE restored_at < ?",
                    RestoresTable.PRUNE)) {
                try (PreparedStatement s = c.prepareStatement(history)) {
                    s.setLong(1, backupsBefore.toEpochMilli());
                    deleted += s.executeUpdate();
                }
            }
            try (PreparedStatement s = c.prepareStatement("DELETE FROM reports WHERE received_at < ?")) {
                s.setLong(1, reportIdsBefore.toEpochMilli());
                deleted += s.executeUpdate();
            }
            InstanceSummaries.prune(c);
            return deleted;
        }
    }
}
