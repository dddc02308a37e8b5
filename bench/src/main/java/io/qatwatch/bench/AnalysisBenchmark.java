package io.qatwatch.bench;

import io.qatwatch.collector.alert.AlertEvaluator;
import io.qatwatch.collector.alert.AlertsConfig;
import io.qatwatch.collector.alert.FleetState;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * Analysis scale: nightly windows, creep trends and every alert rule ({@link AlertEvaluator}, the collector's
 * own evaluate stage) over a simulated fleet of instances with {@code nights} nights of history, on the
 * calling thread (one core). The fleet is built and evaluated in chunks of hosts so the heap stays small;
 * building is not timed, evaluating is.
 */
public final class AnalysisBenchmark {

    /** How to run it; {@code chunk} hosts are built and evaluated at a time, after {@code warmups} untimed rounds. */
    public record Settings(int instances, int nights, int chunk, int warmups) {
    }

    /**
     * What it measured.
     *
     * @param wall            evaluation time summed over the chunks
     * @param cpu             the evaluating thread's CPU time over the same
     * @param heapPerInstance heap one instance's state takes (measured on the first chunk)
     */
    public record Result(int instances, int nights, long backups, Duration wall, Duration cpu,
            Map<String, Long> alertsByRule, long heapPerInstance, Map<String, String> ruleErrors) {

        long alerts() {
            return alertsByRule.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    static final int GOAL_INSTANCES = 10_000;
    static final int GOAL_NIGHTS = 90;

    private final Settings settings;

    public AnalysisBenchmark(Settings settings) {
        this.settings = settings;
    }

    public Result run(BenchLog log) {
        Instant now = Instant.now();
        AlertsConfig config = new AlertsConfig(null, null, null,
                new WindowSettings(false, false, settings.nights()), null, null, null);
        AlertEvaluator evaluator = new AlertEvaluator(config);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // warm-up: the JIT compiles the analysis before anything is timed
        FleetState warm = fleet(0, Math.min(settings.chunk(), settings.instances()), now);
        for (int i = 0; i < settings.warmups(); i++) {
            evaluator.evaluate(warm, now);
        }
        warm = null;
        long heapPerInstance = -1;
        long wall = 0;
        long cpu = 0;
        Map<String, Long> alerts = new TreeMap<>();
        long backups = 0;
        Map<String, String> errors = new LinkedHashMap<>();
        for (int from = 0; from < settings.instances(); from += settings.chunk()) {
            int n = Math.min(settings.chunk(), settings.instances() - from);
            long heapBefore = heapAfterGc();
            FleetState fleet = fleet(from, n, now);
            if (heapPerInstance < 0) {
                heapPerInstance = (heapAfterGc() - heapBefore) / n;
            }
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            AlertEvaluator.Evaluation evaluation = evaluator.evaluate(fleet, now);
            wall += System.nanoTime() - t0;
            cpu += threads.getCurrentThreadCpuTime() - c0;
            evaluation.alerts().forEach(a -> alerts.merge(a.rule(), 1L, Long::sum));
            errors.putAll(evaluation.ruleErrors());
            for (FleetState.HostState h : fleet.hosts()) {
                backups += h.instances().get(0).backups().size();
            }
            log.say(String.format(Locale.ROOT, "analysis: %d of %d instances evaluated, %.2f s so far",
                    from + n, settings.instances(), wall / 1e9));
        }
        return new Result(settings.instances(), settings.nights(), backups, Duration.ofNanos(wall), Duration.ofNanos(cpu),
                alerts, heapPerInstance, errors);
    }

    /**
     * Hosts {@code from .. from+n-1}, each one instance with 20 databases, a full or differential backup per
     * database per night, and the latest log backup of each database in full recovery (only the latest:
     * hourly logs would multiply the rows by 15 for rules that look at the newest one).
     */
    FleetState fleet(int from, int n, Instant now) {
        Instant firstNight = SimulatedAgent.firstNight(now, settings.nights());
        List<FleetState.HostState> hosts = new ArrayList<>(n);
        for (int i = from; i < from + n; i++) {
            SimulatedAgent agent = new SimulatedAgent(i);
            List<BackupRecord> history = new ArrayList<>(agent.nightlyHistory(settings.nights(), firstNight));
            history.addAll(agent.latestLogBackups(history.size() + 1, now));
            AgentReport r = agent.report("analysis-" + i, now, List.of(), history.size());
            SqlInstanceSnapshot s = r.instances().get(0);
            hosts.add(new FleetState.HostState(agent.host(), Set.of(), now, r.host(), r.qat(), r.licence(),
                    List.of(new FleetState.InstanceState(s.name(), now, s.server(), s.configuration(), s.accelerators(),
                            s.databases(), s.certificates(), s.runningBackups(), history))));
        }
        return new FleetState(hosts);
    }

    private static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public String markdown(Result r) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d instances × %d nights (20 databases, one full or differential backup "
                        + "per database per night, plus the latest log backup of each database in full recovery: %d backups), the "
                        + "collector's evaluate stage (windows, creep, every "
                        + "rule) on one thread, in chunks of %d hosts, after a warm-up.%n%n",
                r.instances(), r.nights(), r.backups(), settings.chunk()));
        md.append("| instances | nights | evaluate s (wall) | evaluate s (CPU, one thread) | alerts | heap per instance KiB "
                + "| heap for the whole fleet MiB |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %d | %d | %d |%n%n", r.instances(), r.nights(),
                r.wall().toNanos() / 1e9, r.cpu().toNanos() / 1e9, r.alerts(), r.heapPerInstance() >> 10,
                (r.heapPerInstance() * r.instances()) >> 20));
        double seconds = r.cpu().toNanos() / 1e9;
        if (r.instances() >= GOAL_INSTANCES && r.nights() >= GOAL_NIGHTS) {
            md.append(String.format(Locale.ROOT, "- %d instances × %d nights in %.2f s of one core (goal ≤ 1 s): %s%n",
                    r.instances(), r.nights(), seconds, IngestBenchmark.verdict(seconds <= 1.0)));
        } else {
            md.append(String.format(Locale.ROOT, "- not judged: the goal (≤ 1 s of one core) is for %d instances × %d "
                            + "nights; linearly, this run suggests %.1f s for %d instances%n", GOAL_INSTANCES, GOAL_NIGHTS,
                    seconds * GOAL_INSTANCES / r.instances(), GOAL_INSTANCES));
        }
        md.append("- alerts by rule: ").append(r.alertsByRule().isEmpty() ? "none" : r.alertsByRule().toString())
                .append('\n');
        r.ruleErrors().forEach((rule, error) -> md.append("- rule ").append(rule).append(" failed: ").append(error)
                .append('\n'));
        return md.toString();
    }
}
