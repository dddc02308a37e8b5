package io.qatwatch.collector.store;

import static io.qatwatch.collector.store.SqlValues.getFlag;
import static io.qatwatch.collector.store.SqlValues.getInstant;
import static io.qatwatch.collector.store.SqlValues.getInteger;
import static io.qatwatch.collector.store.SqlValues.getLong;
import static io.qatwatch.collector.store.SqlValues.setFlag;
import static io.qatwatch.collector.store.SqlValues.setInstant;
import static io.qatwatch.collector.store.SqlValues.setInteger;
import static io.qatwatch.collector.store.SqlValues.setLong;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The {@code backups} table's columns, how a {@link BackupRecord} is written into a row and read back. The alert
 * stage's compact reader is {@link BackupRows}; this one reads every column, for the API and the tools.
 *
 * <p>Issues 30 and 31 added a backup's LSNs, recovery model, device name and the CPU the agent saw it use. LSNs are
 * {@code numeric(25,0)} in msdb, wider than a {@code BIGINT}: they are kept as the digits the agent sent (TEXT), so
 * they read back exactly; the collector compares them as {@link java.math.BigInteger}s, never as text.
 */
final class BackupsTable {

    private BackupsTable() {
    }

    /** The columns issues 30 and 31 added, and their SQL types on SQLite and on PostgreSQL. */
    private static final String[][] CHAIN_AND_CPU_COLUMNS = {
            {"first_lsn", "TEXT", "TEXT"},
            {"last_lsn", "TEXT", "TEXT"},
            {"checkpoint_lsn", "TEXT", "TEXT"},
            {"database_backup_lsn", "TEXT", "TEXT"},
            {"differential_base_lsn", "TEXT", "TEXT"},
            {"differential_base_guid", "TEXT", "TEXT"},
            {"recovery_model", "TEXT", "TEXT"},
            {"begins_log_chain", "INTEGER", "SMALLINT"},
            {"incomplete_metadata", "INTEGER", "SMALLINT"},
            {"physical_device_name", "TEXT", "TEXT"},
            {"cpu_request_ms", "INTEGER", "BIGINT"},
            {"cpu_session_ms", "INTEGER", "BIGINT"},
            {"cpu_samples", "INTEGER", "INTEGER"},
            {"cpu_first_at", "INTEGER", "BIGINT"},
            {"cpu_last_at", "INTEGER", "BIGINT"},
            {"cpu_process_ms", "INTEGER", "BIGINT"},
            {"cpu_process_samples", "INTEGER", "INTEGER"},
            {"cpu_process_reliable", "INTEGER", "SMALLINT"},
            {"cpu_process_note", "TEXT", "TEXT"}};

    /** The migration component that adds them: one on each database, so the earlier components stay as they are. */
    static final String CHAIN_AND_CPU_COMPONENT = "backups-chains-cpu";

    /**
     * {@code backupset.backup_set_uuid}, the identity a differential's {@code differential_base_guid} names (issue 31):
     * a component of its own, added after {@link #CHAIN_AND_CPU_COMPONENT} had shipped.
     */
    static final String SET_UUID_COMPONENT = "backups-set-uuid";

    static List<String> setUuidSteps() {
        return List.of("ALTER TABLE backups ADD COLUMN backup_set_uuid TEXT");
    }

    /** The steps of {@link #CHAIN_AND_CPU_COMPONENT} for {@code kind}: every column nullable, NULL in older rows. */
    static List<String> chainAndCpuSteps(Database.Kind kind) {
        StringBuilder steps = new StringBuilder();
        for (String[] column : CHAIN_AND_CPU_COLUMNS) {
            steps.append(steps.isEmpty() ? "" : ";\n").append("ALTER TABLE backups ADD COLUMN ").append(column[0])
                    .append(' ').append(kind == Database.Kind.POSTGRESQL ? column[2] : column[1]);
        }
        return List.of(steps.toString());
    }

    /** Every column the insert writes, in its order. */
    static final List<String> COLUMNS;

    static {
        List<String> columns = new java.util.ArrayList<>(List.of("host", "instance", "backup_set_id", "database_name",
                "database_guid", "type", "copy_only", "started_at", "finished_at", "tz_known", "size_bytes",
                "compressed_bytes", "algorithm", "checksums", "key_algorithm", "encryptor_thumbprint", "encryptor_type",
                "device_type", "target", "family_guid", "snapshot", "media_families"));
        for (String[] column : CHAIN_AND_CPU_COLUMNS) {
            columns.add(column[0]);
        }
        columns.add("backup_set_uuid");
        COLUMNS = List.copyOf(columns);
    }

    /** Parameters one row binds. */
    static final int PARAMS = COLUMNS.size();
    static final String INSERT = "INSERT INTO backups(" + String.join(", ", COLUMNS) + ") VALUES ";
    static final String ROW = "(" + "?,".repeat(PARAMS - 1) + "?)";

    /** Binds {@code b} as the row whose first parameter follows {@code at}. */
    static void bind(PreparedStatement s, int at, String host, String instance, BackupRecord b) throws SQLException {
        s.setString(at + 1, host);
        s.setString(at + 2, instance);
        s.setLong(at + 3, b.backupSetId());
        s.setString(at + 4, b.databaseName());
        s.setString(at + 5, b.databaseGuid());
        s.setString(at + 6, b.type());
        s.setInt(at + 7, b.copyOnly() ? 1 : 0);
        s.setLong(at + 8, b.startedAt().toEpochMilli());
        s.setLong(at + 9, b.finishedAt().toEpochMilli());
        s.setInt(at + 10, b.timeZoneKnown() ? 1 : 0);
        s.setLong(at + 11, b.backupSizeBytes());
        setLong(s, at + 12, b.compressedSizeBytes());
        s.setString(at + 13, b.compressionAlgorithm());
        s.setInt(at + 14, b.hasChecksums() ? 1 : 0);
        s.setString(at + 15, b.keyAlgorithm());
        s.setString(at + 16, b.encryptorThumbprint());
        s.setString(at + 17, b.encryptorType());
        s.setString(at + 18, b.deviceType());
        s.setString(at + 19, b.target());
        s.setString(at + 20, b.familyGuid());
        setFlag(s, at + 21, b.snapshot());
        setInteger(s, at + 22, b.mediaFamilyCount());
        s.setString(at + 23, b.firstLsn());
        s.setString(at + 24, b.lastLsn());
        s.setString(at + 25, b.checkpointLsn());
        s.setString(at + 26, b.databaseBackupLsn());
        s.setString(at + 27, b.differentialBaseLsn());
        s.setString(at + 28, b.differentialBaseGuid());
        s.setString(at + 29, b.recoveryModel());
        setFlag(s, at + 30, b.beginsLogChain());
        setFlag(s, at + 31, b.hasIncompleteMetadata());
        s.setString(at + 32, b.physicalDeviceName());
        BackupCpu cpu = b.cpu();
        setLong(s, at + 33, cpu == null ? null : cpu.requestCpuMs());
        setLong(s, at + 34, cpu == null ? null : cpu.sessionCpuMs());
        setInteger(s, at + 35, cpu == null ? null : cpu.samples());
        setInstant(s, at + 36, cpu == null ? null : cpu.firstSampleAt());
        setInstant(s, at + 37, cpu == null ? null : cpu.lastSampleAt());
        setLong(s, at + 38, cpu == null ? null : cpu.processCpuMs());
        setInteger(s, at + 39, cpu == null ? null : cpu.processSamples());
        setFlag(s, at + 40, cpu == null ? null : cpu.processReliable());
        s.setString(at + 41, cpu == null ? null : cpu.processNote());
        s.setString(at + 42, b.backupSetUuid());
    }

    /** Maps a {@code backups} row, selected with every column, back to its record. */
    static BackupRecord read(ResultSet rs) throws SQLException {
        Integer samples = getInteger(rs, "cpu_samples");
        BackupCpu cpu = samples == null ? null : new BackupCpu(getLong(rs, "cpu_request_ms"),
                getLong(rs, "cpu_session_ms"), samples, getInstant(rs, "cpu_first_at"), getInstant(rs, "cpu_last_at"),
                getLong(rs, "cpu_process_ms"), getInteger(rs, "cpu_process_samples"), getFlag(rs, "cpu_process_reliable"),
                rs.getString("cpu_process_note"));
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
                getLong(rs, "compressed_bytes"),
                rs.getString("algorithm"),
                rs.getInt("checksums") != 0,
                rs.getString("key_algorithm"),
                rs.getString("encryptor_thumbprint"),
                rs.getString("encryptor_type"),
                rs.getString("device_type"),
                rs.getString("target"),
                rs.getString("family_guid"),
                getFlag(rs, "snapshot"),
                getInteger(rs, "media_families"),
                rs.getString("first_lsn"),
                rs.getString("last_lsn"),
                rs.getString("checkpoint_lsn"),
                rs.getString("database_backup_lsn"),
                rs.getString("differential_base_lsn"),
                rs.getString("differential_base_guid"),
                rs.getString("recovery_model"),
                getFlag(rs, "begins_log_chain"),
                getFlag(rs, "incomplete_metadata"),
                rs.getString("physical_device_name"),
                cpu,
                rs.getString("backup_set_uuid"));
    }
}
