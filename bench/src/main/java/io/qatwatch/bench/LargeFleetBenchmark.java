package io.qatwatch.bench;

import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.TokenStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A large fleet over several collectors on one PostgreSQL ({@code --only fleet100k}): the store filled through the
 * collectors' own store code ({@link SqlReportStore#storeAll}) with {@code instances} simulated instances' history,
 * then the collectors started together, each in its own JVM with its alert stage, dividing the fleet's slices
 * between them: once on a store without summaries (every instance built from its rows, as the first start after an
 * upgrade), then, once every instance's summary is written, stopped and started again (a restart, from the summaries).
 * For each collector: when its first evaluation was served after each start, and after the restart, once its slices
 * settled, the CPU it used over a quiet minute (one evaluation, no ingest), its heap after a full collection and its RSS.
 * With {@code reuse}, a store that already holds a fill of the same size (its marker table) is measured again without
 * filling it anew.
 */
public final class LargeFleetBenchmark {

    /** Agents stored per transaction by the fill: each carries {@code nights} × 20 backups. */
    private static final int FILL_BATCH = 200;
    /** Answers 503 until the collector's first evaluation has run, then a small 200 (no host matches). */
    private static final String FIRST_EVALUATION = "/api/v1/compression?host=bench-no-such-host";

    /**
     * How to run it.
     *
     * @param firstEvaluationLimit how long to wait for a collector's first evaluation before giving up on it
     * @param minute               the quiet period whose CPU is measured (a minute: one evaluation)
     * @param settle               how long after the restart's last first evaluation before the minute is measured: the
     *                             slices divided between collectors that came up at different times move once
     * @param reuse                keep the store of an earlier run when its marker says it holds this fill
     */
    public record Settings(int instances, int nights, int collectors, List<String> serverJvm, Path workDir, String pgUrl,
            String pgUser, Path pgPasswordFile, Duration firstEvaluationLimit, Duration minute, Duration settle,
            boolean reuse) {
    }

    /**
     * One collector.
     *
     * @param firstStart      from its first start, on a store without summaries, to its first evaluation served; null when
     *                        none came within the limit
     * @param stop            from SIGTERM to its exit after the first start (its summaries written); null when it had
     *                        to be killed after 30 s
     * @param afterRestart    from its restart (the summaries written) to its first evaluation served; null when none came
     *                        within the limit
     * @param minuteCpu       its CPU over the quiet minute; null when it was not measured
     * @param heapBytes       live heap after a full collection (the class histogram's total); -1 when not measured
     * @param restartSplit    the CPU from its restart to its first evaluation by kind of thread ({@link ThreadCpu}), "n/a"
     *                        when none was served
     * @param minuteSplit     the minute's CPU by kind of thread ({@link ThreadCpu}), "n/a" when not measured
     * @param stage           what its alert stage held at the minute's end, and had read to hold it; null when not scraped
     * @param failure         why it stopped (e.g. out of heap), or null
     */
    public record Collector(int index, Duration firstStart, Duration stop, Duration afterRestart, Duration minuteCpu,
            String restartSplit, String minuteSplit, long heapBytes, long rssBytes, StageShare stage, String failure) {
    }

    /**
     * A collector's share of the fleet, from its {@code /metrics}: the instances its alert stage holds, and how many of
     * them it restored from their summaries or built from their rows since its restart. Issue 33's row "a collector's
     * store reads on PostgreSQL: only its own slices' rows": each of these is read from the store, so a collector that
     * read the whole fleet would show it here.
     */
    public record StageShare(long held, long restored, long rebuilt) {
        static StageShare of(Map<String, Double> metrics) {
            return new StageShare(metrics.getOrDefault("qatwatch_alert_instances", -1.0).longValue(),
                    metrics.getOrDefault("qatwatch_alert_instances_restored_total", -1.0).longValue(),
                    metrics.getOrDefault("qatwatch_alert_instances_rebuilt_total", -1.0).longValue());
        }
    }

    /**
     * The run: the fill (or the earlier one reused), then each collector.
     *
     * @param filledAt    when the store was filled (this run, or the earlier one it reuses)
     * @param reused      the store was filled by an earlier run
     * @param summaries   instance summaries in the store when the collectors were stopped after their first start
     */
    public record Result(long backupRows, Duration fill, Instant filledAt, boolean reused, long summaries,
            List<Collector> collectors) {
    }

    /** The fill's marker, in the bench schema: what it holds, so that {@code reuse} knows the store is this fill. */
    private record Fill(long rows, Duration took, Instant at) {
    }

    private final Settings settings;
    /** Each collector's CPU by kind of thread when its latest start's first evaluation was served. */
    private final Map<ServerProcess, Map<String, Long>> threadsAtFirstEvaluation = new ConcurrentHashMap<>();

    public LargeFleetBenchmark(Settings settings) {
        this.settings = settings;
    }

    public Result run(BenchLog log) throws Exception {
        GrowthBenchmark.deleteTree(settings.workDir());
        Fill fill = settings.reuse() ? marker() : null;
        boolean reused = fill != null;
        if (reused) {
            log.say(String.format(Locale.ROOT, "fleet100k: reusing the store filled at %s (%d backup rows); its summaries "
                    + "deleted", fill.at(), fill.rows()));
            sql("DELETE FROM instance_summaries");
        } else {
            CollectorsIngestBenchmark.resetSchema(settings.pgUrl(), settings.pgUser(), settings.pgPasswordFile());
            Instant at = Instant.now();
            long started = System.nanoTime();
            long rows = fill(log);
            fill = new Fill(rows, Duration.ofNanos(System.nanoTime() - started), at);
            sql("CREATE TABLE bench_fleet_fill (instances INTEGER, nights INTEGER, backup_rows BIGINT, seconds BIGINT, "
                    + "filled_at TEXT)");
            sql("INSERT INTO bench_fleet_fill VALUES (" + settings.instances() + ", " + settings.nights() + ", " + rows + ", "
                    + fill.took().toSeconds() + ", '" + at + "')");
        }
        log.say(String.format(Locale.ROOT, "fleet100k: %d instances, %d backup rows stored in %d s", settings.instances(),
                fill.rows(), fill.took().toSeconds()));
        List<String> jvm = new ArrayList<>(settings.serverJvm());
        jvm.add("-XX:+ExitOnOutOfMemoryError");
        ExecutorService pool = Executors.newFixedThreadPool(settings.collectors());
        List<ServerProcess> servers = new ArrayList<>();
        try {
            List<Duration> firstStart = start(servers, pool, jvm, "first start", log);
            long summaries = awaitSummaries(log);
            List<Duration> stops = new ArrayList<>();
            for (int k = 0; k < servers.size(); k++) {
                stops.add(servers.get(k).stop());
                log.say("fleet100k: collector " + k + " stopped " + (stops.get(k) == null ? "only when killed after 30 s"
                        : stops.get(k).toMillis() + " ms after SIGTERM"));
            }
            servers.clear();
            List<Duration> restart = start(servers, pool, jvm, "restart", log);
            log.say("fleet100k: letting the slices settle for " + settings.settle().toSeconds() + " s, then measuring a quiet "
                    + settings.minute().toSeconds() + " s");
            Thread.sleep(settings.settle().toMillis());
            List<ProcessStats.Sample> before = servers.stream().map(ServerProcess::sample).toList();
            List<Map<String, Long>> threadsBefore = servers.stream().map(s -> ThreadCpu.sample(s.pid())).toList();
            Thread.sleep(settings.minute().toMillis());
            // every minute ends before the first heap is taken: a class histogram's full collection takes seconds at this
            // size, and each collector sampled after one had a longer "minute", perhaps with a second evaluation in it
            List<ProcessStats.Sample> afterAll = servers.stream().map(ServerProcess::sample).toList();
            List<Map<String, Long>> threadsAfter = servers.stream().map(s -> ThreadCpu.sample(s.pid())).toList();
            List<Collector> out = new ArrayList<>();
            for (int k = 0; k < servers.size(); k++) {
                ServerProcess server = servers.get(k);
                ProcessStats.Sample after = afterAll.get(k);
                Duration cpu = server.alive() && before.get(k).alive() ? after.cpu().minus(before.get(k).cpu()) : null;
                StageShare share = server.alive() ? StageShare.of(new MetricsScrape(server.port()).now()) : null;
                long heap = server.alive() ? JcmdHeap.liveBytes(server.pid()) : -1;
                Collector c = new Collector(k, firstStart.get(k), stops.get(k), restart.get(k), cpu,
                        ThreadCpu.seconds(threadsAtFirstEvaluation.getOrDefault(server, Map.of())),
                        ThreadCpu.secondsBetween(threadsBefore.get(k), threadsAfter.get(k)), heap, after.rssBytes(), share,
                        server.exitReason());
                log.say(String.format(Locale.ROOT, "fleet100k: collector %d: minute %s s CPU, heap %d MiB, RSS %d MiB%s", k,
                        cpu == null ? "n/a" : String.format(Locale.ROOT, "%.2f", cpu.toMillis() / 1000.0), heap >> 20,
                        after.rssBytes() >> 20, c.failure() == null ? "" : "; " + c.failure()));
                out.add(c);
            }
            return new Result(fill.rows(), fill.took(), fill.at(), reused, summaries, out);
        } finally {
            pool.shutdownNow();
            for (ServerProcess s : servers) {
                s.close();
            }
        }
    }

    /**
     * Starts every collector together, as after a restart of all of them (they divide the slices as they come up), into
     * {@code servers}, and returns each one's time from its start to its first evaluation served (null: not within the
     * limit, or it stopped).
     */
    private List<Duration> start(List<ServerProcess> servers, ExecutorService pool, List<String> jvm, String what,
                                 BenchLog log) throws Exception {
        List<Future<ServerProcess>> starting = new ArrayList<>();
        long[] startedAt = new long[settings.collectors()];
        for (int k = 0; k < settings.collectors(); k++) {
            int index = k;
            starting.add(pool.submit(() -> {
                startedAt[index] = System.nanoTime();
                return ServerProcess.start("fleet-" + index, jvm, serveArgs(index), settings.workDir());
            }));
        }
        for (Future<ServerProcess> f : starting) {
            servers.add(f.get());
        }
        String token = servers.get(0).tokens().get("bench-reader");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        List<Future<Duration>> waiting = new ArrayList<>();
        for (int k = 0; k < servers.size(); k++) {
            ServerProcess server = servers.get(k);
            long from = startedAt[k];
            waiting.add(pool.submit(() -> awaitFirstEvaluation(http, server, token, from)));
        }
        List<Duration> first = new ArrayList<>();
        for (int k = 0; k < servers.size(); k++) {
            first.add(waiting.get(k).get());
            log.say("fleet100k: " + what + ": collector " + k + ": first evaluation " + (first.get(k) == null
                    ? "not served" + (servers.get(k).alive() ? "" : " (" + servers.get(k).exitReason() + ")")
                    : "served " + first.get(k).toMillis() + " ms after its start"));
        }
        return first;
    }

    /**
     * Waits until the collectors have summarised every instance (a stage writes them at once after building instances
     * from rows), or the count stopped growing for a minute; the summaries in the store then.
     */
    private long awaitSummaries(BenchLog log) throws Exception {
        long last = -1;
        long lastChange = System.nanoTime();
        while (true) {
            long n = count("SELECT COUNT(*) FROM instance_summaries");
            if (n != last) {
                last = n;
                lastChange = System.nanoTime();
            }
            if (n >= settings.instances() || System.nanoTime() - lastChange > Duration.ofMinutes(1).toNanos()) {
                log.say("fleet100k: " + n + " instance summaries written");
                return n;
            }
            Thread.sleep(1000);
        }
    }

    /** The marker of an earlier fill of this size in the bench schema, or null when there is none (or another). */
    private Fill marker() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT instances, nights, backup_rows, seconds, filled_at FROM bench_fleet_fill")) {
            if (r.next() && r.getInt(1) == settings.instances() && r.getInt(2) == settings.nights()) {
                return new Fill(r.getLong(3), Duration.ofSeconds(r.getLong(4)), Instant.parse(r.getString(5)));
            }
            return null;
        } catch (SQLException e) {
            // no marker table: the schema holds no fill of this bench
            return null;
        }
    }

    private void sql(String statement) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private long count(String query) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(query)) {
            r.next();
            return r.getLong(1);
        }
    }

    private Connection connect() throws IOException, SQLException {
        return CollectorsIngestBenchmark.connect(CollectorsIngestBenchmark.benchSchema(settings.pgUrl()), settings.pgUser(),
                settings.pgPasswordFile());
    }

    private List<String> serveArgs(int index) {
        List<String> args = new ArrayList<>(List.of("collector", "--data",
                settings.workDir().resolve("fleet-" + index).toString(), "--store-url",
                CollectorsIngestBenchmark.benchSchema(settings.pgUrl()), "--store-user", settings.pgUser(),
                "--store-password-file", settings.pgPasswordFile().toString()));
        if (index == 0) {
            // one read token for all: the token store is shared, and a second --reader would revoke the first's
            args.add("--reader");
        }
        return args;
    }

    /** The store filled as the collectors would have filled it, through their store code on the same schema. */
    private long fill(BenchLog log) throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        StoreConfig config = StoreConfig.postgresql(CollectorsIngestBenchmark.benchSchema(settings.pgUrl()),
                settings.pgUser(), settings.pgPasswordFile(), null, 2);
        try (Database db = Database.open(config, settings.workDir(), new Secrets(Map.of()))) {
            new TokenStore(db);
            return BenchFill.history(new SqlReportStore(db), settings.instances(), settings.nights(), now, FILL_BATCH,
                    "fleet100k", log);
        }
    }

    /** From {@code startedAt} until the collector's first evaluation is served; null when not within the limit. */
    private Duration awaitFirstEvaluation(HttpClient http, ServerProcess server, String token, long startedAt)
            throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + FIRST_EVALUATION))
                .timeout(Duration.ofMinutes(1)).header("Authorization", "Bearer " + token).GET().build();
        while (System.nanoTime() - startedAt < settings.firstEvaluationLimit().toNanos() && server.alive()) {
            try {
                // 503 until the first evaluation; anything but 200 after it (a token not known yet) is not it either
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    Duration took = Duration.ofNanos(System.nanoTime() - startedAt);
                    threadsAtFirstEvaluation.put(server, ThreadCpu.sample(server.pid()));
                    return took;
                }
            } catch (IOException e) {
                return null;
            }
            Thread.sleep(250);
        }
        return null;
    }

    /** The Markdown of docs/benchmarks.md, with the goals of issue 33. */
    public String markdown(Result r) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%,d simulated instances × %d nights (%,d backup rows) stored into one "
                        + "PostgreSQL 15 through the collectors' store code in %d s, %d agents a transaction (%s, at %s); "
                        + "then %d collectors started together on it, each in its own JVM with its alert stage: first on the "
                        + "store without summaries (every instance built from its rows), then, with %,d instance summaries "
                        + "written, stopped and started again (restart). First evaluation: from a collector's start until "
                        + "`%s` answers 200 (503 before). Minute: the collector's CPU over %d s, %d s after the restart's "
                        + "first evaluations (one evaluation each, no ingest), and the same minute by kind of thread: the alert "
                        + "stage's, the store's, the JIT's compilers, G1's and the rest (`/proc/<pid>/task`). Heap: live objects after the full collection "
                        + "of `jcmd GC.class_histogram`, at the end. Instances: what the collector's alert stage holds at the "
                        + "minute's end (`qatwatch_alert_instances`), and how many of them it restored from their summaries or "
                        + "built from their rows since the restart (each read from the store: a collector reading beyond its "
                        + "slices would show more). Goals (issue 33): heap ≤ 2 GiB, first evaluation ≤ 60 s, minute ≤ 1 s of "
                        + "CPU, each; reads only its own slices' rows. Server JVM: `%s`.%n%n",
                settings.instances(), settings.nights(), r.backupRows(), r.fill().toSeconds(), FILL_BATCH,
                r.reused() ? "an earlier run's fill, reused" : "this run's fill", r.filledAt(), settings.collectors(),
                r.summaries(), FIRST_EVALUATION, settings.minute().toSeconds(), settings.settle().toSeconds(),
                String.join(" ", settings.serverJvm())));
        md.append("| collector | first start: first evaluation s | stop after it: s from SIGTERM | restart: first "
                + "evaluation s | minute: CPU s | minute, s: stage / store / JIT / GC / other | heap after full GC MiB | RSS MiB | instances held | restored / rebuilt since the "
                + "restart | note |\n");
        md.append("|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|\n");
        long held = 0;
        for (Collector c : r.collectors()) {
            held += c.stage() == null ? 0 : c.stage().held();
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s |%n", c.index(),
                    seconds(c.firstStart()), c.stop() == null ? "killed after 30" : seconds(c.stop()), seconds(c.afterRestart()),
                    c.minuteCpu() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", c.minuteCpu().toMillis() / 1000.0),
                    c.minuteSplit(), c.heapBytes() < 0 ? "n/a" : Long.toString(c.heapBytes() >> 20), c.rssBytes() >> 20,
                    c.stage() == null ? "n/a" : String.format(Locale.ROOT, "%,d", c.stage().held()),
                    c.stage() == null ? "n/a" : String.format(Locale.ROOT, "%,d / %,d", c.stage().restored(), c.stage().rebuilt()),
                    c.failure() == null ? "" : c.failure()));
        }
        md.append(String.format(Locale.ROOT, "%nInstances held by the %d collectors together: %,d of %,d.%n",
                r.collectors().size(), held, settings.instances()));
        md.append("\nThe restart's CPU from each collector's start to its first evaluation, by kind of thread (s; threads that "
                + "ended before it, e.g. the store's read-ahead, are not counted):\n\n| collector | stage / store / JIT / GC / other |\n"
                + "|---:|---|\n");
        for (Collector c : r.collectors()) {
            md.append(String.format(Locale.ROOT, "| %d | %s |%n", c.index(), c.restartSplit()));
        }
        return md.toString();
    }

    private static String seconds(Duration d) {
        return d == null ? "not served" : String.format(Locale.ROOT, "%.1f", d.toMillis() / 1000.0);
    }
}
