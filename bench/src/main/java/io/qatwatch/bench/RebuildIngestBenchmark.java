package io.qatwatch.bench;

import io.qatwatch.collector.EvaluationConfig;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Issue 33's row "ingest p99 at 1,000 reports/s while the stage rebuilds 1,000 new instances": a collector on SQLite
 * with its alert stage, {@code steady} agents already known reporting at a fixed rate (open loop), and while they do,
 * {@code newAgents} agents enrolled at once each sending its first report with {@code nights} nights of history, which
 * the alert stage must then read back and build at its next evaluation. The figure is the p99 of the steady reports due
 * while an evaluation that rebuilt instances ran (its start and duration read from the collector's {@code /metrics});
 * the run ends 5 s after the evaluations have rebuilt every new instance. Run with the pacer on (the default,
 * {@code evaluation.busyCoreShare} 0.25) and off (a share above the machine's cores), each in a collector of its own.
 */
public final class RebuildIngestBenchmark {

    /**
     * @param steady      agents known before the measured phase, reporting at {@code rate}
     * @param newAgents   agents whose first report (with history) arrives during it
     * @param nights      nights of history in each new agent's first report (20 databases a night)
     * @param rate        the steady agents' reports/s
     * @param connections keep-alive connections of the steady load
     */
    public record Settings(int steady, int newAgents, int nights, int rate, int connections, List<String> serverJvm,
            Path workDir, List<Double> busyCoreShares) {
    }

    /** One evaluation the phase saw: when it started (nanoTime of this process), how long, what it rebuilt and slept. */
    record Evaluation(long startNanos, long nanos, long rebuilt, double heldBackSeconds) {
    }

    /** What one collector measured. */
    record Result(String label, LoadDriver.Run phase, LatencyRecorder before, LatencyRecorder upload,
            LatencyRecorder rebuilding, List<Evaluation> evaluations, long uploadNanos, long phaseStartNanos,
            long rebuiltInAll, double heldBackSeconds) {
    }

    private final Settings settings;

    public RebuildIngestBenchmark(Settings settings) {
        this.settings = settings;
    }

    public List<Result> run(BenchLog log) throws Exception {
        GrowthBenchmark.deleteTree(settings.workDir());
        List<Result> out = new ArrayList<>();
        for (double share : settings.busyCoreShares()) {
            String value = share == Math.rint(share) ? Long.toString((long) share) : Double.toString(share);
            boolean paced = share < Runtime.getRuntime().availableProcessors();
            out.add(measure((paced ? "paced" : "not paced") + " (evaluation.busyCoreShare " + value
                    + (share == EvaluationConfig.DEFAULTS.busyCoreShare() ? ", the default)" : ")"),
                    (paced ? "paced-" : "unpaced-") + value, List.of("--busy-core-share", value), log));
        }
        return out;
    }

    private Result measure(String label, String name, List<String> extra, BenchLog log) throws Exception {
        List<String> args = new ArrayList<>(List.of("collector", "--data", settings.workDir().resolve(name + "-data").toString(),
                "--agents", Integer.toString(settings.steady() + settings.newAgents())));
        args.addAll(extra);
        log.say("rebuild: starting the collector, " + label);
        try (ServerProcess server = ServerProcess.start("rebuild-" + name, settings.serverJvm(), args, settings.workDir())) {
            Map<String, String> tokens = server.tokens();
            Instant now = Instant.now();
            String runTag = Long.toString(now.getEpochSecond(), 36);
            List<LoadDriver.Agent> steady = new ArrayList<>();
            for (int i = 0; i < settings.steady(); i++) {
                SimulatedAgent a = new SimulatedAgent(i);
                steady.add(new LoadDriver.Agent(ReportTemplate.of(a, now, runTag), tokens.get(a.host())));
            }
            MetricsScrape scrape = new MetricsScrape(server.port());
            try (LoadDriver driver = new LoadDriver(server.port(), "/api/v1/reports", steady, settings.connections());
                 LoadDriver uploads = new LoadDriver(server.port(), "/api/v1/reports", steady, 2)) {
                LoadDriver.Run warm = driver.maxRate(Math.min(8, settings.connections()), Duration.ofSeconds(10));
                if (warm.accepted() == 0) {
                    throw new IllegalStateException("rebuild: the collector accepted no report in the warm-up ("
                            + warm.statuses() + ")");
                }
                log.say("rebuild: " + name + ": waiting for an evaluation that holds the " + settings.steady()
                        + " steady instances");
                Map<String, Double> m = scrape.until(f -> f.getOrDefault("qatwatch_alert_instances", 0.0) >= settings.steady(),
                        Duration.ofMinutes(5));
                long rebuiltBefore = m.get("qatwatch_alert_instances_rebuilt_total").longValue();
                double heldBefore = m.get("qatwatch_alert_stage_held_back_seconds_total");
                Monitor monitor = new Monitor(scrape, m, rebuiltBefore + settings.newAgents());
                Timeline timeline = new Timeline();
                ExecutorService threads = Executors.newFixedThreadPool(2);
                try {
                    long phaseStart = System.nanoTime();
                    Instant phaseWall = Instant.now();
                    Future<LoadDriver.Run> phase = threads.submit(() -> driver.fixedRateUntil(settings.rate(),
                            Duration.ofMinutes(10), monitor::done, timeline));
                    Future<?> watching = threads.submit(() -> {
                        monitor.watch();
                        return null;
                    });
                    Thread.sleep(5_000);
                    long uploadStart = System.nanoTime();
                    log.say("rebuild: " + name + ": " + settings.newAgents() + " new agents send their first report ("
                            + settings.nights() + " nights)");
                    LoadDriver.Run upload = uploads.each(settings.newAgents(), i -> firstReport(settings.steady() + i, now,
                            runTag, tokens), 2);
                    long uploadEnd = System.nanoTime();
                    if (upload.accepted() != settings.newAgents()) {
                        throw new IllegalStateException("rebuild: " + upload.accepted() + " of " + settings.newAgents()
                                + " first reports accepted (" + upload.statuses() + ")");
                    }
                    log.say("rebuild: " + name + ": uploaded in " + (uploadEnd - uploadStart) / 1_000_000_000 + " s; "
                            + "waiting for the evaluations to rebuild them");
                    LoadDriver.Run run = phase.get();
                    watching.get();
                    if (!monitor.rebuiltAll()) {
                        throw new IllegalStateException("rebuild: the phase ended before the stage rebuilt the new instances");
                    }
                    Path latencies = settings.workDir().resolve("rebuild-" + name + "-latency.csv");
                    Files.writeString(latencies, timeline.csv(phaseStart, phaseWall, 100_000_000L));
                    log.say("rebuild: " + name + ": the slowest report of every 100 ms of the phase in " + latencies);
                    LatencyRecorder rebuilding = new LatencyRecorder();
                    for (Evaluation e : monitor.evaluations) {
                        if (e.rebuilt() > 0) {
                            timeline.into(e.startNanos(), e.startNanos() + e.nanos(), rebuilding);
                        }
                    }
                    Map<String, Double> last = monitor.last;
                    Result r = new Result(label, run, timeline.between(phaseStart, uploadStart),
                            timeline.between(uploadStart, uploadEnd), rebuilding, List.copyOf(monitor.evaluations),
                            uploadEnd - uploadStart, phaseStart,
                            last.get("qatwatch_alert_instances_rebuilt_total").longValue() - rebuiltBefore,
                            last.get("qatwatch_alert_stage_held_back_seconds_total") - heldBefore);
                    log.say("rebuild: " + name + ": p99 while rebuilding " + String.format(Locale.ROOT, "%.1f ms",
                            IngestBenchmark.ms(rebuilding.percentile(99))) + ", whole phase " + String.format(Locale.ROOT,
                            "%.1f ms", IngestBenchmark.ms(run.latencies().percentile(99))));
                    return r;
                } finally {
                    threads.shutdownNow();
                }
            }
        }
    }

    /** New agent {@code index}'s first report: its whole history of {@code nights} nights and each database's latest log. */
    private LoadDriver.Body firstReport(int index, Instant now, String runTag, Map<String, String> tokens) {
        SimulatedAgent a = new SimulatedAgent(index);
        List<BackupRecord> backups = new ArrayList<>(a.nightlyHistory(settings.nights(), SimulatedAgent.firstNight(now,
                settings.nights()), now));
        backups.addAll(a.latestLogBackups(backups.size() + 1, now));
        AgentReport report = a.report(a.host() + "-" + runTag + "-first", now, backups, backups.size());
        return new LoadDriver.Body(tokens.get(a.host()), ReportJson.toBytes(report));
    }

    /**
     * Scrapes every 250 ms during the phase: each evaluation that finished (its start mapped to this process's
     * nanoTime, its duration, what it rebuilt and how long the pacer held it back), and says when to stop: 5 s after the
     * evaluations rebuilt {@code target} instances in all.
     */
    private static final class Monitor {
        final List<Evaluation> evaluations = new ArrayList<>();
        private final MetricsScrape scrape;
        private final long target;
        volatile Map<String, Double> last;
        private volatile long stopAt = Long.MAX_VALUE;
        private volatile boolean rebuiltAll;

        Monitor(MetricsScrape scrape, Map<String, Double> first, long target) {
            this.scrape = scrape;
            this.last = first;
            this.target = target;
        }

        void watch() throws Exception {
            long nanoAtEpoch = System.nanoTime() - System.currentTimeMillis() * 1_000_000L;
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (!done() && System.nanoTime() < deadline) {
                Thread.sleep(250);
                Map<String, Double> m = scrape.now();
                Map<String, Double> before = last;
                if (m.get("qatwatch_alert_evaluations_total") > before.get("qatwatch_alert_evaluations_total")) {
                    long start = nanoAtEpoch + (long) (m.get("qatwatch_alert_evaluation_last_start_seconds") * 1e9);
                    evaluations.add(new Evaluation(start, (long) (m.get("qatwatch_alert_evaluation_last_duration_seconds") * 1e9),
                            (long) (m.get("qatwatch_alert_instances_rebuilt_total") - before.get("qatwatch_alert_instances_rebuilt_total")),
                            m.get("qatwatch_alert_stage_held_back_seconds_total")
                                    - before.get("qatwatch_alert_stage_held_back_seconds_total")));
                }
                last = m;
                if (!rebuiltAll && m.get("qatwatch_alert_instances_rebuilt_total") >= target) {
                    rebuiltAll = true;
                    stopAt = System.nanoTime() + 5_000_000_000L;
                }
            }
        }

        boolean done() {
            return System.nanoTime() >= stopAt;
        }

        boolean rebuiltAll() {
            return rebuiltAll;
        }
    }

    /** The results as Markdown with the goal checked. */
    public String markdown(List<Result> results) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "A collector on SQLite with its alert stage; %d agents already known report "
                        + "at %d/s (open loop, %d connections); 5 s into that, %d new agents each send their first report "
                        + "with %d nights of history (%d databases, %d rows), 2 at a time; the run ends 5 s after the stage "
                        + "rebuilt them. Server JVM: `%s`.%n%n", settings.steady(), settings.rate(), settings.connections(),
                settings.newAgents(), settings.nights(), SimulatedAgent.DATABASES,
                settings.nights() * SimulatedAgent.DATABASES + SimulatedAgent.DATABASES, String.join(" ", settings.serverJvm())));
        md.append("| collector | steady reports/s | before: p99 ms | during the upload: p99 ms | while rebuilding: "
                + "requests, p50 / p99 / max ms | whole phase: p99 / max ms | failed | upload s | rebuilding evaluations "
                + "(s, instances) | held back s |\n");
        md.append("|---|---:|---:|---:|---|---|---:|---:|---|---:|\n");
        for (Result r : results) {
            StringBuilder evals = new StringBuilder();
            for (Evaluation e : r.evaluations()) {
                if (e.rebuilt() > 0) {
                    evals.append(evals.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f s at +%.0f s (%d)",
                            e.nanos() / 1e9, (e.startNanos() - r.phaseStartNanos()) / 1e9, e.rebuilt()));
                }
            }
            LatencyRecorder w = r.rebuilding();
            LatencyRecorder all = r.phase().latencies();
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %.1f | %d, %.1f / %.1f / %.1f | %.1f / %.1f | %s | %.1f "
                            + "| %s | %.1f |%n", r.label(), r.phase().acceptedPerSecond(), IngestBenchmark.ms(r.before().percentile(99)),
                    IngestBenchmark.ms(r.upload().percentile(99)), w.count(), IngestBenchmark.ms(w.percentile(50)),
                    IngestBenchmark.ms(w.percentile(99)), IngestBenchmark.ms(w.max()), IngestBenchmark.ms(all.percentile(99)),
                    IngestBenchmark.ms(all.max()), failed(r.phase()), r.uploadNanos() / 1e9, evals, r.heldBackSeconds()));
        }
        md.append('\n');
        for (Result r : results) {
            double p99 = IngestBenchmark.ms(r.rebuilding().percentile(99));
            md.append(String.format(Locale.ROOT, "- ingest p99 at %d reports/s while the stage rebuilds %d new instances, "
                            + "%s: %.1f ms (goal ≤ 50 ms): %s%n", settings.rate(), settings.newAgents(), r.label(), p99,
                    IngestBenchmark.verdict(p99 <= 50 && r.phase().failed() == 0 && r.rebuiltInAll() >= settings.newAgents())));
        }
        return md.toString();
    }

    /** How many steady reports were not accepted, and what each got instead (a status, or -1: no answer). */
    static String failed(LoadDriver.Run run) {
        if (run.failed() == 0) {
            return "0";
        }
        StringBuilder s = new StringBuilder(Long.toString(run.failed())).append(" (");
        String sep = "";
        for (var e : run.statuses().entrySet()) {
            if (e.getKey() != 202) {
                s.append(sep).append(e.getKey() == -1 ? "no answer" : "HTTP " + e.getKey()).append(": ").append(e.getValue());
                sep = ", ";
            }
        }
        return s.append(')').toString();
    }
}
