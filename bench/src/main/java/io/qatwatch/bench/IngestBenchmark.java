package io.qatwatch.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Collector ingest: the same simulated agents' reports against the real collector (its SQLite store on
 * disk) and against {@link BareIngestServer}, each in its own JVM, at fixed rates (open loop) and flat
 * out (closed loop). Reports throughput, latency percentiles, the server's CPU and RSS, and the ratio.
 */
public final class IngestBenchmark {

    /**
     * How to run it.
     *
     * @param agents      simulated agents (each with its own token and report sequence)
     * @param rates       fixed rates in reports/s, each run open-loop for {@code duration}
     * @param connections keep-alive connections from the driver (also the closed loop's concurrency)
     * @param serverJvm   JVM options of the server processes (the launcher's collector defaults)
     * @param influx      also run the collector with its InfluxDB sink writing to a real influxd
     */
    public record Settings(int agents, List<Integer> rates, Duration warmup, Duration duration, int connections,
            List<String> serverJvm, Path workDir, boolean influx) {
    }

    /** One measured phase of one server. */
    public record Phase(String server, String load, LoadDriver.Run run, double serverCores, double driverCores,
            long rssBytes) {

        /** Server CPU per accepted report, in microseconds. */
        public double cpuMicrosPerReport() {
            double seconds = run.measured().toNanos() / 1e9;
            return run.accepted() == 0 ? 0 : serverCores * seconds * 1e6 / run.accepted();
        }
    }

    /** Everything one server measured, with its peak RSS. */
    public record ServerResult(String server, List<Phase> phases, long peakRssBytes, int bodyBytes, long acceptedTotal,
            List<String> notes) {

        Phase max() {
            return phases.get(phases.size() - 1);
        }

        Phase atRate(int rate) {
            return phases.stream().filter(p -> p.run().targetRate() == rate).findFirst().orElse(null);
        }
    }

    private final Settings settings;

    public IngestBenchmark(Settings settings) {
        this.settings = settings;
    }

    public List<ServerResult> run(BenchLog log) throws Exception {
        // fresh stores every run: tokens and report ids of an earlier run would change what is measured
        GrowthBenchmark.deleteTree(settings.workDir());
        List<ReportTemplate> templates = ReportTemplate.forAgents(settings.agents());
        List<ServerResult> results = new ArrayList<>();
        results.add(measure("bare Vert.x + JSON parse", "bare", List.of("bare"), templates, log));
        results.add(measure("collector (SQLite store)", "collector",
                List.of("collector", "--data", settings.workDir().resolve("collector-data").toString(),
                        "--agents", Integer.toString(settings.agents())), templates, log));
        if (settings.influx()) {
            if (InfluxdServer.installed()) {
                results.add(measureWithInflux(templates, log));
            } else {
                log.say("ingest: " + InfluxdServer.BINARY + " not found (apt-get install influxdb); skipping the sink run");
            }
        }
        return results;
    }

    /** The collector again, its sink writing every accepted report's points to a real influxd (v1 /write). */
    private ServerResult measureWithInflux(List<ReportTemplate> templates, BenchLog log) throws Exception {
        try (InfluxdServer influxd = InfluxdServer.start(settings.workDir().resolve("influxd"), "qatwatch")) {
            ProcessStats.Sample before = ProcessStats.sample(influxd.pid());
            return measure("collector + InfluxDB sink", "collector-influx",
                    List.of("collector", "--data", settings.workDir().resolve("collector-influx-data").toString(),
                            "--agents", Integer.toString(settings.agents()), "--influx-url", influxd.url(),
                            "--influx-database", "qatwatch"), templates, log, accepted -> {
                        ProcessStats.Sample after = ProcessStats.sample(influxd.pid());
                        long written = awaitStable(influxd);
                        return String.format(Locale.ROOT, "influxd 1.x used %.2f cores on average and %d MiB RSS at "
                                        + "the end; it holds %d of the %d backup points of the reports accepted (the sink "
                                        + "drops and counts points beyond its queue)", after.coresSince(before),
                                after.rssBytes() >> 20, written, accepted * ReportTemplate.BACKUPS_PER_REPORT);
                    });
        }
    }

    /** Backup points in influxd once the count stops rising (the sink flushes in batches). */
    private static long awaitStable(InfluxdServer influxd) throws Exception {
        long last = -1;
        for (int i = 0; i < 30; i++) {
            long now = influxd.count("qatwatch", "SELECT count(size_bytes) FROM qatwatch_backup");
            if (now == last) {
                return now;
            }
            last = now;
            Thread.sleep(2000);
        }
        return last;
    }

    /** What to add once the load is over, while the server still runs, given the reports it accepted in all. */
    private interface AfterLoad {
        String note(long accepted) throws Exception;
    }

    private ServerResult measure(String label, String name, List<String> serveArgs, List<ReportTemplate> templates,
            BenchLog log) throws Exception {
        return measure(label, name, serveArgs, templates, log, null);
    }

    private ServerResult measure(String label, String name, List<String> serveArgs, List<ReportTemplate> templates,
            BenchLog log, AfterLoad afterLoad) throws Exception {
        log.say("ingest: starting " + label);
        List<Phase> phases = new ArrayList<>();
        long accepted = 0;
        try (ServerProcess server = ServerProcess.start(name, settings.serverJvm(), serveArgs, settings.workDir())) {
            List<LoadDriver.Agent> agents = new ArrayList<>();
            Map<String, String> tokens = server.tokens();
            for (ReportTemplate t : templates) {
                agents.add(new LoadDriver.Agent(t, tokens.getOrDefault(t.host(), "qw_bare_no_auth")));
            }
            try (LoadDriver driver = new LoadDriver(server.port(), "/api/v1/reports", agents, settings.connections())) {
                log.say("ingest: " + name + " warm-up " + settings.warmup().toSeconds() + " s");
                LoadDriver.Run warm = driver.maxRate(settings.connections(), settings.warmup());
                accepted += warm.accepted();
                if (warm.accepted() == 0) {
                    throw new IllegalStateException(label + " accepted no report during warm-up (statuses "
                            + warm.statuses() + "); see " + settings.workDir().resolve(name + ".log"));
                }
                for (int rate : settings.rates()) {
                    phases.add(phase(label, rate + "/s", server, () -> driver.fixedRate(rate, settings.duration())));
                    log.say("ingest: " + name + " " + describe(phases.get(phases.size() - 1)));
                }
                phases.add(phase(label, "max (" + settings.connections() + " conns)", server,
                        () -> driver.maxRate(settings.connections(), settings.duration())));
                log.say("ingest: " + name + " " + describe(phases.get(phases.size() - 1)));
            }
            for (Phase p : phases) {
                accepted += p.run().accepted();
            }
            List<String> notes = afterLoad == null ? List.of() : List.of(afterLoad.note(accepted));
            return new ServerResult(label, phases, server.sample().peakRssBytes(), templates.get(0).size(), accepted,
                    notes);
        }
    }

    private interface Load {
        LoadDriver.Run run() throws Exception;
    }

    private static Phase phase(String label, String load, ServerProcess server, Load how) throws Exception {
        long self = ProcessHandle.current().pid();
        ProcessStats.Sample before = server.sample();
        ProcessStats.Sample driverBefore = ProcessStats.sample(self);
        LoadDriver.Run run = how.run();
        ProcessStats.Sample after = server.sample();
        ProcessStats.Sample driverAfter = ProcessStats.sample(self);
        return new Phase(label, load, run, after.coresSince(before), driverAfter.coresSince(driverBefore),
                after.rssBytes());
    }

    private static String describe(Phase p) {
        return String.format(Locale.ROOT, "%s: %.0f reports/s, p50 %.1f ms, p99 %.1f ms, %d failed",
                p.load(), p.run().acceptedPerSecond(), ms(p.run().latencies().percentile(50)),
                ms(p.run().latencies().percentile(99)), p.run().failed());
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The results as the Markdown section of docs/benchmarks.md, with the goals checked. */
    public String markdown(List<ServerResult> results) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d simulated agents (1 SQL instance, %d databases, %d new backups per "
                        + "report, %d-byte JSON bodies, identity encoding), %d keep-alive connections, %d s per phase "
                        + "after a %d s warm-up. Server JVM: `%s`.%n%n",
                settings.agents(), SimulatedAgent.DATABASES, ReportTemplate.BACKUPS_PER_REPORT,
                results.get(0).bodyBytes(), settings.connections(), settings.duration().toSeconds(),
                settings.warmup().toSeconds(), String.join(" ", settings.serverJvm())));
        md.append("| server | load | accepted reports/s | p50 ms | p99 ms | max ms | failed | server CPU (cores) "
                + "| server CPU µs/report | server RSS MiB | driver CPU (cores) |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ServerResult r : results) {
            for (Phase p : r.phases()) {
                LatencyRecorder l = p.run().latencies();
                md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.1f | %.1f | %.1f | %d | %.2f | %.0f | %d | %.2f |%n",
                        r.server(), p.load(), p.run().acceptedPerSecond(), ms(l.percentile(50)), ms(l.percentile(99)),
                        ms(l.max()), p.run().failed(), p.serverCores(), p.cpuMicrosPerReport(), p.rssBytes() >> 20,
                        p.driverCores()));
            }
        }
        md.append('\n');
        for (ServerResult r : results) {
            md.append(String.format(Locale.ROOT, "- peak RSS of %s: %d MiB%n", r.server(), r.peakRssBytes() >> 20));
            for (String note : r.notes()) {
                md.append("- ").append(r.server()).append(": ").append(note).append('\n');
            }
        }
        ServerResult bare = results.get(0);
        ServerResult collector = results.get(1);
        double ceiling = bare.max().run().acceptedPerSecond();
        double max = collector.max().run().acceptedPerSecond();
        double ratio = ceiling == 0 ? 0 : max / ceiling;
        md.append(String.format(Locale.ROOT, "- collector / bare ceiling: %.2f (goal ≥ 0.5): %s%n", ratio, verdict(ratio >= 0.5)));
        md.append(String.format(Locale.ROOT, "- collector max: %.0f reports/s on %d cores (goal ≥ 5,000 on 2 cores): %s%n",
                max, Runtime.getRuntime().availableProcessors(), verdict(max >= 5000)));
        Phase at1000 = collector.atRate(1000);
        if (at1000 != null) {
            double p99 = ms(at1000.run().latencies().percentile(99));
            md.append(String.format(Locale.ROOT, "- collector p99 at 1,000 reports/s: %.1f ms (goal ≤ 50 ms): %s%n",
                    p99, verdict(p99 <= 50 && at1000.run().failed() == 0
                            && at1000.run().acceptedPerSecond() >= 990)));
        }
        return md.toString();
    }

    static String verdict(boolean met) {
        return met ? "**met**" : "**missed**";
    }
}
