package io.qatwatch.protocol;

import java.time.Instant;
import java.util.List;

/**
 * What one SQL Server instance said in one cycle. Sections a cycle did not read are null (not empty):
 * the collector keeps the last value it has. {@code backups} holds only rows above the previous
 * high-water mark, so a report carries each backup once.
 *
 * @param name                the instance as configured on the agent, e.g. {@code MSSQLSERVER} or {@code PROD}
 * @param backupHighWaterMark the highest {@code msdb.dbo.backupset.backup_set_id} read so far, null before the first sync
 */
public record SqlInstanceSnapshot(
        String name,
        Instant collectedAt,
        ServerInfo server,
        List<ConfigOption> configuration,
        List<AcceleratorStatus> accelerators,
        List<DatabaseInfo> databases,
        List<BackupRecord> backups,
        List<RunningBackup> runningBackups,
        List<CertificateInfo> certificates,
        Long backupHighWaterMark) {

    /** SERVERPROPERTY facts. {@code engineEdition}: 2 Standard, 3 Enterprise/Developer, 4 Express, ... */
    public record ServerInfo(
            String productVersion,
            Integer majorVersion,
            String edition,
            Integer engineEdition,
            String machineName,
            String serverName,
            Boolean hadrEnabled) {
    }

    /** One {@code sys.configurations} row; value and value in use differ while a restart is pending. */
    public record ConfigOption(String name, long value, long valueInUse) {
    }

    /** One {@code sys.dm_server_accelerator_status} row (SQL Server 2022+). */
    public record AcceleratorStatus(
            String accelerator,
            String modeDesc,
            String modeReasonDesc,
            Boolean hardwareDetected,
            String libraryVersion,
            String driverVersion) {
    }

    /**
     * A database with the facts that decide how its backups are judged.
     *
     * @param encryptionState TDE state from {@code sys.dm_database_encryption_keys}: NONE, ENCRYPTED, ...
     * @param replicaRole     PRIMARY or SECONDARY when in an availability group, else null
     */
    public record DatabaseInfo(
            String name,
            String databaseGuid,
            String recoveryModel,
            String encryptionState,
            String availabilityGroup,
            String replicaRole,
            Boolean preferredBackupReplica) {
    }

    /**
     * One {@code msdb.dbo.backupset} row joined with its media family. Times are UTC, converted with the
     * row's {@code time_zone}; when that was 127 (unknown) the host zone was used and {@code timeZoneKnown} is false.
     *
     * @param type           D full, I differential, L log, F file, G differential file, P partial, Q differential partial
     * @param deviceType     DISK, TAPE, VIRTUAL_DEVICE, URL, PERMANENT_DEVICE or UNKNOWN
     * @param target         LOCAL, UNC, URL, VIRTUAL_DEVICE, TAPE or UNKNOWN: where the bytes went
     */
    public record BackupRecord(
            long backupSetId,
            String databaseName,
            String databaseGuid,
            String type,
            boolean copyOnly,
            Instant startedAt,
            Instant finishedAt,
            boolean timeZoneKnown,
            long backupSizeBytes,
            Long compressedSizeBytes,
            String compressionAlgorithm,
            boolean hasChecksums,
            String keyAlgorithm,
            String encryptorThumbprint,
            String encryptorType,
            String deviceType,
            String target) {
    }

    /** A backup running now, from {@code sys.dm_exec_requests}. */
    public record RunningBackup(
            int sessionId,
            String command,
            String databaseName,
            Instant startedAt,
            double percentComplete,
            long elapsedSeconds,
            Long estimatedRemainingSeconds) {
    }

    /** A certificate in master, with when its private key was last backed up. */
    public record CertificateInfo(
            String name,
            String thumbprint,
            Instant expiresAt,
            Instant privateKeyLastBackupAt,
            boolean usedForBackupEncryption) {
    }
}
