package io.qatwatch.collector.store;

import io.qatwatch.protocol.AgentReport;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where accepted reports go: hosts, SQL Server instances with their latest facts and change history, and
 * backup history. Blocking; the collector stores from one worker. {@link SqlReportStore} implements it on the embedded
 * SQLite file (the default) and on PostgreSQL (several collectors, docs/scaling.md).
 */
public interface ReportStore {

    /** Result of storing one report. */
    record Stored(String reportId, boolean duplicate, int newBackups) {
    }

    /**
     * Stores a validated report for {@code host} (the name of the agent's token) in one transaction;
     * a report id seen before changes nothing and returns {@code duplicate = true}.
     */
    Stored store(String host, AgentReport report, Instant receivedAt) throws Exception;

    /**
     * A report waiting to be stored, with its sections already serialised (done off the writer: see
     * {@link ReportSections}).
     */
    record Incoming(String host, AgentReport report, Instant receivedAt, ReportSections sections) {

        /** Serialises the sections here, on the calling thread. */
        public Incoming(String host, AgentReport report, Instant receivedAt) {
            this(host, report, receivedAt, ReportSections.of(report));
        }
    }

    /** The result of one report of a batch: stored (or duplicate), or the error that refused it alone. */
    record Outcome(Stored stored, Exception error) {
    }

    /**
     * Stores several reports, each as if by {@link #store}, so that a store can commit them together (one
     * disk flush for the batch). One report's failure fails only that report. The default stores one by one.
     */
    default List<Outcome> storeAll(List<Incoming> batch) {
        List<Outcome> out = new java.util.ArrayList<>(batch.size());
        for (Incoming in : batch) {
            try {
                out.add(new Outcome(store(in.host(), in.report(), in.receivedAt()), null));
            } catch (Exception e) {
                out.add(new Outcome(null, e));
            }
        }
        return out;
    }

    /** One row per host for the fleet API and the status page. */
    List<FleetRow> fleet() throws Exception;

    /**
     * The rows of {@link #fleet()} of the hosts {@code only} selects. PostgreSQL reads only those; the default filters
     * every row.
     */
    default List<FleetRow> fleet(HostSelection only) throws Exception {
        return only.all() ? fleet() : fleet().stream().filter(r -> only.test(r.host())).toList();
    }

    /** A host's name and when it last reported: what a page of the fleet is ordered and filtered by. */
    record HostSeen(String host, Instant lastSeen) {
    }

    /** Every host's name and last report, in host-name order, without facts: for counting the fleet. */
    List<HostSeen> hostsSeen() throws Exception;

    /**
     * What {@link #hostsSeen()} would answer, in three numbers: how many hosts, and the sum and the greatest of their
     * last reports (epoch milliseconds). Any report stored changes it (a host's last report only moves forward), so a
     * copy of the list kept in memory is current while its mark is the store's.
     */
    record HostsSeenMark(long hosts, long lastSeenSum, long lastSeenMax) {

        /** The mark of {@code hosts}. */
        public static HostsSeenMark of(java.util.Collection<HostSeen> hosts) {
            long sum = 0;
            long max = 0;
            for (HostSeen h : hosts) {
                long at = h.lastSeen().toEpochMilli();
                sum += at;
                max = Math.max(max, at);
            }
            return new HostsSeenMark(hosts.size(), sum, max);
        }
    }

    /** The mark of {@link #hostsSeen()} now: one aggregate read, no row brought over. */
    default HostsSeenMark hostsSeenMark() throws Exception {
        return HostsSeenMark.of(hostsSeen());
    }

    /** The hosts whose last report is later than {@code afterMillis} (epoch milliseconds), in host-name order. */
    default List<HostSeen> hostsSeenAfter(long afterMillis) throws Exception {
        return hostsSeen().stream().filter(h -> h.lastSeen().toEpochMilli() > afterMillis).toList();
    }

    /**
     * One page of {@link #fleet()}: in host-name order, up to {@code limit} hosts whose name sorts after
     * {@code after} (null: from the first host), matches {@code hostPattern} (shell-style {@code *} and
     * {@code ?}, case-insensitive; null: any) and that {@code filter} accepts. Reads only the rows it returns.
     */
    List<FleetRow> fleetPage(String after, String hostPattern, Predicate<HostSeen> filter, int limit) throws Exception;

    /** One host's row as {@link #fleet()} has it; empty when the store does not know the host. */
    java.util.Optional<FleetRow> fleetRow(String host) throws Exception;

    /**
     * The rows of {@code hosts} as {@link #fleetRow} has each, those the store does not know left out: what the alert
     * stage reads of the hosts that join its slices (thousands when it takes another collector's over). The default
     * reads them one by one.
     */
    default List<FleetRow> fleetRows(java.util.Collection<String> hosts) throws Exception {
        List<FleetRow> out = new java.util.ArrayList<>(hosts.size());
        for (String host : hosts) {
            fleetRow(host).ifPresent(out::add);
        }
        return out;
    }

    /**
     * What changes every report, per host and instance, without the sections: when it last reported, its
     * running backups, and a counter that moves whenever a section the alert rules read changed content
     * (host facts, QAT, licence; an instance's server, configuration, accelerators, databases, certificates).
     */
    List<FleetHead> fleetHeads() throws Exception;

    /** The heads of the hosts {@code only} selects. PostgreSQL reads only those; the default filters every head. */
    default List<FleetHead> fleetHeads(HostSelection only) throws Exception {
        return only.all() ? fleetHeads() : fleetHeads().stream().filter(h -> only.test(h.host())).toList();
    }

    /** One host in {@link #fleetHeads()}. */
    record FleetHead(String host, Instant lastSeen, long sectionsSeq, List<InstanceHead> instances) {
    }

    /**
     * One instance in {@link #fleetHeads()}.
     *
     * @param jobsSeq a counter that moves whenever the instance's {@link #jobActivity} changed: its jobs section, or a
     *                job run, CommandLog row or restore stored
     */
    record InstanceHead(String name, Instant lastSeen, long sectionsSeq,
                        List<io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup> runningBackups, long jobsSeq) {

        /** A head without job activity. */
        public InstanceHead(String name, Instant lastSeen, long sectionsSeq,
                            List<io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup> runningBackups) {
            this(name, lastSeen, sectionsSeq, runningBackups, 0);
        }
    }

    /**
     * The backups stored after position {@code after} (0: from the first) that started at or after
     * {@code since}, in the order they were stored, and the position of the newest stored backup: pass it
     * as {@code after} next time to read only what came since. Positions only grow. An {@code after} beyond
     * the newest (e.g. {@link Long#MAX_VALUE}) reads no backups, only the position.
     */
    BackupDelta backupsAfter(long after, Instant since) throws Exception;

    /**
     * As {@link #backupsAfter(long, Instant)}, the backups of the hosts {@code only} selects: the position is the
     * store's, so a host selected at two reads in a row has every backup stored between them read by the second.
     * PostgreSQL reads only those; the default filters every new backup.
     */
    default BackupDelta backupsAfter(long after, Instant since, HostSelection only) throws Exception {
        BackupDelta all = backupsAfter(after, since);
        return only.all() ? all : new BackupDelta(all.upTo(), all.backups().stream().filter(b -> only.test(b.host())).toList());
    }

    /** New backups, and where the next {@link #backupsAfter} should start. */
    record BackupDelta(long upTo, List<StoredBackup> backups) {
    }

    /**
     * As {@link #backupsAfter(long, Instant, HostSelection)}, the backups stored after position {@code after} up to
     * position {@code upTo} (one an earlier delta returned): a restart that restored instances from summaries written at
     * several positions reads each stretch once. Only a store that keeps summaries is asked.
     */
    default BackupDelta backupsBetween(long after, long upTo, Instant since, HostSelection only) throws Exception {
        throw new UnsupportedOperationException("this store keeps no instance summaries");
    }

    /**
     * What the alert stage keeps of one instance's backups, persisted (issue 33) so a restart need not read every row.
     *
     * @param format      the body's format number: a body of another format is not read
     * @param position    the store position ({@link #backupsAfter}) the body has taken every backup up to
     * @param sectionsSeq the instance's sections counter when it was written: the summary is for those sections only
     * @param body        what {@code analysis.InstanceSummaryCodec} wrote
     */
    record InstanceSummary(String host, String instance, int format, long position, long sectionsSeq, Instant writtenAt,
                           byte[] body) {
    }

    /** Takes summaries one at a time as a read hands them out. */
    @FunctionalInterface
    interface SummaryReader {
        void take(InstanceSummary summary);
    }

    /**
     * Hands each stored summary of the instances of the hosts {@code only} selects to {@code each}, one at a time (the
     * table is never held whole). The default (a store that keeps none) has none.
     */
    default void summaries(HostSelection only, SummaryReader each) throws Exception {
    }

    /** Stores (replaces) these summaries in one transaction. The default (a store that keeps none) drops them. */
    default void writeSummaries(List<InstanceSummary> summaries) throws Exception {
    }

    /** The backups of one instance that started at or after {@code since}, oldest first. */
    List<StoredBackup> backups(String host, String instance, Instant since) throws Exception;

    /**
     * An instance whose history {@link #histories} reads.
     *
     * @param jobs whether to read its {@link #jobActivity} too
     */
    record InstanceKey(String host, String instance, boolean jobs) {
    }

    /**
     * What rebuilding one instance reads, for one {@link InstanceKey}.
     *
     * @param backups            as {@link #backups} returns them ({@code since}), without host and instance
     * @param acceleratorChanges as {@link #acceleratorChanges} returns them ({@code acceleratorSince})
     * @param jobs               as {@link #jobActivity} returns it ({@code since}); null when not asked for
     */
    record InstanceHistory(InstanceKey key, List<io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord> backups,
                           List<AcceleratorChange> acceleratorChanges, JobActivity jobs) {
    }

    /**
     * The histories of several instances in one go, one per key in the order given, each equal to what the per-instance
     * reads return: what the alert stage's cold start reads, a few dozen instances per call. A store may read them in a
     * few queries over all the keys instead of several per instance; the default reads them one by one.
     */
    default List<InstanceHistory> histories(List<InstanceKey> keys, Instant since, Instant acceleratorSince)
            throws Exception {
        List<InstanceHistory> out = new java.util.ArrayList<>(keys.size());
        for (InstanceKey k : keys) {
            out.add(new InstanceHistory(k, backups(k.host(), k.instance(), since).stream().map(StoredBackup::backup).toList(),
                    acceleratorChanges(k.host(), k.instance(), acceleratorSince),
                    k.jobs() ? jobActivity(k.host(), k.instance(), since) : null));
        }
        return out;
    }

    /**
     * An instance's accelerator status over time, oldest first: the changes at or after {@code since}, preceded by
     * the change in force at {@code since} (when there was one), so the first element says how it stood then.
     */
    List<AcceleratorChange> acceleratorChanges(String host, String instance, Instant since) throws Exception;

    /**
     * {@link #acceleratorChanges} of several instances in one go, one list per key in the order given: what a restart
     * that restores instances from their summaries reads of them. The default reads them one by one.
     */
    default List<List<AcceleratorChange>> acceleratorChanges(List<InstanceKey> keys, Instant since) throws Exception {
        List<List<AcceleratorChange>> out = new java.util.ArrayList<>(keys.size());
        for (InstanceKey k : keys) {
            out.add(acceleratorChanges(k.host(), k.instance(), since));
        }
        return out;
    }

    /**
     * What happened to an instance's databases from {@code since} on, oldest first: appearances, disappearances, recovery
     * model and replica role changes, worked out from the databases sections stored at ingest (issue 31). The default,
     * for stores that keep no change history, knows none.
     */
    default List<DatabaseEvent> databaseEvents(String host, String instance, Instant since) throws Exception {
        return List.of();
    }

    /**
     * {@link #databaseEvents} of several instances in one go, one list per key in the order given: what a restart that
     * restores instances from their summaries reads of them. The default reads them one by one.
     */
    default List<List<DatabaseEvent>> databaseEvents(List<InstanceKey> keys, Instant since) throws Exception {
        List<List<DatabaseEvent>> out = new java.util.ArrayList<>(keys.size());
        for (InstanceKey k : keys) {
            out.add(databaseEvents(k.host(), k.instance(), since));
        }
        return out;
    }

    /**
     * The hosts that report any of the databases {@code databaseGuids} as an availability-group database (their
     * replicas), in host-name order.
     */
    java.util.SortedSet<String> hostsWithAvailabilityDatabases(java.util.Collection<String> databaseGuids) throws Exception;

    /**
     * An instance's latest jobs section and its job runs and CommandLog rows that started, and restores that happened,
     * at or after {@code since}; {@link JobActivity#NONE} when the store does not know the instance. The default, for
     * stores that keep no job activity (a simulated store), knows none.
     */
    default JobActivity jobActivity(String host, String instance, Instant since) throws Exception {
        return JobActivity.NONE;
    }

    /**
     * The RESTORE requests agents saw run and end (issue 30) that started at or after {@code since}, by host, instance and
     * start, each with the backup set it restored where the store can tell. The default (a store that keeps none) has none.
     */
    default List<RestoreObservation> observedRestores(Instant since) throws Exception {
        return List.of();
    }

    /** The observed restores of the hosts {@code only} selects. PostgreSQL reads only those; the default filters. */
    default List<RestoreObservation> observedRestores(Instant since, HostSelection only) throws Exception {
        List<RestoreObservation> all = observedRestores(since);
        return only.all() ? all : all.stream().filter(r -> only.test(r.host())).toList();
    }

    /**
     * The observed restores of one instance that a report's news may have matched to their backup set: every one last seen
     * at or after {@code since}, and those a {@code restorehistory} row that began at or after {@code since} may name. The
     * default (a store that keeps none) has none.
     */
    default List<RestoreObservation> observedRestores(String host, String instance, Instant since) throws Exception {
        return List.of();
    }

    /**
     * Deletes backups, job runs, CommandLog rows, restores and observed restores started before {@code backupsBefore},
     * and report ids received before {@code reportIdsBefore}.
     */
    int prune(Instant backupsBefore, Instant reportIdsBefore) throws Exception;
}
