package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What the store knows about the fleet at one moment: the input of every rule. The store fills it with the
 * latest value of each section per host and instance, plus backup history for the lookback period.
 *
 * @param failovers availability groups whose primary replica moved, as the alert stage saw it between reports (it keeps
 *                  them a day, and on its first refresh takes those of the last day from the store's replica role
 *                  changes); empty when the fleet was loaded afresh
 */
public record FleetState(List<HostState> hosts, List<AgFailover> failovers) {

    public FleetState {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        failovers = failovers == null ? List.of() : List.copyOf(failovers);
    }

    /** The fleet, no failover seen. */
    public FleetState(List<HostState> hosts) {
        this(hosts, null);
    }

    /**
     * One agent's host.
     *
     * @param host     the host name the collector knows the agent by (the token's host)
     * @param tags     tags from the agent's registration, matched by host groups
     * @param lastSeen when the collector last accepted a report from this agent
     * @param facts    latest host facts, null if never probed
     * @param qat      latest QAT facts, null if never probed
     * @param licence  latest licence facts, null if never probed
     */
    public record HostState(
            String host,
            Set<String> tags,
            Instant lastSeen,
            HostFacts facts,
            QatFacts qat,
            LicenceFacts licence,
            List<InstanceState> instances) {

        public HostState {
            tags = tags == null ? Set.of() : Set.copyOf(tags);
            instances = instances == null ? List.of() : List.copyOf(instances);
        }
    }

    /**
     * One SQL Server instance on a host: the latest value of each snapshot section, and its backups.
     *
     * @param collectedAt     when the latest snapshot was taken (the time {@code runningBackups} describes)
     * @param asymmetricKeys  asymmetric keys in master (backup and TDE encryptors besides certificates)
     * @param backups         every backup in the lookback period (all types, copy-only included), any order
     * @param runningBackups  backups running at {@code collectedAt}; empty when none
     * @param acceleratorHistory the accelerator status over the history period, oldest first, the first element
     *                        how it stood at the period's start; empty when the store has none
     * @param compression     what the compression comparison reads of the backups, when already known (the store
     *                        and the alert stage know each QAT_DEFLATE backup's mode); null: worked out from
     *                        {@code backups}, in the accelerator's current mode
     * @param jobs            its SQL Server Agent jobs, job runs, CommandLog rows and restores of the lookback period
     *                        ({@link JobActivity#NONE} when its agent sent none)
     */
    public record InstanceState(
            String name,
            Instant collectedAt,
            ServerInfo server,
            List<ConfigOption> configuration,
            List<AcceleratorStatus> accelerators,
            List<DatabaseInfo> databases,
            List<CertificateInfo> certificates,
            List<AsymmetricKeyInfo> asymmetricKeys,
            List<RunningBackup> runningBackups,
            List<BackupRecord> backups,
            List<AcceleratorChange> acceleratorHistory,
            CompressionSamples compression,
            JobActivity jobs) {

        /** An instance without job activity. */
        public InstanceState(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases, List<CertificateInfo> certificates,
                List<AsymmetricKeyInfo> asymmetricKeys, List<RunningBackup> runningBackups, List<BackupRecord> backups,
                List<AcceleratorChange> acceleratorHistory, CompressionSamples compression) {
            this(name, collectedAt, server, configuration, accelerators, databases, certificates, asymmetricKeys,
                    runningBackups, backups, acceleratorHistory, compression, null);
        }

        /** An instance whose compression samples are worked out from {@code backups}. */
        public InstanceState(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                             List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases,
                             List<CertificateInfo> certificates, List<AsymmetricKeyInfo> asymmetricKeys,
                             List<RunningBackup> runningBackups, List<BackupRecord> backups) {
            this(name, collectedAt, server, configuration, accelerators, databases, certificates, asymmetricKeys,
                    runningBackups, backups, List.of(), null);
        }

        public InstanceState {
            configuration = configuration == null ? List.of() : List.copyOf(configuration);
            accelerators = accelerators == null ? List.of() : List.copyOf(accelerators);
            databases = databases == null ? List.of() : List.copyOf(databases);
            certificates = certificates == null ? List.of() : List.copyOf(certificates);
            asymmetricKeys = asymmetricKeys == null ? List.of() : List.copyOf(asymmetricKeys);
            runningBackups = runningBackups == null ? List.of() : List.copyOf(runningBackups);
            // a packed digest is immutable already, and copying it would make a record of each backup
            backups = backups == null ? List.of() : backups instanceof PackedDigest ? backups : List.copyOf(backups);
            acceleratorHistory = acceleratorHistory == null ? List.of() : List.copyOf(acceleratorHistory);
            jobs = jobs == null ? JobActivity.NONE : jobs;
        }

        /** An instance with its accelerator history, whose compression samples are worked out from {@code backups}. */
        public InstanceState(String name, Instant collectedAt, ServerInfo server, List<ConfigOption> configuration,
                List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases, List<CertificateInfo> certificates,
                List<AsymmetricKeyInfo> asymmetricKeys, List<RunningBackup> runningBackups, List<BackupRecord> backups,
                List<AcceleratorChange> acceleratorHistory) {
            this(name, collectedAt, server, configuration, accelerators, databases, certificates, asymmetricKeys,
                    runningBackups, backups, acceleratorHistory, null);
        }
    }
}
