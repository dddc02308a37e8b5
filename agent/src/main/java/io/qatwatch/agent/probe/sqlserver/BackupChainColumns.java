package io.qatwatch.agent.probe.sqlserver;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A backupset row's log-chain columns (issue 31): the LSNs, the differential base, the recovery model, whether it begins
 * a log chain or has incomplete metadata. LSNs are {@code numeric(25,0)}, wider than a {@code long} or a double: read as
 * decimals and kept as their digits. Captures made before these columns were read lack them: all null then.
 */
record BackupChainColumns(String firstLsn, String lastLsn, String checkpointLsn, String databaseBackupLsn,
                          String differentialBaseLsn, String differentialBaseGuid, String recoveryModel, Boolean beginsLogChain,
                          Boolean hasIncompleteMetadata) {

    static final BackupChainColumns NONE = new BackupChainColumns(null, null, null, null, null, null, null, null, null);

    /** Whether the result set has the columns: asked once per result set, not per row. */
    static boolean present(ResultSet rs) throws SQLException {
        try {
            rs.findColumn("first_lsn");
            return true;
        } catch (SQLException absent) {
            return false;
        }
    }

    /**
     * Whether the result set has {@code backup_set_uuid}, the identity a differential's {@code differential_base_guid}
     * names: captures made before it was read lack it.
     */
    static boolean hasSetUuid(ResultSet rs) throws SQLException {
        try {
            rs.findColumn("backup_set_uuid");
            return true;
        } catch (SQLException absent) {
            return false;
        }
    }

    static BackupChainColumns read(ResultSet rs) throws SQLException {
        return new BackupChainColumns(lsn(rs.getBigDecimal("first_lsn")), lsn(rs.getBigDecimal("last_lsn")),
                lsn(rs.getBigDecimal("checkpoint_lsn")), lsn(rs.getBigDecimal("database_backup_lsn")),
                lsn(rs.getBigDecimal("differential_base_lsn")), SqlServerValues.guid(rs.getString("differential_base_guid")),
                rs.getString("recovery_model"), flag(rs, "begins_log_chain"), flag(rs, "has_incomplete_metadata"));
    }

    /** The digits of a {@code numeric(25,0)} LSN; null for NULL (a differential_base_lsn of a log backup, say). */
    static String lsn(BigDecimal value) {
        return value == null ? null : value.toBigIntegerExact().toString();
    }

    private static Boolean flag(ResultSet rs, String column) throws SQLException {
        boolean v = rs.getBoolean(column);
        return rs.wasNull() ? null : v;
    }
}
