package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.agDb;
import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.copyOnly;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.encrypted;
import static io.qatwatch.collector.testing.Histories.qat;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceHistory;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The alert stage's cold start reads every instance's history in batches on a thread of its own
 * ({@link ReportStore#histories}, {@link ColdReads}); its analysis must equal one built from the per-instance reads,
 * on SQLite and PostgreSQL: more instances than a batch, several instances on a host (one that never backed up),
 * availability-group replicas, accelerator changes before both periods and inside them, job activity, the columns a
 * row packs (nulls, encryption, snapshots, media families, a text holding the separator), and the hosts of each of
 * two collectors sharing it.
 */
class ColdStartTest {

    static final Instant NOW = Instant.parse("2026-11-30T06:40:00Z");
    /** Longer than the 30 days of accelerator history, so the two periods differ. */
    static final AlertsConfig CONFIG = new AlertsConfig(null, null, null, new WindowSettings(false, false, 45),
            null, null, null).validate();
    /** More instances than {@link ColdReads#BATCH}. */
    private static final int HOSTS = 34;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void batchedColdStartEqualsPerInstanceReads(Database.Kind kind, @TempDir Path dir) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            fill(store);
            Instant since = NOW.minus(Duration.ofDays(45));
            Instant accelerators = NOW.minus(Duration.ofDays(60));
            List<InstanceKey> keys = new ArrayList<>();
            for (var row : store.fleet()) {
                for (SqlInstanceSnapshot s : row.instances()) {
                    keys.add(new InstanceKey(row.host(), s.name(), !row.host().equals("sql-07")));
                }
            }
            keys.add(new InstanceKey("sql-unknown", "MSSQLSERVER", true));
            List<InstanceHistory> batched = store.histories(keys, since, accelerators);
            assertThat(batched).hasSameSizeAs(keys);
            // what a restart from summaries reads of the instances it restores, also batched
            assertThat(store.acceleratorChanges(keys, accelerators)).as("accelerator changes read for many instances at once")
                    .isEqualTo(batched.stream().map(InstanceHistory::acceleratorChanges).toList());
            int withAcceleratorChanges = 0;
            for (int k = 0; k < keys.size(); k++) {
                InstanceKey key = keys.get(k);
                InstanceHistory h = batched.get(k);
                assertThat(h.key()).isEqualTo(key);
                assertThat(h.backups()).as("backups of %s", key)
                        .isEqualTo(store.backups(key.host(), key.instance(), since).stream().map(StoredBackup::backup).toList());
                assertThat(h.acceleratorChanges()).as("accelerator changes of %s", key)
                        .isEqualTo(store.acceleratorChanges(key.host(), key.instance(), accelerators));
                for (Instant later : List.of(since, NOW.minus(Duration.ofDays(30)), NOW.minus(Duration.ofDays(5)))) {
                    assertThat(io.qatwatch.collector.store.AcceleratorChange.since(h.acceleratorChanges(), later))
                            .as("accelerator changes of %s since %s", key, later)
                            .isEqualTo(store.acceleratorChanges(key.host(), key.instance(), later));
                }
                withAcceleratorChanges += h.acceleratorChanges().size() > 1 ? 1 : 0;
                assertThat(h.jobs()).as("jobs of %s", key)
                        .isEqualTo(key.jobs() ? store.jobActivity(key.host(), key.instance(), since) : null);
            }
            assertThat(withAcceleratorChanges).as("instances whose QAT mode changed").isEqualTo(1);
            assertThat(batched.stream().filter(h -> h.backups().isEmpty()).map(h -> h.key().instance()))
                    .as("an instance without backups, and one the store does not know").containsExactly("EMPTY", "MSSQLSERVER");
            assertThat(batched.stream().flatMap(h -> h.backups().stream()))
                    .as("rows with what a row packs").anyMatch(b -> Boolean.TRUE.equals(b.snapshot()))
                    .anyMatch(b -> Boolean.FALSE.equals(b.snapshot())).anyMatch(b -> b.compressedSizeBytes() == null)
                    .anyMatch(b -> b.mediaFamilyCount() != null && b.mediaFamilyCount() == 4).anyMatch(b -> b.keyAlgorithm() != null)
                    .anyMatch(b -> b.databaseName().contains("\u001f")).anyMatch(b -> "".equals(b.target()));
            assertThat(batched.stream().filter(h -> h.jobs() != null && !h.jobs().runs().isEmpty())).hasSize(1);

            AlertEvaluator evaluator = CONFIG.evaluator();
            // the whole fleet, and each of two collectors' shares (with the AG partner host the stage would add)
            List<HostSelection> keeps = new ArrayList<>(List.of(HostSelection.ALL));
            for (int part = 0; part < 2; part++) {
                Set<Integer> slices = new java.util.HashSet<>();
                for (int slice = part; slice < HostSlices.COUNT; slice += 2) {
                    slices.add(slice);
                }
                keeps.add(HostSelection.of(slices, Set.of("sql-ag2")));
            }
            for (HostSelection keep : keeps) {
                LiveFleet.Refresh batchedCold = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(rowsOnly(store, false),
                        NOW, keep);
                LiveFleet.Refresh oneByOne = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(rowsOnly(store, true), NOW,
                        keep);
                FleetAnalysis fresh = fresh(store, keep);
                assertThat(batchedCold.rebuilt()).isEqualTo(fresh.instances().size());
                for (FleetAnalysis other : List.of(oneByOne.analysis(), fresh)) {
                    same(batchedCold.analysis(), other, evaluator);
                }
            }
            // paced (a pacer that sleeps at every call) the start is the same; the pacer is called between instances on the
            // evaluating thread and before each batch on the read-ahead's
            java.util.Map<String, Integer> calls = new java.util.concurrent.ConcurrentHashMap<>();
            LiveFleet paced = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            paced.pacedBy(() -> {
                calls.merge(Thread.currentThread().getName(), 1, Integer::sum);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            LiveFleet.Refresh pacedCold = paced.refresh(rowsOnly(store, false), NOW, HostSelection.ALL);
            FleetAnalysis all = fresh(store, HostSelection.ALL);
            same(pacedCold.analysis(), all, evaluator);
            assertThat(calls.get(Thread.currentThread().getName())).as("calls between instances")
                    .isGreaterThanOrEqualTo(all.instances().size());
            assertThat(calls.get("qatwatch-cold-reads")).as("calls before each batch read ahead")
                    .isEqualTo((all.instances().size() + ColdReads.BATCH - 1) / ColdReads.BATCH);
            // the whole fleet's start summarises every instance; a restart of each collector restores its own from them
            new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, NOW);
            for (HostSelection keep : keeps) {
                LiveFleet restart = new LiveFleet(CONFIG.analysis(), h -> Set.of());
                LiveFleet.Refresh restored = restart.refresh(store, NOW, keep);
                FleetAnalysis fresh = fresh(store, keep);
                assertThat(restart.summaryCounts().restored()).as("instances restored from summaries")
                        .isEqualTo(fresh.instances().size());
                assertThat(restored.rebuilt()).isZero();
                same(restored.analysis(), fresh, evaluator);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void aFailedReadFailsTheRefreshAndTheNextRebuildsFromTheStore(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            for (int h = 0; h < 20; h++) {
                String host = "sql-" + h;
                Instant evening = NOW.minus(Duration.ofHours(9));
                store.store(host, Jobs.report(host, NOW, snapshot("MSSQLSERVER", NOW, List.of(db("Sales", "FULL")),
                        List.of(backup("Sales", "D", evening, 1200, 4L << 30, "QAT_DEFLATE", "UNC")), List.of(), false)), NOW);
            }
            ReportStore failing = (ReportStore) Proxy.newProxyInstance(ReportStore.class.getClassLoader(),
                    new Class<?>[] {ReportStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("histories")) {
                            throw new java.sql.SQLException("disk I/O error");
                        }
                        return method.invoke(store, args);
                    });
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> live.refresh(failing, NOW))
                    .isInstanceOf(java.sql.SQLException.class).hasMessage("disk I/O error");
            LiveFleet.Refresh again = live.refresh(store, NOW);
            assertThat(again.rebuilt()).as("every instance, read one by one").isEqualTo(20);
            same(again.analysis(), fresh(store, h -> true), CONFIG.evaluator());
        }
    }

    /**
     * {@code store} with its summaries hidden (a start from it reads every row), and with {@code perInstance} its batched
     * reads too: {@link ReportStore#histories}'s default reads one by one.
     */
    private static ReportStore rowsOnly(ReportStore store, boolean perInstance) {
        return (ReportStore) Proxy.newProxyInstance(ReportStore.class.getClassLoader(), new Class<?>[] {ReportStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("summaries") || method.getName().equals("writeSummaries")
                            || perInstance && method.getName().equals("histories")) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The analysis of the kept hosts from the per-instance reads of {@link FleetStates}. */
    private static FleetAnalysis fresh(SqlReportStore store, Predicate<String> keep) throws Exception {
        List<HostState> hosts = new ArrayList<>();
        for (var seen : store.hostsSeen()) {
            if (keep.test(seen.host())) {
                hosts.addAll(FleetStates.loadHost(store, seen.host(), NOW, CONFIG.analysis(), h -> Set.of()).hosts());
            }
        }
        return new FleetAnalysis(new FleetState(hosts), CONFIG.analysis(), NOW);
    }

    private static void same(FleetAnalysis a, FleetAnalysis b, AlertEvaluator evaluator) {
        assertThat(evaluator.evaluate(a).alerts()).isEqualTo(evaluator.evaluate(b).alerts());
        assertThat(a.instances()).hasSameSizeAs(b.instances());
        for (int i = 0; i < b.instances().size(); i++) {
            InstanceAnalysis x = a.instances().get(i);
            InstanceAnalysis y = b.instances().get(i);
            assertThat(x.scope()).isEqualTo(y.scope());
            assertThat(x.windows().stream().map(NightlyWindow::withoutBackups).toList()).as("windows of %s", y.scope())
                    .isEqualTo(y.windows().stream().map(NightlyWindow::withoutBackups).toList());
            assertThat(x.creep()).as("creep of %s", y.scope()).isEqualTo(y.creep());
            assertThat(x.spills()).isEqualTo(y.spills());
            assertThat(x.instance().accelerators()).isEqualTo(y.instance().accelerators());
            assertThat(x.instance().acceleratorHistory()).as("accelerator history of %s", y.scope())
                    .isEqualTo(y.instance().acceleratorHistory());
            assertThat(x.instance().jobs()).as("jobs of %s", y.scope()).isEqualTo(y.instance().jobs());
        }
        assertThat(a.compression().rows()).isEqualTo(b.compression().rows());
        assertThat(a.databases().keySet()).containsExactlyElementsOf(b.databases().keySet());
    }

    private static void fill(SqlReportStore store) throws Exception {
        for (int night = -50; night <= 0; night++) {
            night(store, night, (host, database) -> database);
        }
    }

    /**
     * One night's reports of the fleet, at 06:00 the morning after ({@code night} 0: the morning of {@link #NOW}): 34
     * hosts of one instance, a host of three, an availability group's replicas on two hosts, job activity, restores.
     * The 34 hosts' databases are named by {@code named} from the host and "Sales" or "Billing": the same names give
     * the same {@code database_guid} on every host, which the analysis takes for one database across hosts.
     */
    static void night(SqlReportStore store, int night, java.util.function.BinaryOperator<String> named) throws Exception {
        Instant evening = NOW.plus(Duration.ofDays(night)).truncatedTo(java.time.temporal.ChronoUnit.DAYS)
                .minus(Duration.ofHours(2));
        Instant at = evening.plus(Duration.ofHours(8));
        boolean full = Math.floorMod(night, 7) == 0;
        List<ReportStore.Incoming> reports = new ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
            String host = String.format("sql-%02d", h);
            // one host in eight creeps; sql-03's QAT falls back to software 40 days ago and back 10 days ago
            long seconds = 1200 + (h % 8 == 0 ? 120L * (night + 50) : 0);
            List<AcceleratorStatus> accelerators = List.of(qat(h == 3 && night >= -40 && night < -10 ? "SOFTWARE" : "HARDWARE",
                    "HARDWARE_MODE_ENTERPRISE_SKU"));
            String sales = named.apply(host, "Sales");
            String billing = named.apply(host, "Billing");
            List<BackupRecord> backups = List.of(
                    backup(sales, full ? "D" : "I", evening.plusSeconds(60L * h), seconds, 40L << 30, "QAT_DEFLATE", "UNC"),
                    backup(billing, "D", evening.plusSeconds(3600), 300, 5L << 30, h % 2 == 0 ? "MS_XPRESS" : "QAT_DEFLATE",
                            "UNC"));
            reports.add(new ReportStore.Incoming(host, Jobs.report(host, at, snapshot("MSSQLSERVER", at,
                    List.of(db(sales, "FULL"), db(billing, "SIMPLE")), backups, accelerators, h == 5 && night == 0)), at));
        }
        // several instances on one host: one never backed up; rows with every packed column
        reports.add(new ReportStore.Incoming("sql-multi", Jobs.report("sql-multi", at,
                snapshot("MSSQLSERVER", at, List.of(db("Ops", "FULL")), List.of(
                        encrypted("Ops", evening, 900, 8L << 30, "AES_256", "0xC0FFEE"),
                        packed(evening.plusSeconds(1800), night % 2 == 0, night % 3 == 0 ? null : 4)), List.of(), false),
                snapshot("EMPTY", at, List.of(db("Idle", "SIMPLE")), List.of(), List.of(), false),
                snapshot("SECOND", at, List.of(db("Ops2", "FULL")), List.of(
                        backup("Ops2", full ? "D" : "I", evening.plusSeconds(600), 700, 9L << 30, "MS_XPRESS", "URL")),
                        List.of(), false)), at));
        // an availability group's replicas on two hosts
        reports.add(new ReportStore.Incoming("sql-ag1", Jobs.report("sql-ag1", at, snapshot("MSSQLSERVER", at,
                List.of(agDb("AgSales", "ag", "PRIMARY")), List.of(backup("AgSales", full ? "D" : "I",
                        evening.plusSeconds(1200), 2400, 80L << 30, "MS_XPRESS", "UNC")), List.of(), false)), at));
        reports.add(new ReportStore.Incoming("sql-ag2", Jobs.report("sql-ag2", at, snapshot("MSSQLSERVER", at,
                List.of(agDb("AgSales", "ag", "SECONDARY")), Math.floorMod(night, 7) == 3
                        ? List.of(copyOnly("AgSales", "D", evening.plusSeconds(5400), 3000, 80L << 30)) : List.of(),
                List.of(), false)), at));
        for (ReportStore.Outcome o : store.storeAll(reports)) {
            assertThat(o.error()).isNull();
        }
    }

    private static SqlInstanceSnapshot snapshot(String name, Instant at, List<DatabaseInfo> dbs, List<BackupRecord> backups,
                                                List<AcceleratorStatus> accelerators, boolean jobs) {
        SqlInstanceSnapshot s = Jobs.instance(name, at, dbs, backups, jobs ? List.of(Jobs.otherJob("IDX", "IndexOptimize"))
                : null, jobs ? List.of(Jobs.outcome(7, "IDX", "IndexOptimize", "FAILED", at.minusSeconds(3600), 60, "no"))
                : null, null, jobs ? List.of(Jobs.restore(3, "Sales_copy", at.minusSeconds(600), "sql-05", "Sales",
                io.qatwatch.collector.testing.Histories.guid("Sales"), null)) : null);
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(), accelerators, s.databases(),
                s.backups(), s.runningBackups(), s.certificates(), s.backupHighWaterMark(), s.asymmetricKeys(),
                s.runningBackupsHiddenFor(), s.jobsStatus(), s.jobs(), s.jobRuns(), s.jobHistoryHighWaterMark(),
                s.commandLog(), s.commandLogHighWaterMark(), s.restores(), s.restoreHighWaterMark());
    }

    /** A snapshot backup (or not) with no compressed size, a family guid and (or not) a media family count. */
    private static BackupRecord packed(Instant start, boolean snapshot, Integer families) {
        // a name holding the separator SQLite's reads join the texts with, every other night, and an empty target
        return new BackupRecord(start.getEpochSecond(), snapshot ? "Ops\u001fOdd\u001e" : "Ops",
                io.qatwatch.collector.testing.Histories.guid("Ops"), "L", false, start, start.plusSeconds(40), false, 1L << 20,
                null, null, false, null, null, null, "VIRTUAL_DEVICE", snapshot ? "" : null, "fam-" + start.getEpochSecond(),
                snapshot, families);
    }
}
