package io.qatwatch.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * What one SQL Server instance said in one cycle. Sections a cycle did not read are null (not empty):
 * the collector keeps the last value it has. {@code backups} holds only rows above the previous
 * high-water mark, so a report carries each backup once.
 *
 * <p>Fields after {@code backupHighWaterMark} (and the last ones of the nested records) were added in schema
 * version 1 by issue 14; older agents leave them out and readers see null. The shorter constructors keep code
 * written before them compiling: they leave the added fields null.
 *
 * @param name                the instance as configured on the agent, e.g. {@code MSSQLSERVER} or {@code PROD}
 * @param backupHighWaterMark the highest {@code msdb.dbo.backupset.backup_set_id} read so far, null before the first sync
 * @param asymmetricKeys      asymmetric keys in master (backup and TDE encryptors besides certificates); null when not read
 * @param runningBackupsHiddenFor databases whose running backups this login may not see although it sees the others:
 *                            availability-group secondaries read over a connection that does not declare read intent.
 *                            For these, absence from {@code runningBackups} means unknown, not "none". Null when
 *                            running backups were not read (then {@code runningBackups} is null too)
 * @param jobsStatus          whether SQL Server Agent's tables could be read: {@link #JOBS_AVAILABLE}, {@link #JOBS_NO_AGENT}
 *                            (Express, Linux without SQL Server Agent, or 'Agent XPs' off: not available, not an error) or
 *                            {@link #JOBS_NO_PERMISSION} (the login may not read msdb's Agent tables); null when not read.
 *                            Added by issue 15, like every field after it
 * @param jobs                every SQL Agent job with its schedules, those that back up marked; null when not read
 * @param jobRuns             {@code msdb.dbo.sysjobhistory} rows above the previous {@code jobHistoryHighWaterMark}: each
 *                            job outcome (step 0) and step; null when not read
 * @param jobHistoryHighWaterMark the highest {@code sysjobhistory.instance_id} read so far; null before the first read
 * @param commandLog          Ola Hallengren's {@code dbo.CommandLog} backup rows above the previous high-water mark; an
 *                            empty list when the table does not exist; null when not read
 * @param commandLogHighWaterMark the highest {@code CommandLog.ID} read so far; null before the first read or without the table
 * @param restores            {@code msdb.dbo.restorehistory} rows above the previous high-water mark, each with the backup
 *                            set it restored; null when not read
 * @param restoreHighWaterMark the highest {@code restorehistory.restore_history_id} read so far; null before the first read
 * @param observedRestores    RESTORE requests the polls saw run and then end since the previous report, each with its CPU
 *                            (issue 30); null when running requests were not read
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
        Long backupHighWaterMark,
        List<AsymmetricKeyInfo> asymmetricKeys,
        List<String> runningBackupsHiddenFor,
        String jobsStatus,
        List<AgentJob> jobs,
        List<JobRun> jobRuns,
        Long jobHistoryHighWaterMark,
        List<CommandLogEntry> commandLog,
        Long commandLogHighWaterMark,
        List<RestoreRecord> restores,
        Long restoreHighWaterMark,
        List<ObservedRestore> observedRestores) {

    /** SQL Server Agent's tables were read. */
    public static final String JOBS_AVAILABLE = "AVAILABLE";
    /** No SQL Server Agent on this instance (Express, Linux without Agent): not available, not an error. */
    public static final String JOBS_NO_AGENT = "NO_AGENT";
    /** The login may not read SQL Server Agent's tables in msdb (no SELECT on sysjobs, sysjobhistory, ...). */
    public static final String JOBS_NO_PERMISSION = "NO_PERMISSION";

    /** As issue 15 left it: no observed restores. */
    public SqlInstanceSnapshot(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                               List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases, List<BackupRecord> backups,
                               List<RunningBackup> runningBackups, List<CertificateInfo> certificates, Long backupHighWaterMark,
                               List<AsymmetricKeyInfo> asymmetricKeys, List<String> runningBackupsHiddenFor, String jobsStatus,
                               List<AgentJob> jobs, List<JobRun> jobRuns, Long jobHistoryHighWaterMark,
                               List<CommandLogEntry> commandLog, Long commandLogHighWaterMark, List<RestoreRecord> restores,
                               Long restoreHighWaterMark) {
        this(name, collectedAt, server, configuration, accelerators, databases, backups, runningBackups, certificates,
                backupHighWaterMark, asymmetricKeys, runningBackupsHiddenFor, jobsStatus, jobs, jobRuns, jobHistoryHighWaterMark,
                commandLog, commandLogHighWaterMark, restores, restoreHighWaterMark, null);
    }

    /** As issue 14 left it: no jobs, job runs, CommandLog or restores read. */
    public SqlInstanceSnapshot(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                               List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases, List<BackupRecord> backups,
                               List<RunningBackup> runningBackups, List<CertificateInfo> certificates, Long backupHighWaterMark,
                               List<AsymmetricKeyInfo> asymmetricKeys, List<String> runningBackupsHiddenFor) {
        this(name, collectedAt, server, configuration, accelerators, databases, backups, runningBackups, certificates,
                backupHighWaterMark, asymmetricKeys, runningBackupsHiddenFor, null, null, null, null, null, null, null, null);
    }

    /** As before issue 14: no asymmetric keys, nothing known about hidden running backups. */
    public SqlInstanceSnapshot(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                               List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases, List<BackupRecord> backups,
                               List<RunningBackup> runningBackups, List<CertificateInfo> certificates, Long backupHighWaterMark) {
        this(name, collectedAt, server, configuration, accelerators, databases, backups, runningBackups, certificates,
                backupHighWaterMark, null, null);
    }

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

    /**
     * One {@code sys.configurations} row; value and value in use differ while a restart is pending. Values are
     * raw numbers: where Microsoft documents no meaning ({@code hardware offload config}, {@code hardware offload
     * mode}) none is given to them.
     */
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
     * @param databaseGuid        {@code sys.database_recovery_status.database_guid}: new with every RESTORE that creates the
     *                            database, so two replicas of one availability database may differ; null for AUTO_CLOSE or
     *                            offline databases, which the agent does not wake to ask
     * @param encryptionState     TDE state from {@code sys.dm_database_encryption_keys}: NONE, ENCRYPTED, ...
     * @param replicaRole         PRIMARY or SECONDARY when in an availability group, else null
     * @param familyGuid          {@code sys.database_recovery_status.family_guid}: the same for every copy restored from
     *                            the same original database; null when the GUID was not read
     * @param groupDatabaseId     {@code sys.databases.group_database_id}: the database's identity within its availability
     *                            group, the same on every replica; null outside availability groups
     * @param availabilityGroupId the availability group's {@code group_id}; null outside availability groups
     * @param autoClose           {@code sys.databases.is_auto_close_on}
     * @param tdeEncryptorThumbprint the certificate or asymmetric key protecting the TDE key
     *                            ({@code sys.dm_database_encryption_keys.encryptor_thumbprint}), {@code 0x}-hex; null without TDE
     * @param tdeEncryptorType    {@code CERTIFICATE} or {@code ASYMMETRIC KEY}, as the DMV spells it; null without TDE
     * @param createdAt           {@code sys.databases.create_date} ("Date the database was created or renamed"), a local
     *                            time read in the host's zone, in UTC; null from agents before issue 31
     */
    public record DatabaseInfo(
            String name,
            String databaseGuid,
            String recoveryModel,
            String encryptionState,
            String availabilityGroup,
            String replicaRole,
            Boolean preferredBackupReplica,
            String familyGuid,
            String groupDatabaseId,
            String availabilityGroupId,
            Boolean autoClose,
            String tdeEncryptorThumbprint,
            String tdeEncryptorType,
            Instant createdAt) {

        /** As before issue 14: no family GUID, availability-group identity, AUTO_CLOSE or TDE encryptor. */
        public DatabaseInfo(String name, String databaseGuid, String recoveryModel, String encryptionState,
                            String availabilityGroup, String replicaRole, Boolean preferredBackupReplica) {
            this(name, databaseGuid, recoveryModel, encryptionState, availabilityGroup, replicaRole, preferredBackupReplica,
                    null, null, null, null, null, null);
        }

        /** As before issue 31: no {@code create_date}. */
        public DatabaseInfo(String name, String databaseGuid, String recoveryModel, String encryptionState,
                            String availabilityGroup, String replicaRole, Boolean preferredBackupReplica, String familyGuid,
                            String groupDatabaseId, String availabilityGroupId, Boolean autoClose,
                            String tdeEncryptorThumbprint, String tdeEncryptorType) {
            this(name, databaseGuid, recoveryModel, encryptionState, availabilityGroup, replicaRole, preferredBackupReplica,
                    familyGuid, groupDatabaseId, availabilityGroupId, autoClose, tdeEncryptorThumbprint, tdeEncryptorType, null);
        }
    }

    /**
     * One {@code msdb.dbo.backupset} row joined with its media family, for a backup this instance took (rows that a
     * RESTORE copied from another server's history are not reported). Times are UTC, converted with the row's
     * {@code time_zone}; when that was 127 (unknown) the host zone was used and {@code timeZoneKnown} is false.
     *
     * @param type           D full, I differential, L log, F file, G differential file, P partial, Q differential partial
     * @param keyAlgorithm   {@code backupset.key_algorithm}: {@code NO_Encryption} for an unencrypted backup; see {@link #encrypted()}
     * @param deviceType     DISK (device_type 2 or 102), TAPE (5 or 105), VIRTUAL_DEVICE (7), URL (9) or UNKNOWN;
     *                       agents before issue 14 sent PERMANENT_DEVICE for 105 (a permanent tape device)
     * @param target         LOCAL, UNC, URL, VIRTUAL_DEVICE, TAPE, NUL or UNKNOWN: where the bytes went
     * @param familyGuid     {@code backupset.family_guid}: the original database's identity, kept through restores
     * @param snapshot       {@code backupset.is_snapshot}: a snapshot (VSS) backup, whose {@code backupSizeBytes} is an
     *                       estimate; it counts for windows and recovery points, not for throughput or compression.
     *                       Null from agents before issue 14
     * @param mediaFamilyCount the number of media families (stripes: files, URLs or devices) the backup was written to:
     *                       {@code backupmediafamily} rows of its {@code media_set_id}, mirrors not counted; null from
     *                       agents before issue 15
     * @param firstLsn       {@code backupset.first_lsn} ({@code numeric(25,0)}), as decimal digits: never a {@code long}.
     *                       Added by issues 30 and 31 with every field after it; null from older agents
     * @param lastLsn        {@code backupset.last_lsn}: a log backup chains to the next one whose {@code first_lsn} equals it
     * @param checkpointLsn  {@code backupset.checkpoint_lsn}: the LSN a differential's {@code differential_base_lsn} names
     * @param databaseBackupLsn {@code backupset.database_backup_lsn}: the {@code checkpoint_lsn} of the latest full before it
     * @param differentialBaseLsn {@code backupset.differential_base_lsn}: for a differential, the base full's LSN
     * @param differentialBaseGuid {@code backupset.differential_base_guid}: for a differential, the base full's identity
     * @param recoveryModel  {@code backupset.recovery_model} as msdb spells it: {@code FULL}, {@code BULK-LOGGED}, {@code SIMPLE}
     * @param beginsLogChain {@code backupset.begins_log_chain}: the first log backup of a chain
     * @param hasIncompleteMetadata {@code backupset.has_incomplete_metadata}: a tail-log backup with incomplete metadata
     * @param physicalDeviceName {@code backupmediafamily.physical_device_name} of the first media family: the file, URL,
     *                       {@code NUL} or a virtual device's name
     * @param cpu            the CPU the backup was seen to use while it ran (issue 30); null when no poll saw it run
     * @param backupSetUuid  {@code backupset.backup_set_uuid}: the backup set's identity, which a differential's
     *                       {@code differentialBaseGuid} names; null from agents before issue 31's second part
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
            String target,
            String familyGuid,
            Boolean snapshot,
            Integer mediaFamilyCount,
            String firstLsn,
            String lastLsn,
            String checkpointLsn,
            String databaseBackupLsn,
            String differentialBaseLsn,
            String differentialBaseGuid,
            String recoveryModel,
            Boolean beginsLogChain,
            Boolean hasIncompleteMetadata,
            String physicalDeviceName,
            BackupCpu cpu,
            String backupSetUuid) {

        /** {@code backupset.key_algorithm} of a backup taken without encryption. */
        public static final String NO_ENCRYPTION = "NO_Encryption";

        /** As before issue 14: no family GUID, snapshot unknown. */
        public BackupRecord(long backupSetId, String databaseName, String databaseGuid, String type, boolean copyOnly,
                            Instant startedAt, Instant finishedAt, boolean timeZoneKnown, long backupSizeBytes,
                            Long compressedSizeBytes, String compressionAlgorithm, boolean hasChecksums, String keyAlgorithm,
                            String encryptorThumbprint, String encryptorType, String deviceType, String target) {
            this(backupSetId, databaseName, databaseGuid, type, copyOnly, startedAt, finishedAt, timeZoneKnown, backupSizeBytes,
                    compressedSizeBytes, compressionAlgorithm, hasChecksums, keyAlgorithm, encryptorThumbprint, encryptorType,
                    deviceType, target, null, null, null);
        }

        /** As issue 14 left it: the number of media families unknown. */
        public BackupRecord(long backupSetId, String databaseName, String databaseGuid, String type, boolean copyOnly,
                            Instant startedAt, Instant finishedAt, boolean timeZoneKnown, long backupSizeBytes,
                            Long compressedSizeBytes, String compressionAlgorithm, boolean hasChecksums, String keyAlgorithm,
                            String encryptorThumbprint, String encryptorType, String deviceType, String target,
                            String familyGuid, Boolean snapshot) {
            this(backupSetId, databaseName, databaseGuid, type, copyOnly, startedAt, finishedAt, timeZoneKnown, backupSizeBytes,
                    compressedSizeBytes, compressionAlgorithm, hasChecksums, keyAlgorithm, encryptorThumbprint, encryptorType,
                    deviceType, target, familyGuid, snapshot, null);
        }

        /** As issue 15 left it: no LSNs, recovery model, device name or CPU. */
        public BackupRecord(long backupSetId, String databaseName, String databaseGuid, String type, boolean copyOnly,
                            Instant startedAt, Instant finishedAt, boolean timeZoneKnown, long backupSizeBytes,
                            Long compressedSizeBytes, String compressionAlgorithm, boolean hasChecksums, String keyAlgorithm,
                            String encryptorThumbprint, String encryptorType, String deviceType, String target,
                            String familyGuid, Boolean snapshot, Integer mediaFamilyCount) {
            this(backupSetId, databaseName, databaseGuid, type, copyOnly, startedAt, finishedAt, timeZoneKnown, backupSizeBytes,
                    compressedSizeBytes, compressionAlgorithm, hasChecksums, keyAlgorithm, encryptorThumbprint, encryptorType,
                    deviceType, target, familyGuid, snapshot, mediaFamilyCount, null, null, null, null, null, null, null, null,
                    null, null, null);
        }

        /** As issue 31 first left it: no {@code backup_set_uuid}. */
        public BackupRecord(long backupSetId, String databaseName, String databaseGuid, String type, boolean copyOnly,
                            Instant startedAt, Instant finishedAt, boolean timeZoneKnown, long backupSizeBytes,
                            Long compressedSizeBytes, String compressionAlgorithm, boolean hasChecksums, String keyAlgorithm,
                            String encryptorThumbprint, String encryptorType, String deviceType, String target,
                            String familyGuid, Boolean snapshot, Integer mediaFamilyCount, String firstLsn, String lastLsn,
                            String checkpointLsn, String databaseBackupLsn, String differentialBaseLsn,
                            String differentialBaseGuid, String recoveryModel, Boolean beginsLogChain,
                            Boolean hasIncompleteMetadata, String physicalDeviceName, BackupCpu cpu) {
            this(backupSetId, databaseName, databaseGuid, type, copyOnly, startedAt, finishedAt, timeZoneKnown, backupSizeBytes,
                    compressedSizeBytes, compressionAlgorithm, hasChecksums, keyAlgorithm, encryptorThumbprint, encryptorType,
                    deviceType, target, familyGuid, snapshot, mediaFamilyCount, firstLsn, lastLsn, checkpointLsn,
                    databaseBackupLsn, differentialBaseLsn, differentialBaseGuid, recoveryModel, beginsLogChain,
                    hasIncompleteMetadata, physicalDeviceName, cpu, null);
        }

        /** This backup with the CPU a poll saw it use. */
        public BackupRecord withCpu(BackupCpu observed) {
            return new BackupRecord(backupSetId, databaseName, databaseGuid, type, copyOnly, startedAt, finishedAt,
                    timeZoneKnown, backupSizeBytes, compressedSizeBytes, compressionAlgorithm, hasChecksums, keyAlgorithm,
                    encryptorThumbprint, encryptorType, deviceType, target, familyGuid, snapshot, mediaFamilyCount, firstLsn,
                    lastLsn, checkpointLsn, databaseBackupLsn, differentialBaseLsn, differentialBaseGuid, recoveryModel,
                    beginsLogChain, hasIncompleteMetadata, physicalDeviceName, observed, backupSetUuid);
        }

        /**
         * Whether the backup itself was encrypted ({@code BACKUP ... WITH ENCRYPTION}): its key algorithm names one.
         * msdb writes {@code NO_Encryption} for an unencrypted backup, not null (backupset page). A TDE database's
         * backup without backup encryption is not counted: its pages are encrypted, the backup set is not.
         */
        @JsonIgnore
        public boolean encrypted() {
            return encryptedBy(keyAlgorithm);
        }

        /** True when a {@code key_algorithm} value names an encryption algorithm: not null, blank or {@code NO_Encryption}. */
        public static boolean encryptedBy(String keyAlgorithm) {
            return keyAlgorithm != null && !keyAlgorithm.isBlank()
                    && !keyAlgorithm.trim().toLowerCase(Locale.ROOT).equals(NO_ENCRYPTION.toLowerCase(Locale.ROOT));
        }

        /** Whether the backup's size is an estimate (a snapshot backup): not comparable for throughput or ratio. */
        @JsonIgnore
        public boolean sizeIsEstimate() {
            return Boolean.TRUE.equals(snapshot);
        }
    }

    /**
     * The CPU one backup (or restore) was seen to use, from two independent signals (issue 30). SQL Server's own
     * {@code cpu_time} leaves out time spent in preemptive mode (code outside its scheduler, such as an external
     * compression library), so it is a lower bound; the SQL Server process's CPU on the host over the backup's run,
     * less the process's rate just before it started, is the second signal. Either may be null when not observed.
     *
     * @param requestCpuMs   {@code sys.dm_exec_requests.cpu_time} of the request at the last poll that saw it (ms)
     * @param sessionCpuMs   growth of {@code sys.dm_exec_sessions.cpu_time} of its session from the first to the last poll
     *                       that saw the request (ms)
     * @param samples        how many polls saw the request
     * @param firstSampleAt  when the first poll saw it
     * @param lastSampleAt   when the last poll saw it: coverage is the part of the run between the two
     * @param processCpuMs   the SQL Server process's CPU (kernel + user, every thread) over the run, less its rate before
     *                       the run started (ms); null when the host signal was not read
     * @param processSamples how many host samples that figure is made of
     * @param processReliable false when another backup, a restore or heavy work overlapped the run, so the process's
     *                       CPU is not this backup's alone
     * @param processNote    why the process figure is unreliable or missing, or which baseline it used when no idle
     *                       rate was measured before the run, in a sentence; null otherwise
     */
    public record BackupCpu(
            Long requestCpuMs,
            Long sessionCpuMs,
            int samples,
            Instant firstSampleAt,
            Instant lastSampleAt,
            Long processCpuMs,
            Integer processSamples,
            Boolean processReliable,
            String processNote) {
    }

    /**
     * A backup running now, from {@code sys.dm_exec_requests}.
     *
     * @param estimatedRemainingSeconds  {@code estimatedCompletionTimeRaw / 1000}, assuming milliseconds as community
     *                                   tools do; Microsoft documents the column as "Internal only", so this is a hint,
     *                                   not a forecast; null when the server gave 0
     * @param estimatedCompletionTimeRaw {@code estimated_completion_time} exactly as the server gave it (units undocumented);
     *                                   null from agents before issue 14
     * @param requestCpuMs               {@code sys.dm_exec_requests.cpu_time} now (ms, preemptive time not included); null
     *                                   from agents before issue 30
     * @param sessionCpuMs               {@code sys.dm_exec_sessions.cpu_time} of its session now (ms); null before issue 30
     */
    public record RunningBackup(
            int sessionId,
            String command,
            String databaseName,
            Instant startedAt,
            double percentComplete,
            long elapsedSeconds,
            Long estimatedRemainingSeconds,
            Long estimatedCompletionTimeRaw,
            Long requestCpuMs,
            Long sessionCpuMs) {

        /** As before issue 14: without the raw estimate. */
        public RunningBackup(int sessionId, String command, String databaseName, Instant startedAt, double percentComplete,
                             long elapsedSeconds, Long estimatedRemainingSeconds) {
            this(sessionId, command, databaseName, startedAt, percentComplete, elapsedSeconds, estimatedRemainingSeconds, null);
        }

        /** As issue 14 left it: without CPU. */
        public RunningBackup(int sessionId, String command, String databaseName, Instant startedAt, double percentComplete,
                             long elapsedSeconds, Long estimatedRemainingSeconds, Long estimatedCompletionTimeRaw) {
            this(sessionId, command, databaseName, startedAt, percentComplete, elapsedSeconds, estimatedRemainingSeconds,
                    estimatedCompletionTimeRaw, null, null);
        }
    }

    /**
     * A RESTORE request the polls saw run and then end (issue 30): msdb's {@code restorehistory} records no duration, so
     * this is where a restore's speed comes from. The restored backup set is found by the collector through
     * {@code restorehistory} (same destination database, {@code restore_date} within the run).
     *
     * @param command        {@code RESTORE DATABASE} or {@code RESTORE LOG}
     * @param startedAt      the request's {@code start_time}, UTC
     * @param lastSeenAt     the last poll that saw it run; it ended between that poll and the next
     * @param elapsedSeconds {@code total_elapsed_time} at the last poll that saw it
     * @param percentComplete {@code percent_complete} at the last poll that saw it
     * @param cpu            what the polls saw it use
     */
    public record ObservedRestore(
            String databaseName,
            String command,
            Instant startedAt,
            Instant lastSeenAt,
            long elapsedSeconds,
            double percentComplete,
            BackupCpu cpu) {
    }

    /** A certificate in master, with when its private key was last backed up. */
    public record CertificateInfo(
            String name,
            String thumbprint,
            Instant expiresAt,
            Instant privateKeyLastBackupAt,
            boolean usedForBackupEncryption) {
    }

    /**
     * An asymmetric key in master ({@code master.sys.asymmetric_keys}). SQL Server records no private-key backup date
     * for asymmetric keys; keys that encrypt backups or TDE keys live in an EKM provider.
     *
     * @param thumbprint           {@code 0x}-hex, as backupset and sys.dm_database_encryption_keys name their encryptor
     * @param providerType         {@code CRYPTOGRAPHIC PROVIDER} for an Extensible Key Management key, else null
     * @param privateKeyEncryption {@code pvt_key_encryption_type_desc}: NO_PRIVATE_KEY, ENCRYPTED_BY_MASTER_KEY, ...
     */
    public record AsymmetricKeyInfo(
            String name,
            String thumbprint,
            String providerType,
            String privateKeyEncryption,
            boolean usedForBackupEncryption) {
    }

    /**
     * A SQL Server Agent job ({@code msdb.dbo.sysjobs} with its steps and schedules). Jobs that back up are marked, the
     * others are listed too so that a job competing with the backup window can be named.
     *
     * @param jobId       {@code sysjobs.job_id} (uniqueidentifier): stable across renames, unlike the name
     * @param category    {@code syscategories.name}, e.g. {@code Database Maintenance}; null when none
     * @param backupJob   a step backs up: {@code BACKUP DATABASE}/{@code BACKUP LOG}, Ola Hallengren's
     *                    {@code DatabaseBackup}, dbatools' {@code Backup-DbaDatabase}, or a maintenance-plan subplan
     *                    whose job or plan name says backup (its tasks are in its SSIS package, which is not read)
     * @param backupTypes {@code FULL}, {@code DIFF}, {@code LOG}: what its steps' commands back up; empty when not told
     * @param databases   the databases its steps name; empty when they back up all (or a set such as
     *                    {@code USER_DATABASES}) or the names could not be told
     * @param kind        {@code T-SQL}, {@code OLA_HALLENGREN}, {@code DBATOOLS}, {@code MAINTENANCE_PLAN} or {@code OTHER}
     */
    public record AgentJob(
            String jobId,
            String name,
            String category,
            boolean enabled,
            boolean backupJob,
            List<String> backupTypes,
            List<String> databases,
            String kind,
            List<JobSchedule> schedules) {
    }

    /**
     * A schedule of a job ({@code msdb.dbo.sysschedules} joined through {@code sysjobschedules}). The frequency
     * columns are passed on raw, as {@code sysschedules} documents them.
     *
     * @param freqType           1 once, 4 daily, 8 weekly, 16 monthly, 32 monthly relative, 64 when Agent starts,
     *                           128 when the computer is idle
     * @param freqInterval       the days it runs: every N days (daily), a bitmask of weekdays (weekly, 1 = Sunday), the
     *                           day of the month (monthly), ...
     * @param freqSubdayType     1 at the start time, 2 seconds, 4 minutes, 8 hours
     * @param freqSubdayInterval the number of those units between runs within a day
     * @param activeStartTime    {@code active_start_time} as {@code HH:mm:ss}, server local time
     * @param nextRunAt          {@code sysjobschedules.next_run_date}/{@code next_run_time} in UTC, converted with the
     *                           server's UTC offset when read; null when Agent has not computed it (0) or the schedule
     *                           does not recur
     */
    public record JobSchedule(
            int scheduleId,
            String name,
            boolean enabled,
            int freqType,
            int freqInterval,
            int freqSubdayType,
            int freqSubdayInterval,
            String activeStartTime,
            Instant nextRunAt) {
    }

    /**
     * One {@code msdb.dbo.sysjobhistory} row: a job's outcome (step 0) or one of its steps. {@code run_date} and
     * {@code run_time} are the server's local time and {@code run_duration} is packed as HHMMSS; the agent converts
     * them with the server's UTC offset when it read the row.
     *
     * @param instanceId {@code sysjobhistory.instance_id}, the high-water mark's column
     * @param jobName    the job's name when it was read (a renamed job keeps its {@code jobId})
     * @param stepId     0 for the job outcome, else the step
     * @param status     {@code FAILED}, {@code SUCCEEDED}, {@code RETRY}, {@code CANCELED} or {@code IN_PROGRESS}
     *                   ({@code run_status} 0, 1, 2, 3, 4)
     * @param message    the message SQL Server Agent logged, cut to {@link ReportSchema#TEXT_CHARS} characters
     * @param sqlMessageId {@code sql_message_id}, null when 0 (no error)
     * @param sqlSeverity  {@code sql_severity}, null when 0
     */
    public record JobRun(
            long instanceId,
            String jobId,
            String jobName,
            int stepId,
            String stepName,
            String status,
            Instant startedAt,
            long durationSeconds,
            String message,
            Integer sqlMessageId,
            Integer sqlSeverity) {
    }

    /**
     * A backup row of Ola Hallengren's {@code dbo.CommandLog}: the exact BACKUP command, hence the algorithm and the
     * {@code LEVEL} that msdb never records. Times are UTC, converted from the server's local time.
     *
     * @param commandType {@code BACKUP_DATABASE}, {@code BACKUP_LOG}, ...
     * @param command     the command as logged, cut to {@link ReportSchema#TEXT_CHARS} characters
     * @param endedAt     null while the command runs, or when it never finished
     * @param algorithm   {@code ALGORITHM = ...} of its {@code COMPRESSION} option: {@code MS_XPRESS}, {@code QAT_DEFLATE},
     *                    {@code ZSTD}; {@code NONE} for {@code NO_COMPRESSION}; null when the command names none
     * @param level       {@code LEVEL = LOW | MEDIUM | HIGH}; null when the command names none
     * @param errorNumber {@code ErrorNumber}: 0 when it succeeded, null while running
     */
    public record CommandLogEntry(
            long id,
            String databaseName,
            String commandType,
            String command,
            Instant startedAt,
            Instant endedAt,
            String algorithm,
            String level,
            Integer errorNumber) {
    }

    /**
     * A restore this instance performed ({@code msdb.dbo.restorehistory} joined with the {@code backupset} it restored),
     * so the fleet knows which backups were ever restored, here or elsewhere. {@code restore_date} is local time without
     * a time-zone column: it is converted with the server's UTC offset when read.
     *
     * @param restoreType        {@code restore_type}: D database, F file, G filegroup, I differential, L log, V verify only
     * @param sourceServer       {@code backupset.server_name}: the server that took the backup
     * @param sourceDatabase     {@code backupset.database_name}
     * @param sourceDatabaseGuid {@code backupset.database_guid} of the backed-up database
     * @param familyGuid         {@code backupset.family_guid}: the original database's identity
     * @param backupFinishedAt   {@code backupset.backup_finish_date} in UTC, with the backup set's {@code time_zone}
     * @param backupType         {@code backupset.type}: D, I, L, F, G, P, Q
     */
    public record RestoreRecord(
            long restoreHistoryId,
            String destinationDatabase,
            Instant restoredAt,
            String restoreType,
            String sourceServer,
            String sourceDatabase,
            String sourceDatabaseGuid,
            String familyGuid,
            Instant backupFinishedAt,
            String backupType) {
    }
}
