package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlServerValues.backupTimeUtc;
import static io.qatwatch.agent.probe.sqlserver.SqlServerValues.serverTimeUtc;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Reads one SQL Server instance with mssql-jdbc: SERVERPROPERTY first, then only the queries its version
 * has, each from its own {@code .sql} resource, each reported in {@code probes[]} on its own. Statements are
 * plain batches (no parameters: the only numbers, page size and high-water mark, are formatted by the agent),
 * so the driver needs no RPC and production keeps the driver's defaults, {@code encrypt=true} included.
 */
public final class JdbcSqlInstanceProbe implements SqlInstanceProbe {

    /**
     * Backup rows one probe reads at most: one page of {@code backupPageSize}, never more than this; the rest waits for
     * the next cycle. A row is ~450 bytes of JSON, so 5,000 rows keep a report near 2 MB, well under the collector's
     * default 8 MiB body limit (20,000 rows made 9 MB reports that the collector refused with 413).
     */
    static final int MAX_BACKUP_ROWS_PER_PROBE = 5_000;
    private static final int DEFAULT_PAGE_SIZE = 5_000;
    private static final int SQL_SERVER_2022 = 16;
    private static final int SQL_SERVER_2016 = 13;

    private final SqlInstanceSettings settings;
    private final Clock clock;
    private final Function<String, String> environment;
    /** GUIDs learned in earlier cycles, so sys.database_recovery_status is asked only when a database is new. */
    private final DatabaseGuids guids = new DatabaseGuids();
    /** Availability databases this replica held as SECONDARY when databases were last read; null before, or when unknown. */
    private final AtomicReference<List<String>> secondaryDatabases = new AtomicReference<>();
    private final SqlRecorder recorder;
    /** What the Agent, CommandLog and restore reads remember between cycles (see {@link AgentHistoryReader.Memory}). */
    private final AgentHistoryReader.Memory agentMemory = new AgentHistoryReader.Memory();
    /** The running-requests poll and the CPU each backup or restore was seen to use, remembered between cycles. */
    private final RunningRequestsReader running;

    /** @param clock the agent's clock; its zone stands in for backups whose time zone SQL Server did not record */
    public JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock) {
        this(settings, clock, System::getenv, SqlRecorder.NONE, SqlServerProcess.NONE);
    }

    /** As above, with the SQL Server process's CPU read from the host ({@link OshiSqlServerProcess} in the daemon). */
    public JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, SqlServerProcess process) {
        this(settings, clock, System::getenv, SqlRecorder.NONE, process);
    }

    /** As above, every answer also shown to {@code recorder} ({@code probe --capture}). */
    public JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, SqlRecorder recorder) {
        this(settings, clock, System::getenv, recorder, SqlServerProcess.NONE);
    }

    JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, Function<String, String> environment) {
        this(settings, clock, environment, SqlRecorder.NONE, SqlServerProcess.NONE);
    }

    private JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, Function<String, String> environment,
            SqlRecorder recorder, SqlServerProcess process) {
        this.running = new RunningRequestsReader(process);
        this.settings = settings;
        this.clock = clock;
        this.environment = environment;
        this.recorder = recorder;
    }

    @Override
    public SqlProbeResult probe(Set<SqlSection> sections, Long afterBackupSetId) {
        return probeAfter(sections, HistoryMarks.backupsOnly(afterBackupSetId));
    }

    @Override
    public SqlProbeResult probeAfter(Set<SqlSection> sections, HistoryMarks marks) {
        Long afterBackupSetId = marks.backupSetId();
        Instant collectedAt = clock.instant();
        Cycle cycle = new Cycle();
        long start = System.nanoTime();
        Connection connection;
        try {
            connection = connect();
        } catch (SQLException e) {
            SqlProbeErrors.Explained x = SqlProbeErrors.explain(e, where(null), null, settings.user(), queryTimeoutSeconds());
            cycle.probes.add(ProbeStatus.failed(probeName("connect"), millisSince(start), x.error(), x.hint()));
            return new SqlProbeResult(emptySnapshot(collectedAt, afterBackupSetId), cycle.probes, false);
        } catch (PasswordUnavailable e) {
            cycle.probes.add(ProbeStatus.failed(probeName("connect"), millisSince(start), where(null) + ": " + e.getMessage(),
                    "put the SQL login's password in the file named by passwordFile, or in the environment variable named by passwordEnv"));
            return new SqlProbeResult(emptySnapshot(collectedAt, afterBackupSetId), cycle.probes, false);
        }
        cycle.connection = connection;
        try {
            return read(cycle, collectedAt, sections, marks);
        } finally {
            try {
                connection.close();
            } catch (SQLException closing) {
                // everything was read already; a failed close loses nothing
            }
        }
    }

    /**
     * Where to start reading so that about {@code recent} of the newest backups come back: for the one-shot
     * {@code probe} command, which has no high-water mark and should not page through years of msdb.
     * Null when msdb cannot be read (the probe itself then reports why).
     */
    public Long startForRecentBackups(int recent) {
        try (Connection c = connect()) {
            return startForRecent(c, SqlQuery.LATEST_BACKUP_SET_ID, Map.of(), recent);
        } catch (SQLException | PasswordUnavailable e) {
            return null;
        }
    }

    /**
     * Where to start each history for the one-shot {@code probe}, over one connection: about {@code recentBackups}
     * backups and {@code recentRows} of the newest job runs, CommandLog rows and restores. A history that cannot be
     * asked starts at its beginning (the probe then reports why it could not be read).
     */
    public HistoryMarks startForRecent(int recentBackups, int recentRows) {
        try (Connection c = connect()) {
            return new HistoryMarks(startForRecent(c, SqlQuery.LATEST_BACKUP_SET_ID, Map.of(), recentBackups),
                    startForRecent(c, SqlQuery.JOB_HISTORY_LATEST, Map.of(), recentRows),
                    startForRecent(c, SqlQuery.COMMAND_LOG_LATEST, Map.of("command_log_table", settings.commandLogDatabase()), recentRows),
                    startForRecent(c, SqlQuery.RESTORE_HISTORY_LATEST, Map.of(), recentRows));
        } catch (SQLException | PasswordUnavailable e) {
            return HistoryMarks.NONE;
        }
    }

    private Long startForRecent(Connection c, SqlQuery latestQuery, Map<String, String> tables, int recent) {
        try {
            return execute(c, latestQuery, SqlQuery.none(), tables, rs -> {
                if (!rs.next()) {
                    return null;
                }
                long latest = rs.getLong(1);
                return rs.wasNull() ? null : Math.max(0, latest - recent);
            });
        } catch (SQLException e) {
            return null;
        }
    }

    private SqlProbeResult read(Cycle cycle, Instant collectedAt, Set<SqlSection> sections, HistoryMarks marks) {
        Long after = marks.backupSetId();
        ServerInfo server = cycle.run("server-properties", SqlQuery.SERVER_PROPERTIES, SqlQuery.none(), this::readServer);
        int major = majorVersion(server);

        List<ConfigOption> configuration = sections.contains(SqlSection.CONFIGURATION)
                ? cycle.run("configuration", SqlQuery.CONFIGURATION, SqlQuery.none(), JdbcSqlInstanceProbe::readConfiguration) : null;

        List<AcceleratorStatus> accelerators = null;
        if (sections.contains(SqlSection.ACCELERATORS)) {
            // Before 2022 there is no accelerator and no view to ask: an empty list says so without an error.
            accelerators = SqlQuery.ACCELERATOR_STATUS.runsOn(major)
                    ? cycle.run("accelerator-status", SqlQuery.ACCELERATOR_STATUS, SqlQuery.none(), JdbcSqlInstanceProbe::readAccelerators)
                    : List.of();
        }

        List<DatabaseInfo> databases = sections.contains(SqlSection.DATABASES)
                ? readDatabases(cycle, server != null && Boolean.TRUE.equals(server.hadrEnabled()), major) : null;

        List<BackupRecord> backups = null;
        Long highWaterMark = after;
        boolean more = false;
        if (sections.contains(SqlSection.BACKUP_HISTORY)) {
            BackupPages pages = readBackupHistory(cycle, major, after);
            backups = pages.rows;
            highWaterMark = pages.highWaterMark;
            more = pages.more;
        }

        RunningRequestsReader.Result requests = RunningRequestsReader.Result.NOT_READ;
        if (sections.contains(SqlSection.RUNNING_BACKUPS)) {
            String permission = serverStatePermission(major);
            requests = running.read(cycle, clock.instant(), server == null ? null : server.machineName(), permission,
                    grant(permission));
        }
        backups = running.attachCpu(backups);
        List<CertificateInfo> certificates = null;
        List<AsymmetricKeyInfo> asymmetricKeys = null;
        if (sections.contains(SqlSection.CERTIFICATES)) {
            certificates = cycle.run("certificates", SqlQuery.CERTIFICATES, SqlQuery.none(), JdbcSqlInstanceProbe::readCertificates);
            asymmetricKeys = cycle.run("asymmetric-keys", SqlQuery.ASYMMETRIC_KEYS, SqlQuery.none(), JdbcSqlInstanceProbe::readAsymmetricKeys);
        }

        AgentHistoryReader agent = new AgentHistoryReader(cycle, settings.user(), clock.getZone(), pageSize(), agentMemory,
                clock.instant(), sections.contains(SqlSection.JOBS));
        String jobsStatus = null;
        List<SqlInstanceSnapshot.AgentJob> jobs = null;
        AgentHistoryReader.Rows<SqlInstanceSnapshot.JobRun> runs = new AgentHistoryReader.Rows<>(null, marks.jobHistoryId(), false);
        if (sections.contains(SqlSection.JOBS) || sections.contains(SqlSection.JOB_HISTORY)) {
            jobsStatus = agent.agentStatus(server == null ? null : server.engineEdition());
            if (sections.contains(SqlSection.JOBS)) {
                AgentHistoryReader.Jobs read = agent.jobs(jobsStatus);
                jobsStatus = read.status();
                jobs = read.jobs();
            }
            if (sections.contains(SqlSection.JOB_HISTORY) && SqlInstanceSnapshot.JOBS_AVAILABLE.equals(jobsStatus)) {
                runs = agent.jobRuns(jobsStatus, marks.jobHistoryId());
                if (runs.rows() == null && lastProbeDenied(cycle)) {
                    jobsStatus = SqlInstanceSnapshot.JOBS_NO_PERMISSION;
                }
            }
        }
        AgentHistoryReader.Rows<SqlInstanceSnapshot.CommandLogEntry> commandLog = sections.contains(SqlSection.COMMAND_LOG)
                ? agent.commandLog(settings.commandLogDatabase(), marks.commandLogId())
                : new AgentHistoryReader.Rows<>(null, marks.commandLogId(), false);
        AgentHistoryReader.Rows<SqlInstanceSnapshot.RestoreRecord> restores = sections.contains(SqlSection.RESTORES)
                ? agent.restores(marks.restoreHistoryId())
                : new AgentHistoryReader.Rows<>(null, marks.restoreHistoryId(), false);

        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(settings.name(), collectedAt, server, configuration, accelerators,
                databases, backups, requests.backups(), certificates, highWaterMark, asymmetricKeys,
                requests.backups() == null ? null : runningBackupsHiddenFor(), jobsStatus, jobs, runs.rows(), runs.mark(),
                commandLog.rows(), commandLog.mark(), restores.rows(), restores.mark(), requests.restores());
        return new SqlProbeResult(snapshot, cycle.probes, more || runs.more() || commandLog.more() || restores.more());
    }

    /** Whether the last query of the cycle failed because the login may not read its table (Msg 229 or 916). */
    private boolean lastProbeDenied(Cycle cycle) {
        return cycle.lastError != null && (cycle.lastError.getErrorCode() == 229 || cycle.lastError.getErrorCode() == 916);
    }

    private int pageSize() {
        return settings.backupPageSize() > 0 ? settings.backupPageSize() : DEFAULT_PAGE_SIZE;
    }

    private static int majorVersion(ServerInfo server) {
        if (server == null) {
            // Unknown version: run only what every supported version has.
            return SQL_SERVER_2016;
        }
        if (server.majorVersion() != null) {
            return server.majorVersion();
        }
        try {
            return Integer.parseInt(server.productVersion().substring(0, server.productVersion().indexOf('.')));
        } catch (RuntimeException e) {
            return SQL_SERVER_2016;
        }
    }

    private ServerInfo readServer(ResultSet rs) throws SQLException {
        if (!rs.next()) {
            return null;
        }
        return new ServerInfo(rs.getString("product_version"), intOrNull(rs, "product_major_version"), rs.getString("edition"),
                intOrNull(rs, "engine_edition"), rs.getString("machine_name"), rs.getString("server_name"),
                intOrNull(rs, "is_hadr_enabled") == null ? null : rs.getInt("is_hadr_enabled") == 1);
    }

    private static List<ConfigOption> readConfiguration(ResultSet rs) throws SQLException {
        List<ConfigOption> options = new ArrayList<>();
        while (rs.next()) {
            options.add(new ConfigOption(rs.getString("name"), rs.getLong("value"), rs.getLong("value_in_use")));
        }
        return options;
    }

    private static List<AcceleratorStatus> readAccelerators(ResultSet rs) throws SQLException {
        List<AcceleratorStatus> list = new ArrayList<>();
        while (rs.next()) {
            Integer detected = intOrNull(rs, "accelerator_hardware_detected");
            list.add(new AcceleratorStatus(rs.getString("accelerator"), rs.getString("mode_desc"), rs.getString("mode_reason_desc"),
                    detected == null ? null : detected == 1, rs.getString("accelerator_library_version"),
                    rs.getString("accelerator_driver_version")));
        }
        return list;
    }

    private record DatabaseRow(DatabaseGuids.Seen seen, String recoveryModel, String groupDatabaseId) {
        String name() {
            return seen.name();
        }
    }

    private record ReplicaRow(String groupId, String group, String role, Boolean preferred) {
    }

    private record Encryption(String state, String encryptorThumbprint, String encryptorType) {
    }

    private List<DatabaseInfo> readDatabases(Cycle cycle, boolean hadrEnabled, int major) {
        List<DatabaseRow> rows = cycle.run("databases", SqlQuery.DATABASES, SqlQuery.none(), rs -> {
            List<DatabaseRow> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new DatabaseRow(new DatabaseGuids.Seen(rs.getString("name"), rs.getInt("database_id"),
                        rs.getObject("create_date", LocalDateTime.class), rs.getString("state_desc"), rs.getBoolean("is_auto_close_on")),
                        rs.getString("recovery_model_desc"), SqlServerValues.guid(rs.getString("group_database_id"))));
            }
            return list;
        });
        if (rows == null) {
            return null;
        }
        List<DatabaseGuids.Seen> seen = rows.stream().map(DatabaseRow::seen).toList();
        if (guids.needed(seen)) {
            // sys.database_recovery_status opens a closed database; with an AUTO_CLOSE one present, msdb names them all
            boolean fromBackups = seen.stream().anyMatch(DatabaseGuids.Seen::autoClose);
            SqlQuery query = fromBackups ? SqlQuery.GUIDS_FROM_BACKUPS : SqlQuery.DATABASE_GUIDS;
            Map<Integer, DatabaseGuids.Guids> answer = cycle.run(query.shortName(), query, SqlQuery.none(), rs -> {
                Map<Integer, DatabaseGuids.Guids> byId = new HashMap<>();
                while (rs.next()) {
                    byId.put(rs.getInt("database_id"), new DatabaseGuids.Guids(SqlServerValues.guid(rs.getString("database_guid")),
                            SqlServerValues.guid(rs.getString("family_guid"))));
                }
                return byId;
            });
            if (answer != null) {
                guids.learned(seen, answer, fromBackups);
            }
        }
        Map<String, Encryption> encryption = cycle.run("database-encryption", SqlQuery.DATABASE_ENCRYPTION, SqlQuery.none(), rs -> {
            Map<String, Encryption> byName = new HashMap<>();
            while (rs.next()) {
                byName.put(rs.getString("database_name"), new Encryption(SqlServerValues.encryptionState(rs.getInt("encryption_state")),
                        SqlServerValues.thumbprint(rs.getBytes("encryptor_thumbprint")), rs.getString("encryptor_type")));
            }
            return byName;
        });
        Map<String, ReplicaRow> replicas = hadrEnabled ? readAvailabilityDatabases(cycle, rows, major) : Map.of();
        List<DatabaseInfo> databases = new ArrayList<>();
        for (DatabaseRow d : rows) {
            // A database without a key has no row in the DMV: not encrypted. Unknown when the DMV could not be read.
            Encryption tde = encryption == null ? null : encryption.getOrDefault(d.name(), new Encryption("NONE", null, null));
            ReplicaRow r = replicas == null ? null : replicas.get(d.name());
            DatabaseGuids.Guids g = guids.of(d.seen());
            databases.add(new DatabaseInfo(d.name(), g == null ? null : g.databaseGuid(), d.recoveryModel(),
                    tde == null ? null : tde.state(), r == null ? null : r.group(), r == null ? null : r.role(),
                    r == null ? null : r.preferred(), g == null ? null : g.familyGuid(), d.groupDatabaseId(),
                    r == null ? null : r.groupId(), d.seen().autoClose(), tde == null ? null : tde.encryptorThumbprint(),
                    tde == null ? null : tde.encryptorType(), backupTimeUtc(d.seen().createDate(), null, clock.getZone())));
        }
        secondaryDatabases.set(replicas == null ? null : secondaries(replicas));
        return databases;
    }

    private static List<String> secondaries(Map<String, ReplicaRow> replicas) {
        return replicas.entrySet().stream().filter(e -> "SECONDARY".equalsIgnoreCase(e.getValue().role()))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /**
     * The availability group of each local availability database, from the HADR DMVs (VIEW SERVER STATE; not
     * sys.availability_groups, which needs VIEW ANY DEFINITION and otherwise answers nothing). When sys.databases puts
     * databases in a group (group_database_id) that the DMVs do not show, or shows a group whose name is not visible,
     * the login sees less than there is: that is a failed read with the grant, not "no availability group".
     */
    private Map<String, ReplicaRow> readAvailabilityDatabases(Cycle cycle, List<DatabaseRow> rows, int major) {
        long start = System.nanoTime();
        Map<String, ReplicaRow> byName;
        try {
            byName = cycle.execute(SqlQuery.AVAILABILITY_DATABASES, SqlQuery.none(), rs -> {
                Map<String, ReplicaRow> m = new HashMap<>();
                while (rs.next()) {
                    boolean preferred = rs.getBoolean("is_preferred_backup_replica");
                    Boolean p = rs.wasNull() ? null : preferred;
                    m.put(rs.getString("database_name"), new ReplicaRow(SqlServerValues.guid(rs.getString("availability_group_id")),
                            rs.getString("availability_group"), rs.getString("role_desc"), p));
                }
                return m;
            });
        } catch (SQLException e) {
            cycle.fail("availability-databases", SqlQuery.AVAILABILITY_DATABASES, e, start);
            return null;
        }
        List<String> unseen = rows.stream()
                .filter(d -> d.groupDatabaseId() != null)
                .filter(d -> !byName.containsKey(d.name()) || byName.get(d.name()).group() == null)
                .map(DatabaseRow::name).sorted().toList();
        if (!unseen.isEmpty()) {
            String permission = serverStatePermission(major);
            cycle.probes.add(ProbeStatus.failed(probeName("availability-databases"), millisSince(start),
                    where(SqlQuery.AVAILABILITY_DATABASES) + ": IsHadrEnabled = 1 and sys.databases puts " + String.join(", ", unseen)
                            + " in an availability group (group_database_id), but the HADR views show this login no group for "
                            + (unseen.size() == 1 ? "it" : "them") + ", so their replica role and backup preference are unknown",
                    grant(permission)));
        } else {
            cycle.probes.add(ProbeStatus.ok(probeName("availability-databases"), millisSince(start)));
        }
        return byName;
    }

    private static String serverStatePermission(int major) {
        return major >= SQL_SERVER_2022 ? "VIEW SERVER PERFORMANCE STATE" : "VIEW SERVER STATE";
    }

    private String grant(String permission) {
        return "USE master; GRANT " + permission + " TO [" + (settings.user() == null ? "DOMAIN\\service-account" : settings.user())
                + "]; (see install/sql/create-monitor-login.sql)";
    }

    private record BackupPages(List<BackupRecord> rows, Long highWaterMark, boolean more) {
    }

    /**
     * Keyset paging above the high-water mark, up to the highest backup_set_id asked first: the query itself leaves out
     * the rows another server wrote (a RESTORE copies the source's backup history into msdb), so a short page means
     * every row up to that id was looked at and the mark moves to it, past another server's rows; a full page moves it to
     * its last row and sets {@code more}. One page a probe: its rows and its report are what a first sync holds at once.
     */
    private BackupPages readBackupHistory(Cycle cycle, int major, Long after) {
        boolean hasAlgorithm = major >= SQL_SERVER_2022;
        SqlQuery query = hasAlgorithm ? SqlQuery.BACKUP_HISTORY_2022 : SqlQuery.BACKUP_HISTORY;
        long start = System.nanoTime();
        int pageSize = Math.min(pageSize(), MAX_BACKUP_ROWS_PER_PROBE);
        long mark = after == null ? 0 : after;
        Long latest;
        List<BackupRecord> page;
        try {
            latest = cycle.execute(SqlQuery.LATEST_BACKUP_SET_ID, SqlQuery.none(), rs -> {
                if (!rs.next()) {
                    return null;
                }
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            });
        } catch (SQLException e) {
            cycle.fail("backup-history", SqlQuery.LATEST_BACKUP_SET_ID, e, start);
            return new BackupPages(List.of(), after, false);
        }
        if (latest == null || latest <= mark) {
            cycle.probes.add(ProbeStatus.ok(probeName("backup-history"), millisSince(start)));
            return new BackupPages(List.of(), after, false);
        }
        try {
            page = cycle.execute(query, Map.of("page_size", (long) pageSize, "after_backup_set_id", mark,
                    "up_to_backup_set_id", latest), rs -> readBackups(rs, hasAlgorithm));
        } catch (SQLException e) {
            cycle.fail("backup-history", query, e, start);
            return new BackupPages(List.of(), after, false);
        }
        boolean more = page.size() >= pageSize;
        mark = more ? page.get(page.size() - 1).backupSetId() : latest;
        cycle.probes.add(ProbeStatus.ok(probeName("backup-history"), millisSince(start)));
        return new BackupPages(page, mark, more);
    }

    private List<BackupRecord> readBackups(ResultSet rs, boolean hasAlgorithm) throws SQLException {
        List<BackupRecord> list = new ArrayList<>();
        boolean chainColumns = BackupChainColumns.present(rs);
        boolean setUuid = BackupChainColumns.hasSetUuid(rs);
        while (rs.next()) {
            BackupChainColumns chain = chainColumns ? BackupChainColumns.read(rs) : BackupChainColumns.NONE;
            String physicalDevice = rs.getString("physical_device_name");
            Integer timeZone = intOrNull(rs, "time_zone");
            long size = bytes(rs.getBigDecimal("backup_size"));
            BigDecimal compressed = rs.getBigDecimal("compressed_backup_size");
            Long compressedSize = compressed == null ? null : bytes(compressed);
            String algorithm = SqlServerValues.compressionAlgorithm(hasAlgorithm,
                    hasAlgorithm ? rs.getString("compression_algorithm") : null, size, compressedSize);
            Integer device = intOrNull(rs, "device_type");
            boolean snapshot = rs.getBoolean("is_snapshot");
            Boolean isSnapshot = rs.wasNull() ? null : snapshot;
            list.add(new BackupRecord(
                    rs.getLong("backup_set_id"),
                    rs.getString("database_name"),
                    SqlServerValues.guid(rs.getString("database_guid")),
                    rs.getString("type").trim(),
                    rs.getBoolean("is_copy_only"),
                    backupTimeUtc(rs.getObject("backup_start_date", LocalDateTime.class), timeZone, clock.getZone()),
                    backupTimeUtc(rs.getObject("backup_finish_date", LocalDateTime.class), timeZone, clock.getZone()),
                    SqlServerValues.timeZoneKnown(timeZone),
                    size,
                    compressedSize,
                    algorithm,
                    rs.getBoolean("has_backup_checksums"),
                    rs.getString("key_algorithm"),
                    SqlServerValues.thumbprint(rs.getBytes("encryptor_thumbprint")),
                    rs.getString("encryptor_type"),
                    SqlServerValues.deviceType(device),
                    SqlServerValues.target(device, physicalDevice),
                    SqlServerValues.guid(rs.getString("family_guid")),
                    isSnapshot,
                    mediaFamilies(intIfPresent(rs, "media_family_count")),
                    chain.firstLsn(), chain.lastLsn(), chain.checkpointLsn(), chain.databaseBackupLsn(),
                    chain.differentialBaseLsn(), chain.differentialBaseGuid(), chain.recoveryModel(), chain.beginsLogChain(),
                    chain.hasIncompleteMetadata(), physicalDevice, null,
                    setUuid ? SqlServerValues.guid(rs.getString("backup_set_uuid")) : null));
        }
        return list;
    }

    /** backupmediafamily rows of a media set: at least one per backup, at most 64 (BACKUP's device limit); null when none. */
    private static Integer mediaFamilies(Integer count) {
        return count == null || count < 1 ? null : Math.min(count, 64);
    }

    /**
     * Databases whose running backups this connection may not see: on a secondary replica that allows read-intent
     * connections only, sys.dm_exec_requests' access check fails for availability databases unless the connection says
     * applicationIntent=ReadOnly, without an error. Which secondaries are read-intent only is in sys.availability_replicas,
     * which needs VIEW ANY DEFINITION, so every secondary (by the roles read last) counts unless the URL declares read intent.
     */
    private List<String> runningBackupsHiddenFor() {
        List<String> secondaries = secondaryDatabases.get();
        if (secondaries == null || declaresReadIntent(settings.jdbcUrl())) {
            return List.of();
        }
        return secondaries;
    }

    /** Whether a JDBC URL asks for {@code applicationIntent=ReadOnly}. */
    static boolean declaresReadIntent(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.replace(" ", "").toLowerCase(Locale.ROOT).contains(";applicationintent=readonly");
    }

    private static List<AsymmetricKeyInfo> readAsymmetricKeys(ResultSet rs) throws SQLException {
        List<AsymmetricKeyInfo> list = new ArrayList<>();
        while (rs.next()) {
            list.add(new AsymmetricKeyInfo(rs.getString("name"), SqlServerValues.thumbprint(rs.getBytes("thumbprint")),
                    rs.getString("provider_type"), rs.getString("pvt_key_encryption_type_desc"),
                    rs.getBoolean("used_for_backup_encryption")));
        }
        return list;
    }

    private static List<CertificateInfo> readCertificates(ResultSet rs) throws SQLException {
        List<CertificateInfo> list = new ArrayList<>();
        while (rs.next()) {
            int offset = rs.getInt("server_utc_offset_minutes");
            LocalDateTime expiry = rs.getObject("expiry_date", LocalDateTime.class);
            list.add(new CertificateInfo(rs.getString("name"), SqlServerValues.thumbprint(rs.getBytes("thumbprint")),
                    expiry == null ? null : expiry.toInstant(ZoneOffset.UTC),
                    serverTimeUtc(rs.getObject("pvt_key_last_backup_date", LocalDateTime.class), offset),
                    rs.getBoolean("used_for_backup_encryption")));
        }
        return list;
    }

    /** backup_size and compressed_backup_size are numeric(20,0): read as decimals, kept as 64-bit, never int. */
    private static long bytes(BigDecimal value) {
        return value == null ? 0 : value.longValueExact();
    }

    /**
     * A column added by a later agent version, read only when the answer has it: captures made by older agents
     * ({@code probe --capture}, replayed by {@code qatwatch tds-server}) and simulated servers may not.
     */
    private static Integer intIfPresent(ResultSet rs, String column) throws SQLException {
        try {
            rs.findColumn(column);
        } catch (SQLException absent) {
            return null;
        }
        return intOrNull(rs, column);
    }

    private static Integer intOrNull(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    private Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("applicationName", "qatwatch");
        if (settings.user() == null) {
            // Windows authentication: the service account's identity (needs mssql-jdbc_auth-<version>.x64.dll on java.library.path).
            p.setProperty("integratedSecurity", "true");
        } else {
            p.setProperty("user", settings.user());
            p.setProperty("password", password());
        }
        if (settings.loginTimeout() != null) {
            p.setProperty("loginTimeout", Long.toString(Math.max(1, settings.loginTimeout().toSeconds())));
        }
        if (settings.trustServerCertificate()) {
            p.setProperty("trustServerCertificate", "true");
        }
        return DriverManager.getConnection(settings.jdbcUrl(), p);
    }

    private static final class PasswordUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PasswordUnavailable(String message) {
            super(message);
        }
    }

    private String password() {
        if (settings.passwordFile() != null) {
            try {
                String text = Files.readString(settings.passwordFile(), StandardCharsets.UTF_8);
                return text.lines().findFirst().orElse("");
            } catch (IOException e) {
                throw new PasswordUnavailable("cannot read the password file " + settings.passwordFile() + " (passwordFile): " + e.getMessage());
            }
        }
        if (settings.passwordEnv() != null) {
            String value = environment.apply(settings.passwordEnv());
            if (value == null) {
                throw new PasswordUnavailable("the environment variable " + settings.passwordEnv() + " (passwordEnv) is not set");
            }
            return value;
        }
        throw new PasswordUnavailable("no password source for login " + settings.user() + ": set passwordFile or passwordEnv");
    }

    private int queryTimeoutSeconds() {
        return settings.queryTimeout() == null ? 0 : (int) Math.max(1, settings.queryTimeout().toSeconds());
    }

    private String probeName(String query) {
        return "sqlserver:" + settings.name() + "/" + query;
    }

    private String where(SqlQuery query) {
        return "SQL Server " + settings.name() + " (" + redact(settings.jdbcUrl()) + ")" + (query == null ? "" : ", " + query.name());
    }

    /** The URL without anything that looks like a credential, for messages. */
    static String redact(String url) {
        return url == null ? null : url.replaceAll("(?i)(password|pwd|accessToken)=[^;]*", "$1=***");
    }

    private SqlInstanceSnapshot emptySnapshot(Instant collectedAt, Long after) {
        return new SqlInstanceSnapshot(settings.name(), collectedAt, null, null, null, null, null, null, null, after, null, null);
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private <T> T execute(Connection connection, SqlQuery query, Map<String, Long> numbers, Map<String, String> tables,
            SqlCycle.RowsReader<T> reader) throws SQLException {
        String sql = query.text(numbers, tables);
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(queryTimeoutSeconds());
            try (ResultSet rs = s.executeQuery(sql)) {
                ResultSet seen = recorder.reading(query.name(), sql, rs);
                T value = reader.read(seen);
                recorder.done(seen);
                return value;
            }
        } catch (SQLException e) {
            recorder.failed(query.name(), sql, e, queryTimeoutSeconds());
            throw e;
        }
    }

    /** One probe() call: the open connection, the version, and the status of every query run so far. */
    private final class Cycle implements SqlCycle {
        Connection connection;
        final List<ProbeStatus> probes = new ArrayList<>();
        SQLException lastError;

        <T> T execute(SqlQuery query, Map<String, Long> numbers, SqlCycle.RowsReader<T> reader) throws SQLException {
            return execute(query, numbers, Map.of(), reader);
        }

        @Override
        public <T> T execute(SqlQuery query, Map<String, Long> numbers, Map<String, String> tables, SqlCycle.RowsReader<T> reader)
                throws SQLException {
            try {
                return JdbcSqlInstanceProbe.this.execute(connection, query, numbers, tables, reader);
            } catch (SQLException e) {
                lastError = e;
                throw e;
            }
        }

        @Override
        public void ok(String probe, long startNanos) {
            probes.add(ProbeStatus.ok(probeName(probe), millisSince(startNanos)));
        }

        @Override
        public void problem(String probe, long startNanos, String error, String hint) {
            probes.add(ProbeStatus.failed(probeName(probe), millisSince(startNanos), error, hint));
        }

        @Override
        public String where(SqlQuery query) {
            return JdbcSqlInstanceProbe.this.where(query);
        }

        /** Runs a query; on failure records why and returns null, so the rest of the probe goes on. */
        <T> T run(String probe, SqlQuery query, Map<String, Long> numbers, SqlCycle.RowsReader<T> reader) {
            long start = System.nanoTime();
            try {
                T value = execute(query, numbers, reader);
                probes.add(ProbeStatus.ok(probeName(probe), millisSince(start)));
                return value;
            } catch (SQLException e) {
                fail(probe, query, e, start);
                return null;
            }
        }

        @Override
        public void fail(String probe, SqlQuery query, SQLException e, long start) {
            SqlProbeErrors.Explained x = SqlProbeErrors.explain(e, where(query), query, settings.user(), queryTimeoutSeconds());
            probes.add(ProbeStatus.failed(probeName(probe), millisSince(start), x.error(), x.hint()));
        }
    }
}
