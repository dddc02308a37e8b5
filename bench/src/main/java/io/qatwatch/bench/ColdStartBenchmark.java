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
 * whole process's (the reads, GC and JIT included). For comparison, the reads as the stage made them before (four
 * queries per instance, one instance after the other, on the evaluating thread; today's row decoding), timed alone.
 */
final class ColdStartBenchmark {

    /** Agents stored per transaction by the fill. */
    private static final int FILL_BATCH = 500;

    record Result(int instances, int nights, long backupRows, long storeBytes, Duration fill, Duration wall, Duration cpu,
                  Duration processCpu, int rebuilt, int alerts, Duration serialReadWall, Duration serialReadCpu) {
    }

    private final int instances;
    private final int nights;
    private final Path workDir;

    ColdStartBenchmark(int instances, int nights, Path workDir) {
        this.instances = instances;
        this.nights = nights;
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
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            AlertEvaluator evaluator = config.evaluator();
            System.gc();
            long p0 = os.getProcessCpuTime();
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            LiveFleet.Refresh refresh = new LiveFleet(config.analysis(), h -> Set.of()).refresh(store, AnalysisBenchmark.NOW);
            int alerts = evaluator.evaluate(refresh.analysis()).alerts().size();
            Duration wall = Duration.ofNanos(System.nanoTime() - t0);
            Duration cpu = Duration.ofNanos(threads.getCurrentThreadCpuTime() - c0);
            Duration processCpu = Duration.ofNanos(os.getProcessCpuTime() - p0);
            log.say(String.format(Locale.ROOT, "cold start: served after %.1f s wall, %.1f s CPU evaluating, %.1f s CPU "
                    + "in all", wall.toNanos() / 1e9, cpu.toNanos() / 1e9, processCpu.toNanos() / 1e9));
            refresh = null;
            System.gc();
            long s0 = threads.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            serialReads(store, config);
            Duration serialWall = Duration.ofNanos(System.nanoTime() - w0);
            Duration serialCpu = Duration.ofNanos(threads.getCurrentThreadCpuTime() - s0);
            log.say(String.format(Locale.ROOT, "cold start: the reads one instance at a time took %.1f s wall, %.1f s CPU",
                    serialWall.toNanos() / 1e9, serialCpu.toNanos() / 1e9));
            return new Result(instances, nights, rows, bytes, fill, wall, cpu, processCpu, instances, alerts, serialWall,
                    serialCpu);
        } finally {
            GrowthBenchmark.deleteTree(dir);
        }
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
        md.append("| cold start, reads included | instances rebuilt | s (wall) | s (CPU, evaluating thread) "
                + "| s (CPU, whole process) | alerts |\n|---|---:|---:|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| batched, read ahead on a second thread | %d | %.2f | %.2f | %.2f | %d |%n",
                r.rebuilt(), sec(r.wall()), sec(r.cpu()), sec(r.processCpu()), r.alerts()));
        md.append(String.format(Locale.ROOT, "| the reads alone, one instance after the other on one thread "
                + "(the access before; today's row decoding) | – | %.2f | %.2f | – | – |%n",
                sec(r.serialReadWall()), sec(r.serialReadCpu())));
        boolean judged = r.instances() >= AnalysisBenchmark.GOAL_INSTANCES && r.nights() >= AnalysisBenchmark.GOAL_NIGHTS;
        md.append(judged
                ? String.format(Locale.ROOT, "%n- cold start with SQLite reads: %.1f s wall (goal ≤ 15 s): %s%n", sec(r.wall()),
                        IngestBenchmark.verdict(sec(r.wall()) <= 15))
                : String.format(Locale.ROOT, "%n- cold start with SQLite reads: %.1f s wall; not judged (the goal is for "
                        + "%d instances × %d nights)%n", sec(r.wall()), AnalysisBenchmark.GOAL_INSTANCES,
                        AnalysisBenchmark.GOAL_NIGHTS));
        return md.toString();
    }

    private static double sec(Duration d) {
        return d.toNanos() / 1e9;
    }
}
