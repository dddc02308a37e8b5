package io.qatwatch.bench;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A read-only {@link ReportStore} over a simulated fleet of {@link SimulatedAgent}s that generates each
 * instance's rows when asked instead of holding them, so the analysis stage can be measured on 10,000
 * instances × 90 nights without a multi-gigabyte SQLite file. New backups are appended by the bench
 * between evaluations. The CPU it spends generating rows is counted apart ({@link #cpuNanos()}): it stands
 * in for SQLite's reads, which the bench measures on a real store separately.
 */
final class SimulatedStore implements ReportStore {

    private final int instances;
    private final int nights;
    private final Instant firstNight;
    private final Instant reportedAt;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<StoredBackup> appended = new ArrayList<>();
    private final Map<String, List<BackupRecord>> appendedByHost = new HashMap<>();
    private Instant lastSeen;
    /** The thread the bench evaluates on: the stage's cold start reads ahead on another, whose CPU is not counted. */
    private final Thread evaluating = Thread.currentThread();
    private long cpuNanos;

    SimulatedStore(int instances, int nights, Instant now) {
        this.instances = instances;
        this.nights = nights;
        this.firstNight = SimulatedAgent.firstNight(now, nights);
        this.reportedAt = now;
        this.lastSeen = now;
    }

    /** Every simulated instance has reported at {@code at} (it keeps agents from looking silent). */
    void reportedAt(Instant at) {
        lastSeen = at;
    }

    /** Appends a backup, as a report storing it would. */
    void append(int index, BackupRecord b) {
        SimulatedAgent agent = new SimulatedAgent(index);
        appended.add(new StoredBackup(agent.host(), SimulatedAgent.INSTANCE, b));
        appendedByHost.computeIfAbsent(agent.host(), h -> new ArrayList<>()).add(b);
    }

    /** Backups in the generated history of one instance. */
    long historyRows(int index) {
        return history(new SimulatedAgent(index)).size();
    }

    /** CPU time spent generating rows on the thread that made the store (the evaluating one). */
    long cpuNanos() {
        return cpuNanos;
    }

    private long base() {
        return (long) instances * (nights * SimulatedAgent.DATABASES + SimulatedAgent.DATABASES);
    }

    private List<BackupRecord> history(SimulatedAgent agent) {
        List<BackupRecord> h = new ArrayList<>(agent.nightlyHistory(nights, firstNight, reportedAt));
        h.addAll(agent.latestLogBackups(h.size() + 1, reportedAt));
        return h;
    }

    private FleetRow row(int index) {
        SimulatedAgent agent = new SimulatedAgent(index);
        AgentReport r = agent.report("analysis-" + index, reportedAt, List.of(), 0);
        SqlInstanceSnapshot s = r.instances().get(0);
        SqlInstanceSnapshot latest = new SqlInstanceSnapshot(s.name(), lastSeen, s.server(), s.configuration(),
                s.accelerators(), s.databases(), null, s.runningBackups(), s.certificates(), s.backupHighWaterMark());
        return new FleetRow(agent.host(), reportedAt, lastSeen, r.agent(), r.host(), r.qat(), r.licence(), r.probes(),
                List.of(latest));
    }

    private void counted(long cpuBefore) {
        if (Thread.currentThread() == evaluating) {
            cpuNanos += threads.getCurrentThreadCpuTime() - cpuBefore;
        }
    }

    @Override
    public List<FleetRow> fleet() {
        return fleet(HostSelection.ALL);
    }

    /** Only the selected hosts' rows, as PostgreSQL reads them by the hosts' slice column; the selecting is the store's CPU. */
    @Override
    public List<FleetRow> fleet(HostSelection only) {
        long c0 = threads.getCurrentThreadCpuTime();
        List<FleetRow> rows = only.all() ? new ArrayList<>(instances) : new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            if (only.all() || only.test("sql" + i)) {
                rows.add(row(i));
            }
        }
        counted(c0);
        return rows;
    }

    /** Only the selected hosts' heads, as PostgreSQL reads them. */
    @Override
    public List<FleetHead> fleetHeads(HostSelection only) {
        long c0 = threads.getCurrentThreadCpuTime();
        List<FleetHead> heads = only.all() ? new ArrayList<>(instances) : new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            String host = "sql" + i;
            if (only.all() || only.test(host)) {
                heads.add(head(host));
            }
        }
        counted(c0);
        return heads;
    }

    /** Only the selected hosts' new backups, as PostgreSQL reads them. */
    @Override
    public BackupDelta backupsAfter(long after, Instant since, HostSelection only) {
        long c0 = threads.getCurrentThreadCpuTime();
        BackupDelta all = backupsAfter(after, since);
        BackupDelta out = only.all() ? all
                : new BackupDelta(all.upTo(), all.backups().stream().filter(b -> only.test(b.host())).toList());
        counted(c0);
        return out;
    }

    @Override
    public Optional<FleetRow> fleetRow(String host) {
        return Optional.of(row(Integer.parseInt(host.substring(3))));
    }

    @Override
    public List<FleetHead> fleetHeads() {
        return fleetHeads(HostSelection.ALL);
    }

    private FleetHead head(String host) {
        return new FleetHead(host, lastSeen, 0, List.of(new InstanceHead(SimulatedAgent.INSTANCE, lastSeen, 0, List.of())));
    }

    @Override
    public BackupDelta backupsAfter(long after, Instant since) {
        long upTo = base() + appended.size();
        List<StoredBackup> out = new ArrayList<>();
        for (long seq = Math.max(after, base()) + 1; after < upTo && seq <= upTo; seq++) {
            StoredBackup b = appended.get((int) (seq - base() - 1));
            if (!b.backup().startedAt().isBefore(since)) {
                out.add(b);
            }
        }
        return new BackupDelta(upTo, out);
    }

    /** The simulated agents never change their accelerator: no history beyond what each report says. */
    @Override
    public List<io.qatwatch.collector.store.AcceleratorChange> acceleratorChanges(String host, String instance, Instant since) {
        return List.of();
    }

    @Override
    public List<StoredBackup> backups(String host, String instance, Instant since) {
        long c0 = threads.getCurrentThreadCpuTime();
        SimulatedAgent agent = new SimulatedAgent(Integer.parseInt(host.substring(3)));
        List<BackupRecord> all = history(agent);
        all.addAll(appendedByHost.getOrDefault(host, List.of()));
        List<StoredBackup> out = new ArrayList<>(all.size());
        all.stream().filter(b -> !b.startedAt().isBefore(since))
                .sorted(java.util.Comparator.comparing(BackupRecord::startedAt).thenComparingLong(BackupRecord::backupSetId))
                .forEach(b -> out.add(new StoredBackup(host, instance, b)));
        counted(c0);
        return out;
    }

    @Override
    public Stored store(String host, AgentReport report, Instant receivedAt) {
        throw new UnsupportedOperationException("the simulated store is filled by the bench, not by reports");
    }

    @Override
    public List<HostSeen> hostsSeen() {
        throw new UnsupportedOperationException("the analysis bench reads the fleet as the alert stage does, not by pages");
    }

    @Override
    public List<FleetRow> fleetPage(String after, String hostPattern, Predicate<HostSeen> filter, int limit) {
        throw new UnsupportedOperationException("the analysis bench reads the fleet as the alert stage does, not by pages");
    }

    @Override
    public java.util.SortedSet<String> hostsWithAvailabilityDatabases(java.util.Collection<String> databaseGuids) {
        return new java.util.TreeSet<>();
    }

    @Override
    public int prune(Instant backupsBefore, Instant reportIdsBefore) {
        throw new UnsupportedOperationException("the simulated store keeps its generated history");
    }
}
