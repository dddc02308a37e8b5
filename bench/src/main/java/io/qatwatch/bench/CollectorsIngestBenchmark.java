package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Ingest into several collectors on one PostgreSQL against one collector on SQLite, same machine, same run: each
 * collector in its own JVM with its alert stage, the simulated agents split between them (agent i to collector
 * i mod n, as a load balancer would), every driver flat out at once. Reports the accepted reports/s summed over the
 * collectors, the worst collector's latency percentiles and the CPU of the collectors and of PostgreSQL.
 */
public final class CollectorsIngestBenchmark {

    /**
     * How to run it.
     *
     * @param collectors    collector counts to run on PostgreSQL (e.g. 1, 2, 3)
     * @param pgUrl         a PostgreSQL database the bench may empty: it drops and creates schema {@code bench}
     * @param pgPasswordFile the password's file (its first line)
     * @param pgPid         PostgreSQL's postmaster process, for its CPU (0: not measured)
     */
    public record Settings(int agents, Duration warmup, Duration duration, int connections, List<String> serverJvm,
            Path workDir, List<Integer> collectors, String pgUrl, String pgUser, Path pgPasswordFile, long pgPid) {
    }

    /** One configuration's run. */
    public record Result(String store, int collectors, long accepted, double acceptedPerSecond, double p50Ms,
            double p99Ms, long failed, double collectorCores, double postgresCores, long peakRssBytes) {
    }

    private final Settings settings;

    public CollectorsIngestBenchmark(Settings settings) {
        this.settings = settings;
    }

    public List<Result> run(BenchLog log) throws Exception {
        GrowthBenchmark.deleteTree(settings.workDir());
        List<ReportTemplate> templates = ReportTemplate.forAgents(settings.agents());
        List<Result> results = new ArrayList<>();
        results.add(measure("SQLite", 1, templates, log));
        for (int n : settings.collectors()) {
            resetSchema();
            results.add(measure("PostgreSQL", n, templates, log));
        }
        return results;
    }

    private void resetSchema() throws Exception {
        resetSchema(settings.pgUrl(), settings.pgUser(), settings.pgPasswordFile());
    }

    /** Drops and creates schema {@code bench} of the database at {@code pgUrl}: an empty store for the next run. */
    static void resetSchema(String pgUrl, String pgUser, Path pgPasswordFile) throws Exception {
        try (Connection c = connect(base(pgUrl), pgUser, pgPasswordFile); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS bench CASCADE");
            s.execute("CREATE SCHEMA bench");
        }
    }

    /** A connection to {@code url} as {@code user}, with the password held in the first line of {@code passwordFile}. */
    static Connection connect(String url, String user, Path passwordFile) throws IOException, SQLException {
        return DriverManager.getConnection(url, user, java.nio.file.Files.readAllLines(passwordFile).get(0).strip());
    }

    /** The collectors' store URL: the database of {@code pgUrl}, schema {@code bench}. */
    static String benchSchema(String pgUrl) {
        return base(pgUrl) + "?currentSchema=bench";
    }

    private static String base(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    private Result measure(String store, int n, List<ReportTemplate> templates, BenchLog log) throws Exception {
        String name = store.toLowerCase(Locale.ROOT) + "-" + n;
        log.say("collectors: starting " + n + " collector(s) on " + store);
        List<ServerProcess> servers = new ArrayList<>();
        List<LoadDriver> drivers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            Map<String, String> tokens = null;
            for (int k = 0; k < n; k++) {
                List<String> args = new ArrayList<>(List.of("collector", "--data",
                        settings.workDir().resolve(name + "-" + k).toString(),
                        "--agents", Integer.toString(k == 0 ? settings.agents() : 0)));
                if (!"SQLite".equals(store)) {
                    args.addAll(List.of("--store-url", benchSchema(settings.pgUrl()), "--store-user",
                            settings.pgUser(), "--store-password-file", settings.pgPasswordFile().toString()));
                }
                ServerProcess server = ServerProcess.start(name + "-" + k, settings.serverJvm(), args, settings.workDir());
                servers.add(server);
                tokens = tokens == null ? server.tokens() : tokens;
            }
            for (int k = 0; k < n; k++) {
                List<LoadDriver.Agent> agents = new ArrayList<>();
                for (int i = k; i < templates.size(); i += n) {
                    agents.add(new LoadDriver.Agent(templates.get(i), tokens.get(templates.get(i).host())));
                }
                drivers.add(new LoadDriver(servers.get(k).port(), "/api/v1/reports", agents,
                        Math.max(1, settings.connections() / n)));
            }
            log.say("collectors: " + name + " warm-up " + settings.warmup().toSeconds() + " s");
            flatOut(pool, drivers, settings.warmup());
            List<ProcessStats.Sample> before = servers.stream().map(ServerProcess::sample).toList();
            long pgCpuBefore = ProcessStats.treeCpuNanos(settings.pgPid());
            long wallBefore = System.nanoTime();
            List<LoadDriver.Run> runs = flatOut(pool, drivers, settings.duration());
            double cores = 0;
            long rss = 0;
            for (int k = 0; k < n; k++) {
                ProcessStats.Sample after = servers.get(k).sample();
                cores += after.coresSince(before.get(k));
                rss = Math.max(rss, after.peakRssBytes());
            }
            double pgCores = settings.pgPid() <= 0 ? Double.NaN
                    : (double) (ProcessStats.treeCpuNanos(settings.pgPid()) - pgCpuBefore) / (System.nanoTime() - wallBefore);
            long accepted = runs.stream().mapToLong(LoadDriver.Run::accepted).sum();
            double perSecond = runs.stream().mapToDouble(LoadDriver.Run::acceptedPerSecond).sum();
            double p50 = runs.stream().mapToDouble(r -> IngestBenchmark.ms(r.latencies().percentile(50))).max().orElse(0);
            double p99 = runs.stream().mapToDouble(r -> IngestBenchmark.ms(r.latencies().percentile(99))).max().orElse(0);
            long failed = runs.stream().mapToLong(LoadDriver.Run::failed).sum();
            Result r = new Result(store, n, accepted, perSecond, p50, p99, failed, cores, "SQLite".equals(store) ? 0 : pgCores,
                    rss);
            log.say(String.format(Locale.ROOT, "collectors: %s: %.0f reports/s, p99 %.1f ms, %d failed", name, perSecond,
                    p99, failed));
            return r;
        } finally {
            pool.shutdownNow();
            for (LoadDriver d : drivers) {
                d.close();
            }
            for (ServerProcess s : servers) {
                s.close();
            }
        }
    }

    private List<LoadDriver.Run> flatOut(ExecutorService pool, List<LoadDriver> drivers, Duration duration)
            throws Exception {
        int concurrency = Math.max(1, settings.connections() / drivers.size());
        List<Future<LoadDriver.Run>> running = new ArrayList<>();
        for (LoadDriver d : drivers) {
            running.add(pool.submit(() -> d.maxRate(concurrency, duration)));
        }
        List<LoadDriver.Run> out = new ArrayList<>();
        for (Future<LoadDriver.Run> f : running) {
            out.add(f.get());
        }
        return out;
    }

    /** The Markdown table of docs/benchmarks.md. */
    public String markdown(List<Result> results) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d simulated agents split between the collectors, driven flat out by %d "
                        + "senders in all (split too) for %d s after a %d s warm-up; every collector with its alert stage, "
                        + "PostgreSQL 15 (Debian, fsync and synchronous_commit on, as SQLite's synchronous=FULL) on the "
                        + "same 2 cores. Server JVM: `%s`.%n%n", settings.agents(), settings.connections(), settings.duration().toSeconds(),
                settings.warmup().toSeconds(), String.join(" ", settings.serverJvm())));
        md.append("| store | collectors | accepted reports/s (sum) | p50 ms (worst) | p99 ms (worst) | failed "
                + "| collectors' CPU (cores) | PostgreSQL CPU (cores) | peak RSS MiB (largest) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.1f | %.1f | %d | %.2f | %s | %d |%n", r.store(),
                    r.collectors(), r.acceptedPerSecond(), r.p50Ms(), r.p99Ms(), r.failed(), r.collectorCores(),
                    Double.isNaN(r.postgresCores()) ? "n/a" : String.format(Locale.ROOT, "%.2f", r.postgresCores()),
                    r.peakRssBytes() >> 20));
        }
        return md.toString();
    }
}
