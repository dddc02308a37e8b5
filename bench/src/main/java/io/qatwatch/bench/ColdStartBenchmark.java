package io.qatwatch.bench;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The alert stage's cold start on a real SQLite store: the analysis bench's fleet ({@code instances} × {@code nights},
 * the same simulated history) stored through the collector's own store code, then the first {@code LiveFleet.refresh}
 * and evaluation on it, as a collector starting on that store runs them: the history read in batches on a second
 * thread while the evaluating thread builds the instances. Measured: wall time, the evaluating thread's CPU and the
 * whole process's (the reads, GC and JIT included). That first start also writes every instance's summary (issue 33);
 * then a second stage starts on the same store, as a restarted collector does, restoring its instances from those
 * summaries instead of their rows, measured the same way, with the summaries' bytes per instance, and checked to give
 * the same alerts. For comparison, the reads as the stage made them before (four queries per instance, one instance
 * after the other, on the evaluating thread; today's row decoding), timed alone.
 */
final class ColdStartBenchmark {

    /** Agents stored per transaction by the fill. */
    private static final int FILL_BATCH = 500;

    /** @param fromSummaries the restart of median wall time; {@code restartWalls} every restart's, in order */
    record Result(int instances, int nights, long backupRows, long storeBytes, Duration fill, Start fromRows,
                  Start fromSummaries, List<Duration> restartWalls, int summariesWritten, long summaryBytes,
                  Duration serialReadWall, Duration serialReadCpu) {
    }

    /**
     * One start of the stage: its first refresh and evaluation.
     *
     * @param restored      instances restored from their summary
     * @param backupsAfter  backup rows read because they were stored after the summaries
     * @param summaryBytes  bytes of the summaries read
     */
    record Start(Duration wall, Duration cpu, Duration processCpu, int rebuilt, int restored, long backupsAfter,
                 long summaryBytes, int alerts) {
    }

    private final int instances;
    private final int nights;
    private final int restarts;
    private final Path workDir;

    ColdStartBenchmark(int instances, int nights, int restarts, Path workDir) {
        this.instances = instances;
        this.nights = nights;
        this.restarts = restarts;
        this.workDir = workDir;
    }

    Result run(AlertsConfig config, BenchLog log) throws Exception {
        Path dir = workDir.resolve("cold-" + instances + "x" + nights);
        GrowthBenchmark.deleteTree(dir);
        long started = System.nanoTime();
        long rows = fill(dir, log);
        Duration fill = Duration.ofNanos(System.nanoTime() - started);
        long bytes = GrowthBenchmark.directorySize(dir);
        log.say(String.format(Locale.ROOT, "cold start: %d instances × %d nights, %d backup rows, %d MiB stored in %d s",
                instances, nights, rows, bytes >> 20, fill.toSeconds()));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            AlertEvaluator evaluator = config.evaluator();
            LiveFleet first = new LiveFleet(config.analysis(), h -> Set.of());
            List<io.qatwatch.collector.alert.Alert> firstAlerts = new ArrayList<>();
            Start fromRows = start(first, store, evaluator, firstAlerts);
            log.say(String.format(Locale.ROOT, "cold start from rows (summaries written): served after %.1f s wall, %.1f s "
                    + "CPU evaluating, %.1f s CPU in all; %d summaries, %.1f KiB each", sec(fromRows.wall()),
                    sec(fromRows.cpu()), sec(fromRows.processCpu()), first.summaryCounts().written(),
                    first.summaryCounts().bytesWritten() / 1024.0 / Math.max(1, first.summaryCounts().written())));
            int written = first.summaryCounts().written();
            long summaryBytes = first.summaryCounts().bytesWritten();
            first = null;
            List<Start> restarted = new ArrayList<>();
            for (int round = 0; round < restarts; round++) {
                List<io.qatwatch.collector.alert.Alert> restartAlerts = new ArrayList<>();
                Start again = start(new LiveFleet(config.analysis(), h -> Set.of()), store, evaluator, restartAlerts);
                log.say(String.format(Locale.ROOT, "restart from summaries: served after %.1f s wall, %.1f s CPU evaluating, "
                        + "%.1f s CPU in all; %d restored, %d rebuilt, %d rows read after them, %.1f MiB of summaries read",
                        sec(again.wall()), sec(again.cpu()), sec(again.processCpu()), again.restored(), again.rebuilt(),
                        again.backupsAfter(), again.summaryBytes() / 1048576.0));
                if (!restartAlerts.equals(firstAlerts)) {
                    throw new IllegalStateException("the restart from summaries raised " + restartAlerts.size()
                            + " alerts, the start from rows " + firstAlerts.size() + ": not the same");
                }
                restarted.add(again);
            }
            List<Duration> restartWalls = restarted.stream().map(Start::wall).toList();
            Start fromSummaries = restarted.stream().sorted(java.util.Comparator.comparing(Start::wall)).toList()
                    .get(restarted.size() / 2);
            System.gc();
            long s0 = threads.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            serialReads(store, config);
            Duration serialWall = Duration.ofNanos(System.nanoTime() - w0);
            Duration serialCpu = Duration.ofNanos(threads.getCurrentThreadCpuTime() - s0);
            log.say(String.format(Locale.ROOT, "cold start: the reads one instance at a time took %.1f s wall, %.1f s CPU",
                    serialWall.toNanos() / 1e9, serialCpu.toNanos() / 1e9));
            return new Result(instances, nights, rows, bytes, fill, fromRows, fromSummaries, restartWalls, written,
                    summaryBytes, serialWall, serialCpu);
        } finally {
            GrowthBenchmark.deleteTree(dir);
        }
    }

    /** The stage's first refresh and evaluation with {@code fleet}, timed; its alerts go to {@code alerts}. */
    private static Start start(LiveFleet fleet, ReportStore store, AlertEvaluator evaluator,
                               List<io.qatwatch.collector.alert.Alert> alerts) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc();
        long p0 = os.getProcessCpuTime();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        LiveFleet.Refresh refresh = fleet.refresh(store, AnalysisBenchmark.NOW);
        alerts.addAll(evaluator.evaluate(refresh.analysis()).alerts());
        Duration wall = Duration.ofNanos(System.nanoTime() - t0);
        Duration cpu = Duration.ofNanos(threads.getCurrentThreadCpuTime() - c0);
        Duration processCpu = Duration.ofNanos(os.getProcessCpuTime() - p0);
        LiveFleet.SummaryCounts counts = fleet.summaryCounts();
        return new Start(wall, cpu, processCpu, refresh.rebuilt(), counts.restored(), counts.backupsAfter(), counts.bytesRead(),
                alerts.size());
    }

    /** What the first refresh read before this round: per instance its backups, accelerator changes twice, its jobs. */
    private void serialReads(ReportStore store, AlertsConfig config) throws Exception {
        Instant now = AnalysisBenchmark.NOW;
        Instant since = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        Instant history = now.minus(FleetStates.ACCELERATOR_HISTORY);
        for (FleetRow row : store.fleet()) {
            for (var s : row.instances()) {
                store.backups(row.host(), s.name(), since);
                store.acceleratorChanges(row.host(), s.name(), history);
                if (!since.equals(history)) {
                    store.acceleratorChanges(row.host(), s.name(), since);
                }
                store.jobActivity(row.host(), s.name(), since);
            }
        }
    }

    /** The analysis bench's simulated history, one report per agent, {@value #FILL_BATCH} agents per transaction. */
    private long fill(Path dir, BenchLog log) throws Exception {
        Instant now = AnalysisBenchmark.NOW;
        SimulatedStore source = new SimulatedStore(instances, nights, now);
        long rows = 0;
        try (Database db = Database.open(dir)) {
            BenchFill.fast(db);
            SqlReportStore store = new SqlReportStore(db);
            List<ReportStore.Incoming> batch = new ArrayList<>(FILL_BATCH);
            for (int i = 0; i < instances; i++) {
                SimulatedAgent agent = new SimulatedAgent(i);
                List<BackupRecord> history = source.backups(agent.host(), SimulatedAgent.INSTANCE, Instant.EPOCH).stream()
                        .map(io.qatwatch.collector.store.StoredBackup::backup).toList();
                batch.add(new ReportStore.Incoming(agent.host(), agent.report("cold-" + i, now, history, history.size()), now));
                if (batch.size() == FILL_BATCH || i == instances - 1) {
                    rows += BenchFill.store(store, batch);
                    batch.clear();
                }
                if ((i + 1) % 2_000 == 0) {
                    log.say("cold start: stored " + (i + 1) + " of " + instances + " instances");
                }
            }
            BenchFill.checkpoint(db);
        }
        return rows;
    }

    String markdown(Result r) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "The cold start on a real SQLite store: the same %d instances × %d nights "
                        + "(%d backup rows, %d MiB, stored in %d s through the collector's store code), then the first "
                        + "refresh and evaluation on it, the history read in batches on a second thread (the store's pages "
                        + "in the OS cache, as after a restart of the collector alone).%n%n",
                r.instances(), r.nights(), r.backupRows(), r.storeBytes() >> 20, r.fill().toSeconds()));
        md.append("| start, reads included | instances rebuilt from rows | restored from summaries | s (wall) "
                + "| s (CPU, evaluating thread) | s (CPU, whole process) | alerts |\n|---|---:|---:|---:|---:|---:|---:|\n");
        Start a = r.fromRows();
        Start b = r.fromSummaries();
        md.append(String.format(Locale.ROOT, "| first start: every row read in batches on a second thread, then every "
                        + "instance summarised | %d | %d | %.2f | %.2f | %.2f | %d |%n",
                a.rebuilt(), a.restored(), sec(a.wall()), sec(a.cpu()), sec(a.processCpu()), a.alerts()));
        md.append(String.format(Locale.ROOT, "| restart: from the summaries (%d backup rows stored after them read) | %d | %d "
                        + "| %.2f | %.2f | %.2f | %d |%n",
                b.backupsAfter(), b.rebuilt(), b.restored(), sec(b.wall()), sec(b.cpu()), sec(b.processCpu()), b.alerts()));
        if (r.restartWalls().size() > 1) {
            md.append(String.format(Locale.ROOT, "| (the restart above is the median of %d; each s wall, in order: %s) "
                    + "| | | | | | |%n", r.restartWalls().size(), r.restartWalls().stream()
                    .map(w -> String.format(Locale.ROOT, "%.2f", sec(w))).collect(java.util.stream.Collectors.joining(", "))));
        }
        md.append(String.format(Locale.ROOT, "| the reads alone, one instance after the other on one thread "
                + "(the access before; today's row decoding) | – | – | %.2f | %.2f | – | – |%n",
                sec(r.serialReadWall()), sec(r.serialReadCpu())));
        md.append(String.format(Locale.ROOT, "%nSummaries: %d written by the first start, %.1f KiB per instance (%.1f MiB in "
                        + "all), against %.1f KiB per instance of the store they summarise (its backup rows, most of it).%n",
                r.summariesWritten(),
                r.summaryBytes() / 1024.0 / Math.max(1, r.summariesWritten()), r.summaryBytes() / 1048576.0,
                r.storeBytes() / 1024.0 / Math.max(1, r.instances())));
        boolean judged = r.instances() >= AnalysisBenchmark.GOAL_INSTANCES && r.nights() >= AnalysisBenchmark.GOAL_NIGHTS;
        md.append(judged
                ? String.format(Locale.ROOT, "%n- start of the alert stage with SQLite reads: %.1f s wall from the summaries, "
                        + "%.1f s the first time, from the rows (goal ≤ 15 s): %s%n", sec(b.wall()), sec(a.wall()),
                        IngestBenchmark.verdict(sec(b.wall()) <= 15))
                : String.format(Locale.ROOT, "%n- start of the alert stage with SQLite reads: %.1f s wall from the summaries, "
                        + "%.1f s the first time, from the rows; not judged (the goal is for %d instances × %d nights)%n",
                        sec(b.wall()), sec(a.wall()), AnalysisBenchmark.GOAL_INSTANCES, AnalysisBenchmark.GOAL_NIGHTS));
        return md.toString();
    }

    private static double sec(Duration d) {
        return d.toNanos() / 1e9;
    }
}
