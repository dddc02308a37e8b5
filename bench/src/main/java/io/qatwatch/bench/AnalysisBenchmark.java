package io.qatwatch.bench;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Analysis scale: the collector's alert stage ({@link LiveFleet} then {@link AlertEvaluator}: nightly
 * windows, creep trends, spill forecasts and every rule) over a simulated fleet with {@code nights} nights
 * of history, on the calling thread (one core). Four evaluations one after the other, as the stage runs
 * them a minute apart: the cold first one (everything read and built), a day minute (every instance
 * reported one new log backup), a night minute (also {@code nightFraction} of the instances got a new
 * full or differential backup, so their windows are rebuilt) and the morning minute (business started:
 * last night's window of every instance finished, so every instance is rebuilt). The heap the stage holds
 * for the whole fleet is measured after the cold evaluation. Rows come from a {@link SimulatedStore}; what
 * reading them from SQLite costs is measured on a small real store and given per instance.
 */
public final class AnalysisBenchmark {

    /**
     * How to run it.
     *
     * @param nightFraction share of instances with a new full or differential backup in the night minute
     * @param split         the fleet split between this many collectors on PostgreSQL: the stage evaluates the hosts
     *                      of one collector's share of the slices ({@code HostSlices.of(host) % split == 0}), as a
     *                      collector holding those leases does, and the heap it holds is that share's; 1: the whole
     */
    public record Settings(int instances, int nights, int warmups, double nightFraction, int split) {

        public Settings(int instances, int nights, int warmups, double nightFraction) {
            this(instances, nights, warmups, nightFraction, 1);
        }
    }

    /**
     * One evaluation.
     *
     * @param cpu      the evaluating thread's CPU time, generating rows excluded
     * @param storeCpu CPU time the simulated store took to generate the rows read
     */
    public record Cycle(String name, int rebuilt, int newBackups, Duration wall, Duration cpu, Duration storeCpu,
                        int alerts) {
    }

    /**
     * What it measured.
     *
     * @param heapBytes       heap held by the stage (its fleet state and the last evaluation) after the cold one
     * @param maxHeapBytes    the JVM's maximum heap (-Xmx) during the run
     * @param sqliteReadNanos CPU time to read one instance's lookback of backups from a real SQLite store
     */
    public record Result(int instances, int nights, long backups, List<Cycle> cycles, long heapBytes, long maxHeapBytes,
                         long sqliteReadNanos, Map<String, Long> alertsByRule, Map<String, String> ruleErrors,
                         int split, int owned) {
    }

    /** Untimed rounds of the 20 instances' reads before {@link #sqliteReadNanos} times them: ~700,000 rows decoded. */
    static final int READ_WARMUP_ROUNDS = 20;
    static final int GOAL_INSTANCES = 10_000;
    static final int GOAL_NIGHTS = 90;
    /** A Tuesday 06:50 UTC: ten minutes before the default calendar's business start. */
    static final Instant NOW = Instant.parse("2026-12-01T06:50:00Z");

    private final Settings settings;
    /** The hosts this collector's share holds when the fleet is split; null: every host. */
    private HostSelection owned;

    public AnalysisBenchmark(Settings settings) {
        this.settings = settings;
    }

    AlertsConfig config() {
        return new AlertsConfig(null, null, null, new WindowSettings(false, false, settings.nights()), null, null, null)
                .validate();
    }

    public Result run(BenchLog log) throws Exception {
        AlertsConfig config = config();
        AlertEvaluator evaluator = config.evaluator();
        for (int i = 0; i < settings.warmups(); i++) {
            // warm-up: the JIT compiles the analysis before anything is timed
            SimulatedStore warm = new SimulatedStore(Math.min(500, settings.instances()), settings.nights(), NOW);
            minutes(warm, new LiveFleet(config.analysis(), h -> Set.of()), evaluator, line -> { }, null);
        }
        long sqliteRead = sqliteReadNanos(config);
        log.say(String.format(Locale.ROOT, "analysis: one instance's history read from SQLite in %.2f ms of CPU",
                sqliteRead / 1e6));
        long heapBefore = heapAfterGc();
        SimulatedStore store = new SimulatedStore(settings.instances(), settings.nights(), NOW);
        LiveFleet fleet = new LiveFleet(config.analysis(), h -> Set.of());
        int split = settings.split();
        owned = split <= 1 ? null : HostSelection.of(java.util.stream.IntStream.range(0, HostSlices.COUNT)
                .filter(slice -> slice % split == 0).boxed().collect(java.util.stream.Collectors.toSet()), Set.of());
        int ownedInstances = 0;
        for (int i = 0; i < settings.instances(); i++) {
            ownedInstances += owned == null || owned.test(new SimulatedAgent(i).host()) ? 1 : 0;
        }
        long[] heap = new long[1];
        Map<String, Long> alerts = new TreeMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        List<Cycle> cycles = minutes(store, fleet, evaluator, log, (cycle, evaluation) -> {
            if (cycle.name().equals("cold")) {
                heap[0] = heapAfterGc() - heapBefore;
                histogram();
                evaluation.alerts().forEach(a -> alerts.merge(a.rule(), 1L, Long::sum));
                errors.putAll(evaluation.ruleErrors());
            }
        });
        long backups = 0;
        for (int i = 0; i < settings.instances(); i++) {
            backups += store.historyRows(i);
        }
        return new Result(settings.instances(), settings.nights(), backups, cycles, heap[0],
                Runtime.getRuntime().maxMemory(), sqliteRead, alerts, errors, Math.max(1, split), ownedInstances);
    }

    /** Called after each evaluation while the stage still holds it. */
    interface AfterCycle {
        void after(Cycle cycle, AlertEvaluator.Evaluation evaluation);
    }

    private List<Cycle> minutes(SimulatedStore store, LiveFleet fleet, AlertEvaluator evaluator, BenchLog log,
                                AfterCycle after) throws Exception {
        List<Cycle> cycles = new ArrayList<>();
        Instant morning = untilMorning(store, settings, (name, now) -> cycles.add(cycle(name, store, fleet, evaluator, now,
                log, after)));
        cycles.add(cycle("morning minute", store, fleet, evaluator, morning, log, after));
        return cycles;
    }

    /** One evaluation of the stage, as of {@code now}, after the store got that minute's rows. */
    interface Minute {
        void evaluate(String name, Instant now) throws Exception;
    }

    /**
     * The minutes before the morning one: the cold evaluation, the day minute and the night minute, each given to
     * {@code minute} once the store holds its rows; then the store as of the morning minute (no new row, business started
     * at 07:00, so last night's window of every instance finished), whose time it returns.
     */
    static Instant untilMorning(SimulatedStore store, Settings settings, Minute minute) throws Exception {
        Instant now = NOW;
        minute.evaluate("cold", now);
        long id = 10_000_000;
        SimulatedAgent[] agents = new SimulatedAgent[settings.instances()];
        for (int i = 0; i < agents.length; i++) {
            agents[i] = new SimulatedAgent(i);
        }
        // day minute: one new log backup per instance
        now = now.plusSeconds(60);
        for (int i = 0; i < agents.length; i++) {
            store.append(i, agents[i].latestLogBackups(id++, now.plusSeconds(10)).get(0));
        }
        store.reportedAt(now);
        minute.evaluate("day minute", now);
        // night minute: logs again, and a share of the instances finish a nightly backup of the open night
        now = now.plusSeconds(60);
        int step = (int) Math.max(1, Math.round(1 / settings.nightFraction()));
        Instant firstNight = SimulatedAgent.firstNight(NOW, settings.nights());
        for (int i = 0; i < agents.length; i++) {
            store.append(i, agents[i].latestLogBackups(id++, now.plusSeconds(10)).get(0));
            if (i % step == 0) {
                BackupRecord tonight = agents[i].nightlyBackup(id++, SimulatedAgent.DATABASES - 1, settings.nights() - 1,
                        firstNight);
                store.append(i, tonight);
            }
        }
        store.reportedAt(now);
        minute.evaluate("night minute", now);
        // morning minute: business started at 07:00, last night's window of every instance finished
        Instant morning = Instant.parse("2026-12-01T07:00:30Z");
        store.reportedAt(morning);
        return morning;
    }

    private Cycle cycle(String name, SimulatedStore store, LiveFleet fleet, AlertEvaluator evaluator, Instant now,
                               BenchLog log, AfterCycle after) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long s0 = store.cpuNanos();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        LiveFleet.Refresh refresh = owned == null ? fleet.refresh(store, now) : fleet.refresh(store, now, owned);
        AlertEvaluator.Evaluation evaluation = evaluator.evaluate(refresh.analysis());
        long wall = System.nanoTime() - t0;
        long storeCpu = store.cpuNanos() - s0;
        long cpu = threads.getCurrentThreadCpuTime() - c0 - storeCpu;
        Cycle c = new Cycle(name, refresh.rebuilt(), refresh.newBackups(), Duration.ofNanos(wall), Duration.ofNanos(cpu),
                Duration.ofNanos(storeCpu), evaluation.alerts().size());
        log.say(String.format(Locale.ROOT, "analysis: %s: %d rebuilt, %.2f s of CPU", name, c.rebuilt(), cpu / 1e9));
        if (after != null) {
            after.after(c, evaluation);
        }
        return c;
    }

    /**
     * CPU time to read one simulated instance's lookback of backups from a real SQLite store: the median of 60 reads
     * after {@value #READ_WARMUP_ROUNDS} untimed rounds over the 20 instances. Without them the figure was the JIT's:
     * the row decoder ran at its first, profiling tier (~16 ms an instance) until its C2 compile landed (~6 ms), and
     * whether that happened inside the 20 timed reads decided the median (10-12 ms at e474c22 and f96a31f, 19-24 ms at
     * 54969d2, with the same per-row work: docs/benchmarks.md, "Session 8: alert stage").
     */
    long sqliteReadNanos(AlertsConfig config) throws Exception {
        Path dir = Files.createTempDirectory("qatwatch-analysis-");
        try (Database db = Database.open(dir)) {
            SqlReportStore sqlite = new SqlReportStore(db);
            SimulatedStore source = new SimulatedStore(20, settings.nights(), NOW);
            for (int i = 0; i < 20; i++) {
                SimulatedAgent agent = new SimulatedAgent(i);
                List<BackupRecord> history = source.backups(agent.host(), SimulatedAgent.INSTANCE, Instant.EPOCH).stream()
                        .map(io.qatwatch.collector.store.StoredBackup::backup).toList();
                sqlite.store(agent.host(), agent.report("fill-" + i, NOW, history, history.size()), NOW);
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            Instant since = NOW.minus(Duration.ofDays(config.windows().lookbackDays()));
            for (int round = 0; round < READ_WARMUP_ROUNDS; round++) {
                for (int i = 0; i < 20; i++) {
                    sqlite.backups("sql" + i, SimulatedAgent.INSTANCE, since);
                }
            }
            long[] times = new long[60];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 20; i++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    sqlite.backups("sql" + i, SimulatedAgent.INSTANCE, since);
                    times[round * 20 + i] = threads.getCurrentThreadCpuTime() - c0;
                }
            }
            java.util.Arrays.sort(times);
            return times[times.length / 2];
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * With {@code -Dqatwatch.bench.histogram=FILE}, the live heap's class histogram (as {@code jcmd GC.class_histogram})
     * written to FILE while the stage holds the cold evaluation: what the held heap is made of.
     */
    private static void histogram() {
        String file = System.getProperty("qatwatch.bench.histogram");
        if (file == null) {
            return;
        }
        try {
            Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            Files.writeString(Path.of(file), String.valueOf(text));
        } catch (Exception e) {
            throw new IllegalStateException("class histogram for " + file + " failed: " + e, e);
        }
    }

    private static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public String markdown(Result r) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d instances × %d nights (20 databases, one full or differential backup "
                        + "per database per night, plus the latest log backup of each database in full recovery: %d backups), "
                        + "the collector's alert stage (`LiveFleet` + every rule) on one thread, after a warm-up; JVM -Xmx %d MiB. "
                        + "CPU excludes generating the simulated rows; reading one instance's %d nights from SQLite takes "
                        + "%.2f ms more (measured on a 20-instance store), paid once per instance rebuilt.%n%n",
                r.instances(), r.nights(), r.backups(), r.maxHeapBytes() >> 20, r.nights(), r.sqliteReadNanos() / 1e6));
        if (r.split() > 1) {
            md.append(String.format(Locale.ROOT, "The fleet split between %d collectors: this is one collector's share, "
                    + "%d of the %d instances (the store returns the share's heads and new backup rows only, as PostgreSQL "
                    + "does by the hosts' slice column; the heap and the analysis are the share's).%n%n",
                    r.split(), r.owned(), r.instances()));
        }
        md.append("| evaluation | instances rebuilt | new backups read | s (wall) | s (CPU, one thread) "
                + "| s with SQLite reads (estimate) | alerts |\n|---|---:|---:|---:|---:|---:|---:|\n");
        for (Cycle c : r.cycles()) {
            double cpu = c.cpu().toNanos() / 1e9;
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f | %.2f | %d |%n", c.name(), c.rebuilt(),
                    c.newBackups(), c.wall().toNanos() / 1e9, cpu, cpu + c.rebuilt() * r.sqliteReadNanos() / 1e9,
                    c.alerts()));
        }
        md.append(String.format(Locale.ROOT, "%nHeap the stage holds for the hosts it evaluates after the cold evaluation: "
                + "%d MiB (%d KiB per instance held), measured.%n%n", r.heapBytes() >> 20,
                r.heapBytes() / Math.max(1, r.owned()) >> 10));
        boolean judged = r.instances() >= GOAL_INSTANCES && r.nights() >= GOAL_NIGHTS;
        for (Cycle c : r.cycles()) {
            double seconds = c.cpu().toNanos() / 1e9 + c.rebuilt() * r.sqliteReadNanos() / 1e9;
            if (judged) {
                md.append(String.format(Locale.ROOT, "- %s: %.2f s of one core with SQLite reads (goal ≤ 1 s): %s%n",
                        c.name(), seconds, IngestBenchmark.verdict(seconds <= 1.0)));
            } else {
                md.append(String.format(Locale.ROOT, "- %s: not judged (the goal is for %d instances × %d nights); "
                                + "linearly %.1f s for %d instances%n", c.name(), GOAL_INSTANCES, GOAL_NIGHTS,
                        seconds * GOAL_INSTANCES / r.instances(), GOAL_INSTANCES));
            }
        }
        md.append(String.format(Locale.ROOT, "- heap: %d MiB against 512 MiB (the collector's heap on a 2 GiB host): %s%n", r.heapBytes() >> 20,
                judged ? IngestBenchmark.verdict(r.heapBytes() < 256L << 20) + " (goal: half of it at most)" : "not judged"));
        md.append("- alerts by rule (cold): ").append(r.alertsByRule().isEmpty() ? "none" : r.alertsByRule().toString())
                .append('\n');
        r.ruleErrors().forEach((rule, error) -> md.append("- rule ").append(rule).append(" failed: ").append(error)
                .append('\n'));
        return md.toString();
    }
}
