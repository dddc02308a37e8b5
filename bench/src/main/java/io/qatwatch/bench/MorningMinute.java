package io.qatwatch.bench;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.Rule;
import io.qatwatch.collector.alert.rule.Rules;
import io.qatwatch.collector.analysis.LiveFleet;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The analysis bench's morning minute, repeated: each round builds the {@link AnalysisBenchmark}'s simulated fleet, runs
 * its cold, day and night minutes, then measures the morning minute alone on this thread: the CPU and the bytes
 * allocated by the refresh ({@link LiveFleet}) and by each rule, and with {@code profile} where JFR's execution and
 * allocation samples land during it. The bytes allocated are the same each round (after the first, the JIT's), so two
 * commits compare by them on a busy machine; CPU is given as the median over the rounds and is still the machine's.
 */
public final class MorningMinute {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Methods listed per profile. */
    private static final int TOP = 15;

    /**
     * How to run it.
     *
     * @param warmups rounds run and not counted (the JIT's first compiles)
     * @param profile also record JFR's samples during each measured morning
     * @param quiet   measure a quiet minute after the morning instead: once the minutes after the morning (evaluated
     *                unmeasured) wrote every summary it made due, a minute in which every agent's heartbeat moved and
     *                nothing else, no backup, no night finishing, no summary written
     */
    public record Settings(int instances, int nights, int rounds, int warmups, boolean profile, boolean quiet) {
    }

    /**
     * What it measured.
     *
     * @param parts       per part (the whole morning, the refresh, all rules, each rule) its CPU and bytes, one a round
     * @param cpuSamples  execution samples of the evaluating thread, inclusive, by method
     * @param allocations sampled bytes allocated by the evaluating thread, inclusive, by method
     */
    public record Result(Settings settings, Map<String, List<long[]>> parts, Map<String, Long> cpuSamples, long samples,
                         Map<String, Long> allocations, long allocated) {
    }

    private final Settings settings;

    public MorningMinute(Settings settings) {
        this.settings = settings;
    }

    public Result run(BenchLog log) throws Exception {
        AnalysisBenchmark.Settings bench = new AnalysisBenchmark.Settings(settings.instances(), settings.nights(), 0, 1 / 9.0);
        AlertsConfig config = new AnalysisBenchmark(bench).config();
        Map<String, List<long[]>> parts = new LinkedHashMap<>();
        Map<String, Long> cpuSamples = new HashMap<>();
        Map<String, Long> allocations = new HashMap<>();
        long[] totals = new long[2];
        long tid = Thread.currentThread().getId();
        String minute = settings.quiet() ? "quiet" : "morning";
        for (int round = 0; round < settings.warmups() + settings.rounds(); round++) {
            boolean measured = round >= settings.warmups();
            Map<String, long[]> ruleCost = new LinkedHashMap<>();
            Map<String, Rule> timed = new LinkedHashMap<>();
            Rules.enabled(config.rules()).forEach((name, rule) -> timed.put(name, (fleet, rules) -> {
                long c0 = THREADS.getCurrentThreadCpuTime();
                long b0 = THREADS.getThreadAllocatedBytes(tid);
                List<Alert> out = rule.evaluate(fleet, rules);
                long[] cost = ruleCost.computeIfAbsent(name, n -> new long[2]);
                cost[0] += THREADS.getCurrentThreadCpuTime() - c0;
                cost[1] += THREADS.getThreadAllocatedBytes(tid) - b0;
                return out;
            }));
            AlertEvaluator evaluator = new AlertEvaluator(config.analysis(), config.rules(), timed);
            SimulatedStore store = new SimulatedStore(settings.instances(), settings.nights(), AnalysisBenchmark.NOW);
            LiveFleet fleet = new LiveFleet(config.analysis(), h -> Set.of());
            Instant morning = AnalysisBenchmark.untilMorning(store, bench,
                    (name, now) -> evaluator.evaluate(fleet.refresh(store, now).analysis()));
            if (settings.quiet()) {
                // the minutes after a morning write the summaries its nights made due (a few hundred a minute): the quiet
                // minute is the first after they are all written
                int written;
                do {
                    written = fleet.summaryCounts().written();
                    evaluator.evaluate(fleet.refresh(store, morning).analysis());
                    morning = morning.plusSeconds(60);
                    store.reportedAt(morning);
                } while (fleet.summaryCounts().written() != written);
            }
            ruleCost.clear();
            System.gc();
            Recording recording = measured && settings.profile() ? recording() : null;
            long s0 = store.cpuNanos();
            long c0 = THREADS.getCurrentThreadCpuTime();
            long b0 = THREADS.getThreadAllocatedBytes(tid);
            LiveFleet.Refresh refresh = fleet.refresh(store, morning);
            long c1 = THREADS.getCurrentThreadCpuTime();
            long b1 = THREADS.getThreadAllocatedBytes(tid);
            long storeCpu = store.cpuNanos() - s0;
            AlertEvaluator.Evaluation evaluation = evaluator.evaluate(refresh.analysis());
            long c2 = THREADS.getCurrentThreadCpuTime();
            long b2 = THREADS.getThreadAllocatedBytes(tid);
            if (recording != null) {
                recording.stop();
                samples(recording, tid, cpuSamples, allocations, totals);
            }
            log.say(String.format(Locale.ROOT, "%s: round %d%s: %d alerts, refresh %.3f s of CPU %.1f MB, rules %.3f s "
                            + "%.1f MB", minute, round, measured ? "" : " (warm-up)", evaluation.alerts().size(),
                    (c1 - c0 - storeCpu) / 1e9, (b1 - b0) / 1e6, (c2 - c1) / 1e9, (b2 - b1) / 1e6));
            if (measured) {
                add(parts, minute + " (refresh + rules)", c2 - c0 - storeCpu, b2 - b0);
                add(parts, "refresh (LiveFleet)", c1 - c0 - storeCpu, b1 - b0);
                add(parts, "rules (all)", c2 - c1, b2 - b1);
                ruleCost.forEach((name, cost) -> add(parts, "rule " + name, cost[0], cost[1]));
            }
        }
        return new Result(settings, parts, cpuSamples, totals[0], allocations, totals[1]);
    }

    private static Recording recording() {
        Recording recording = new Recording();
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
        recording.enable("jdk.ObjectAllocationSample").with("throttle", "20000/s").withStackTrace();
        recording.start();
        return recording;
    }

    /** Adds the evaluating thread's samples of {@code recording} to the inclusive counts, by method. */
    private static void samples(Recording recording, long tid, Map<String, Long> cpu, Map<String, Long> allocations,
                                long[] totals) throws Exception {
        Path file = Files.createTempFile("qatwatch-morning-", ".jfr");
        try {
            recording.dump(file);
            List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(file));
            events.sort(Comparator.comparing(RecordedEvent::getStartTime));
            boolean firstAllocation = true;
            for (RecordedEvent e : events) {
                if (e.getStackTrace() == null) {
                    continue;
                }
                boolean execution = e.getEventType().getName().equals("jdk.ExecutionSample");
                if ((execution ? e.getThread("sampledThread") : e.getThread("eventThread")).getJavaThreadId() != tid) {
                    continue;
                }
                long weight = 1;
                if (!execution) {
                    if (firstAllocation) {
                        // its weight is all the thread allocated since the last sample, before the recording started
                        firstAllocation = false;
                        continue;
                    }
                    weight = e.getLong("weight");
                }
                totals[execution ? 0 : 1] += weight;
                Set<String> seen = new HashSet<>();
                for (RecordedFrame f : e.getStackTrace().getFrames()) {
                    String method = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                    if (method.startsWith("io.qatwatch.collector.") && seen.add(method)) {
                        (execution ? cpu : allocations).merge(method, weight, Long::sum);
                    }
                }
            }
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }

    private static void add(Map<String, List<long[]>> parts, String name, long cpu, long bytes) {
        parts.computeIfAbsent(name, n -> new ArrayList<>()).add(new long[] {cpu, bytes});
    }

    public String markdown(Result r) {
        Settings s = r.settings();
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "The analysis bench's %s (%d instances × "
                        + "%d nights), %d rounds measured after %d, each on a fleet built anew by the cold, day and night "
                        + "minutes; thread CPU (generating rows excluded) and bytes allocated by the evaluating thread. The "
                        + "bytes are the commit's; the CPU is the machine's.%n%n", s.quiet()
                        ? "quiet minute (after the morning and the summaries it made due, only the agents' heartbeats moved)" : "morning minute",
                s.instances(), s.nights(), s.rounds(),
                s.warmups()));
        md.append("| part | CPU ms median | CPU ms min–max | MB allocated median | MB min–max |\n|---|---:|---:|---:|---:|\n");
        r.parts().forEach((name, rounds) -> {
            long[] cpu = rounds.stream().mapToLong(c -> c[0]).sorted().toArray();
            long[] bytes = rounds.stream().mapToLong(c -> c[1]).sorted().toArray();
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f–%.1f | %.2f | %.2f–%.2f |%n", name,
                    cpu[cpu.length / 2] / 1e6, cpu[0] / 1e6, cpu[cpu.length - 1] / 1e6, bytes[bytes.length / 2] / 1e6,
                    bytes[0] / 1e6, bytes[bytes.length - 1] / 1e6));
        });
        if (s.profile()) {
            md.append(String.format(Locale.ROOT, "%nJFR, inclusive, the collector's methods (%d execution samples at 1 ms; "
                    + "%.0f MB of sampled allocation weight):%n%n", r.samples(), r.allocated() / 1e6));
            md.append("| share of CPU samples | method | | share of bytes | method |\n|---:|---|---|---:|---|\n");
            List<Map.Entry<String, Long>> cpu = top(r.cpuSamples());
            List<Map.Entry<String, Long>> bytes = top(r.allocations());
            for (int i = 0; i < Math.max(cpu.size(), bytes.size()); i++) {
                md.append(i < cpu.size() ? String.format(Locale.ROOT, "| %.1f %% | `%s` |", 100.0 * cpu.get(i).getValue()
                        / Math.max(1, r.samples()), shortName(cpu.get(i).getKey())) : "| | |");
                md.append(i < bytes.size() ? String.format(Locale.ROOT, " | %.1f %% | `%s` |%n", 100.0 * bytes.get(i).getValue()
                        / Math.max(1, r.allocated()), shortName(bytes.get(i).getKey())) : " | | |\n");
            }
        }
        return md.toString();
    }

    private static List<Map.Entry<String, Long>> top(Map<String, Long> counts) {
        return counts.entrySet().stream().filter(e -> !e.getKey().contains("$$Lambda"))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(TOP).toList();
    }

    private static String shortName(String method) {
        return method.substring("io.qatwatch.collector.".length());
    }
}
