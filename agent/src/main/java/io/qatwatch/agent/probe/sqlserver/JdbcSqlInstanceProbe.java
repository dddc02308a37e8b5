package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlServerValues.backupTimeUtc;
import static io.qatwatch.agent.probe.sqlserver.SqlServerValues.serverTimeUtc;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
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
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads one SQL Server instance with mssql-jdbc: SERVERPROPERTY first, then only the queries its version
 * has, each from its own {@code .sql} resource, each reported in {@code probes[]} on its own. Statements are
 * plain batches (no parameters: the only numbers, page size and high-water mark, are formatted by the agent),
 * so the driver needs no RPC and production keeps the driver's defaults, {@code encrypt=true} included.
 */
public final class JdbcSqlInstanceProbe implements SqlInstanceProbe {

    /**
     * Backup rows one probe reads at most, in pages; the rest waits for the next cycle. A row is ~450 bytes of
     * JSON, so 5,000 rows keep a report near 2 MB, well under the collector's default 8 MiB body limit
     * (20,000 rows made 9 MB reports that the collector refused with 413).
     */
    static final int MAX_BACKUP_ROWS_PER_PROBE = 5_000;
    private static final int DEFAULT_PAGE_SIZE = 5_000;
    private static final int SQL_SERVER_2022 = 16;
    private static final int SQL_SERVER_2016 = 13;

    private final SqlInstanceSettings settings;
    private final Clock clock;
    private final Function<String, String> environment;
    private final SqlRecorder recorder;

    /** @param clock the agent's clock; its zone stands in for backups whose time zone SQL Server did not record */
    public JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock) {
        this(settings, clock, System::getenv, SqlRecorder.NONE);
    }

    /** As above, every answer also shown to {@code recorder} ({@code probe --capture}). */
    public JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, SqlRecorder recorder) {
        this(settings, clock, System::getenv, recorder);
    }

    JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, Function<String, String> environment) {
        this(settings, clock, environment, SqlRecorder.NONE);
    }

    private JdbcSqlInstanceProbe(SqlInstanceSettings settings, Clock clock, Function<String, String> environment,
            SqlRecorder recorder) {
        this.settings = settings;
        this.clock = clock;
        this.environment = environment;
        this.recorder = recorder;
    }

    @Override
    public SqlProbeResult probe(Set<SqlSection> sections, Long afterBackupSetId) {
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
            return read(cycle, collectedAt, sections, afterBackupSetId);
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
            return execute(c, SqlQuery.LATEST_BACKUP_SET_ID, SqlQuery.none(), rs -> {
                if (!rs.next()) {
                    return null;
                }
                long latest = rs.getLong(1);
                return rs.wasNull() ? null : Math.max(0, latest - recent);
            });
        } catch (SQLException | PasswordUnavailable e) {
            return null;
        }
    }

    private SqlProbeResult read(Cycle cycle, Instant collectedAt, Set<SqlSection> sections, Long after) {
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
                ? readDatabases(cycle, server != null && Boolean.TRUE.equals(server.hadrEnabled())) : null;

        List<BackupRecord> backups = null;
        Long highWaterMark = after;
        boolean more = false;
        if (sections.contains(SqlSection.BACKUP_HISTORY)) {
            BackupPages pages = readBackupHistory(cycle, major, after);
            backups = pages.rows;
            highWaterMark = pages.highWaterMark;
            more = pages.more;
        }

        List<RunningBackup> running = sections.contains(SqlSection.RUNNING_BACKUPS) ? readRunningBackups(cycle, major) : null;
        List<CertificateInfo> certificates = sections.contains(SqlSection.CERTIFICATES)
                ? cycle.run("certificates", SqlQuery.CERTIFICATES, SqlQuery.none(), JdbcSqlInstanceProbe::readCertificates) : null;

        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(settings.name(), collectedAt, server, configuration, accelerators,
                databases, backups, running, certificates, highWaterMark);
        return new SqlProbeResult(snapshot, cycle.probes, more);
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

    private record DatabaseRow(String name, String guid, String recoveryModel) {
    }

    private record ReplicaRow(String group, String role, Boolean preferred) {
    }

    private List<DatabaseInfo> readDatabases(Cycle cycle, boolean hadrEnabled) {
        List<DatabaseRow> rows = cycle.run("databases", SqlQuery.DATABASES, SqlQuery.none(), rs -> {
            List<DatabaseRow> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new DatabaseRow(rs.getString("name"), SqlServerValues.guid(rs.getString("database_guid")),
                        rs.getString("recovery_model_desc")));
            }
            return list;
        });
        if (rows == null) {
            return null;
        }
        Map<String, String> encryption = cycle.run("database-encryption", SqlQuery.DATABASE_ENCRYPTION, SqlQuery.none(), rs -> {
            Map<String, String> byName = new HashMap<>();
            while (rs.next()) {
                byName.put(rs.getString("database_name"), SqlServerValues.encryptionState(rs.getInt("encryption_state")));
            }
            return byName;
        });
        Map<String, ReplicaRow> replicas = Map.of();
        if (hadrEnabled) {
            replicas = cycle.run("availability-replicas", SqlQuery.AVAILABILITY_REPLICAS, SqlQuery.none(), rs -> {
                Map<String, ReplicaRow> byName = new HashMap<>();
                while (rs.next()) {
                    boolean preferred = rs.getBoolean("is_preferred_backup_replica");
                    byName.put(rs.getString("database_name"), new ReplicaRow(rs.getString("availability_group"),
                            rs.getString("role_desc"), rs.wasNull() ? null : preferred));
                }
                return byName;
            });
        }
        List<DatabaseInfo> databases = new ArrayList<>();
        for (DatabaseRow d : rows) {
            // A database without a key has no row in the DMV: not encrypted. Unknown when the DMV could not be read.
            String tde = encryption == null ? null : encryption.getOrDefault(d.name(), "NONE");
            ReplicaRow r = replicas == null ? null : replicas.get(d.name());
            databases.add(new DatabaseInfo(d.name(), d.guid(), d.recoveryModel(), tde,
                    r == null ? null : r.group(), r == null ? null : r.role(), r == null ? null : r.preferred()));
        }
        return databases;
    }

    private record BackupPages(List<BackupRecord> rows, Long highWaterMark, boolean more) {
    }

    /** Keyset paging above the high-water mark: pages until a short page, or until this probe's share is read. */
    private BackupPages readBackupHistory(Cycle cycle, int major, Long after) {
        boolean hasAlgorithm = major >= SQL_SERVER_2022;
        SqlQuery query = hasAlgorithm ? SqlQuery.BACKUP_HISTORY_2022 : SqlQuery.BACKUP_HISTORY;
        int pageSize = settings.backupPageSize() > 0 ? settings.backupPageSize() : DEFAULT_PAGE_SIZE;
        List<BackupRecord> rows = new ArrayList<>();
        long mark = after == null ? 0 : after;
        long start = System.nanoTime();
        boolean more;
        while (true) {
            int want = Math.min(pageSize, MAX_BACKUP_ROWS_PER_PROBE - rows.size());
            List<BackupRecord> page;
            try {
                page = cycle.execute(query, Map.of("page_size", (long) want, "after_backup_set_id", mark),
                        rs -> readBackups(rs, hasAlgorithm));
            } catch (SQLException e) {
                cycle.fail("backup-history", query, e, start);
                // Rows read before the failure are kept; the mark stays on the last of them.
                return new BackupPages(rows, after == null && rows.isEmpty() ? null : mark, false);
            }
            rows.addAll(page);
            if (!page.isEmpty()) {
                mark = page.get(page.size() - 1).backupSetId();
            }
            if (page.size() < want) {
                more = false;
                break;
            }
            if (rows.size() >= MAX_BACKUP_ROWS_PER_PROBE) {
                more = true;
                break;
            }
        }
        cycle.probes.add(ProbeStatus.ok(probeName("backup-history"), millisSince(start)));
        return new BackupPages(rows, mark, more);
    }

    private List<BackupRecord> readBackups(ResultSet rs, boolean hasAlgorithm) throws SQLException {
        List<BackupRecord> list = new ArrayList<>();
        while (rs.next()) {
            Integer timeZone = intOrNull(rs, "time_zone");
            long size = bytes(rs.getBigDecimal("backup_size"));
            BigDecimal compressed = rs.getBigDecimal("compressed_backup_size");
            Long compressedSize = compressed == null ? null : bytes(compressed);
            String algorithm = SqlServerValues.compressionAlgorithm(hasAlgorithm,
                    hasAlgorithm ? rs.getString("compression_algorithm") : null, size, compressedSize);
            Integer device = intOrNull(rs, "device_type");
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
                    SqlServerValues.target(device, rs.getString("physical_device_name"))));
        }
        return list;
    }

    private record RunningRows(boolean complete, List<RunningBackup> backups) {
    }

    private List<RunningBackup> readRunningBackups(Cycle cycle, int major) {
        long start = System.nanoTime();
        RunningRows rows;
        try {
            rows = cycle.execute(SqlQuery.RUNNING_BACKUPS, SqlQuery.none(), JdbcSqlInstanceProbe::readRunning);
        } catch (SQLException e) {
            cycle.fail("running-backups", SqlQuery.RUNNING_BACKUPS, e, start);
            return null;
        }
        if (!rows.complete()) {
            // sys.dm_exec_requests answers without error, but only with this login's own requests.
            String permission = major >= SQL_SERVER_2022 ? "VIEW SERVER PERFORMANCE STATE" : "VIEW SERVER STATE";
            cycle.probes.add(ProbeStatus.failed(probeName("running-backups"), millisSince(start),
                    where(SqlQuery.RUNNING_BACKUPS) + ": the login lacks " + permission
                            + ", so sys.dm_exec_requests shows only its own requests and running backups are invisible",
                    "USE master; GRANT " + permission + " TO [" + (settings.user() == null ? "DOMAIN\\service-account" : settings.user())
                            + "]; (see install/sql/create-monitor-login.sql)"));
            return null;
        }
        cycle.probes.add(ProbeStatus.ok(probeName("running-backups"), millisSince(start)));
        return rows.backups();
    }

    private static RunningRows readRunning(ResultSet rs) throws SQLException {
        boolean complete = true;
        List<RunningBackup> list = new ArrayList<>();
        while (rs.next()) {
            complete = rs.getInt("can_see_all_sessions") == 1;
            int offset = rs.getInt("server_utc_offset_minutes");
            int session = rs.getInt("session_id");
            if (rs.wasNull()) {
                continue;
            }
            long estimateMs = rs.getLong("estimated_completion_time");
            list.add(new RunningBackup(session, rs.getString("command").trim(), rs.getString("database_name"),
                    serverTimeUtc(rs.getObject("start_time", LocalDateTime.class), offset),
                    rs.getFloat("percent_complete"), rs.getLong("total_elapsed_time") / 1000,
                    estimateMs > 0 ? estimateMs / 1000 : null));
        }
        return new RunningRows(complete, list);
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
        return new SqlInstanceSnapshot(settings.name(), collectedAt, null, null, null, null, null, null, null, after);
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private <T> T execute(Connection connection, SqlQuery query, Map<String, Long> numbers, RowsReader<T> reader)
            throws SQLException {
        String sql = query.text(numbers);
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

    @FunctionalInterface
    private interface RowsReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** One probe() call: the open connection, the version, and the status of every query run so far. */
    private final class Cycle {
        Connection connection;
        final List<ProbeStatus> probes = new ArrayList<>();

        <T> T execute(SqlQuery query, Map<String, Long> numbers, RowsReader<T> reader) throws SQLException {
            return JdbcSqlInstanceProbe.this.execute(connection, query, numbers, reader);
        }

        /** Runs a query; on failure records why and returns null, so the rest of the probe goes on. */
        <T> T run(String probe, SqlQuery query, Map<String, Long> numbers, RowsReader<T> reader) {
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

        void fail(String probe, SqlQuery query, SQLException e, long start) {
            SqlProbeErrors.Explained x = SqlProbeErrors.explain(e, where(query), query, settings.user(), queryTimeoutSeconds());
            probes.add(ProbeStatus.failed(probeName(probe), millisSince(start), x.error(), x.hint()));
        }
    }
}
