package io.qatwatch.bench;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.TokenStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Growth with fleet size: for each size, a store filled through the collector's own store code with that
 * many agents' history ({@code nights} nights of one backup per database), its size on disk per backup
 * row, and the API endpoints' and status page's response times (first page, a deep page by cursor, filters)
 * served by a collector process on that store.
 */
public final class GrowthBenchmark {

    /** One instance's windows: stands for every per-instance query, and tells when the first evaluation is served. */
    static final String WINDOWS = "/api/v1/instances/sql0/" + SimulatedAgent.INSTANCE + "/windows";

    /** A request timed at every fleet size: how the table names it, and its path for a fleet of that size. */
    record Endpoint(String label, IntFunction<String> path) {
    }

    /** Endpoints timed; "deep" is the host 90 % of the way through the fleet in host-name order. */
    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("`/api/v1/fleet` (default page, 1,000 hosts)", n -> "/api/v1/fleet"),
            new Endpoint("`/api/v1/fleet?limit=100`", n -> "/api/v1/fleet?limit=100"),
            new Endpoint("`/api/v1/fleet?limit=100&after=`deep", n -> "/api/v1/fleet?limit=100&after=" + deepHost(n)),
            new Endpoint("`/api/v1/fleet?host=sql1*&limit=100`", n -> "/api/v1/fleet?host=sql1*&limit=100"),
            new Endpoint("`/api/v1/fleet?state=problem&limit=100` (none match: scans the fleet)",
                    n -> "/api/v1/fleet?state=problem&limit=100"),
            new Endpoint("`/api/v1/alerts`", n -> "/api/v1/alerts"),
            new Endpoint("`" + WINDOWS + "`", n -> WINDOWS),
            new Endpoint("`/metrics`", n -> "/metrics"),
            new Endpoint("`/` (status page: summary, first 50 hosts)", n -> "/"),
            new Endpoint("`/?after=`deep", n -> "/?after=" + deepHost(n)),
            new Endpoint("`/?state=problem` (none match: scans the fleet)", n -> "/?state=problem"));

    /** Agents stored per transaction by the fill (the store's group commit). */
    private static final int FILL_BATCH = 500;

    private static final int WARM_REPEATS = 5;
    private static final Duration EVALUATION_LIMIT = Duration.ofMinutes(5);
    /** A first answer slower than this is not repeated. */
    private static final double SLOW_MS = 10_000;

    /**
     * How to run it: fleet sizes (agents) and nights of history per agent.
     *
     * @param ingest how long to post new reports flat out at each size (zero: skip)
     */
    public record Settings(List<Integer> fleetSizes, int nights, List<String> serverJvm, Path workDir, Duration ingest) {
    }

    /** Agents (of the fleet's first) that post new reports in the ingest-at-size run. */
    private static final int INGEST_AGENTS = 100;
    private static final int INGEST_CONNECTIONS = 16;

    /** One endpoint at one fleet size; {@code status} is the HTTP status (or -1 when it failed). */
    public record Query(String path, int status, double coldMs, double warmMedianMs, long bytes, String error) {
    }

    /**
     * One fleet size.
     *
     * @param rssBytes the collector's resident size after the read endpoints and the ingest phase
     * @param heap     what of that RSS is heap: committed, live after a full collection, and the RSS after it
     * @param failure  why the collector stopped serving (e.g. it ran out of heap), or null
     * @param readSide after a failure, the endpoints from a collector without its alert stage; else null
     */
    public record Size(int agents, long backupRows, long storeBytes, Duration fill, long rssBytes, Heap heap,
            List<Query> queries, LoadDriver.Run ingest, Duration firstEvaluation, String failure, List<Query> readSide) {

        double bytesPerBackupRow() {
            return backupRows == 0 ? 0 : (double) storeBytes / backupRows;
        }
    }

    /**
     * The collector's heap at the end of a size: committed (without collecting), then live (its class histogram, which
     * collects fully first), then the process's RSS after that collection, and then, when the server JVM runs with
     * {@code -XX:NativeMemoryTracking=summary}, what it has committed per category (empty without). -1 where not measured.
     */
    public record Heap(long committedBytes, long liveBytes, long rssAfterBytes, Map<String, Long> nativeCommitted) {

        static final Heap NOT_MEASURED = new Heap(-1, -1, -1, Map.of());

        static Heap of(ServerProcess server) throws InterruptedException {
            long committed = JcmdHeap.committedBytes(server.pid());
            long live = JcmdHeap.liveBytes(server.pid());
            long settled = settledRss(server);
            return new Heap(committed, live, settled, JcmdHeap.nativeCommitted(server.pid()));
        }

        /**
         * The RSS once it stops falling: JDK 17's G1 gives back the regions a full collection shrank the heap by on a
         * thread of its own, after the collection (so a sample taken at once still counts them). Sampled each second
         * until a sample is within 1 MiB of the one before, for at most 30 s.
         */
        private static long settledRss(ServerProcess server) throws InterruptedException {
            long before = server.sample().rssBytes();
            for (int n = 0; n < 30; n++) {
                Thread.sleep(1000);
                long now = server.sample().rssBytes();
                if (before - now < 1 << 20) {
                    return now;
                }
                before = now;
            }
            return before;
        }
    }

    private final Settings settings;

    public GrowthBenchmark(Settings settings) {
        this.settings = settings;
    }

    public List<Size> run(BenchLog log) throws Exception {
        List<Size> sizes = new ArrayList<>();
        // a collector out of heap exits at once and says so, rather than thrash in GC until the limits below
        List<String> jvm = new ArrayList<>(settings.serverJvm());
        jvm.add("-XX:+ExitOnOutOfMemoryError");
        for (int agents : settings.fleetSizes()) {
            Path dir = settings.workDir().resolve("growth-" + agents);
            deleteTree(dir);
            long started = System.nanoTime();
            long rows = fill(dir, agents, Instant.now().truncatedTo(ChronoUnit.SECONDS), log);
            Duration fill = Duration.ofNanos(System.nanoTime() - started);
            long bytes = directorySize(dir);
            log.say(String.format(Locale.ROOT, "growth: %d agents, %d backup rows, %d MiB in %d s", agents, rows,
                    bytes >> 20, fill.toSeconds()));
            int posting = Math.min(INGEST_AGENTS, agents);
            try (ServerProcess server = ServerProcess.start("growth-" + agents, jvm,
                    List.of("collector", "--data", dir.toString(), "--reader", "--agents", Integer.toString(posting)),
                    settings.workDir())) {
                String token = server.tokens().get("bench-reader");
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
                Duration firstEvaluation = awaitFirstEvaluation(http, server, token);
                log.say("growth: " + agents + " agents, first alert evaluation answered after "
                        + (firstEvaluation != null ? firstEvaluation.toMillis() + " ms"
                                : server.alive() ? "never (gave up)" : "never (the collector exited)"));
                List<Query> queries = timeEndpoints(http, server, token, agents, log);
                LoadDriver.Run ingest = settings.ingest().isZero() || !server.alive() ? null : ingest(server, posting);
                if (ingest != null) {
                    log.say(String.format(Locale.ROOT, "growth: %d agents, ingest %.0f reports/s, p99 %.1f ms", agents,
                            ingest.acceptedPerSecond(), IngestBenchmark.ms(ingest.latencies().percentile(99))));
                }
                String failure = server.exitReason();
                if (failure != null) {
                    log.say("growth: " + agents + " agents: the collector " + failure + "; its log: " + server.log());
                }
                List<Query> readSide = failure == null ? null : readSideAlone(dir, agents, http, log);
                long rss = server.sample().rssBytes();
                Heap heap = server.alive() ? Heap.of(server) : Heap.NOT_MEASURED;
                log.say(String.format(Locale.ROOT, "growth: %d agents, RSS %d MiB, heap committed %d MiB, live %d MiB, "
                        + "RSS after a full collection %d MiB", agents, rss >> 20, heap.committedBytes() >> 20,
                        heap.liveBytes() >> 20, heap.rssAfterBytes() >> 20));
                sizes.add(new Size(agents, rows, bytes, fill, rss, heap, queries, ingest, firstEvaluation, failure,
                        readSide));
            }
        }
        return sizes;
    }

    private static List<Query> timeEndpoints(HttpClient http, ServerProcess server, String token, int agents, BenchLog log) {
        List<Query> queries = new ArrayList<>();
        for (Endpoint e : ENDPOINTS) {
            Query q = server.alive() ? time(http, server.port(), e.path().apply(agents), token)
                    : new Query(e.path().apply(agents), -1, 0, 0, 0, "not asked, the collector had exited");
            queries.add(q);
            log.say("growth: " + agents + " agents " + describe(q));
        }
        return queries;
    }

    /**
     * When the whole collector failed (its alert stage loads the fleet's history), the same endpoints from a
     * collector without the alert stage: what the read side alone costs at this size.
     */
    private List<Query> readSideAlone(Path dir, int agents, HttpClient http, BenchLog log) throws Exception {
        List<String> jvm = new ArrayList<>(settings.serverJvm());
        jvm.add("-XX:+ExitOnOutOfMemoryError");
        log.say("growth: " + agents + " agents: timing the read side alone (a collector without its alert stage)");
        try (ServerProcess server = ServerProcess.start("growth-" + agents + "-read-side", jvm,
                List.of("collector", "--data", dir.toString(), "--reader", "--no-alert-stage"), settings.workDir())) {
            List<Query> queries = timeEndpoints(http, server, server.tokens().get("bench-reader"), agents, log);
            if (server.exitReason() != null) {
                log.say("growth: " + agents + " agents, read side alone: the collector " + server.exitReason());
            }
            return queries;
        }
    }

    /** The host 90 % of the way through {@code agents} simulated hosts in host-name order: a deep cursor. */
    static String deepHost(int agents) {
        List<String> names = new ArrayList<>(agents);
        for (int i = 0; i < agents; i++) {
            names.add(new SimulatedAgent(i).host());
        }
        names.sort(Comparator.naturalOrder());
        return names.get(Math.min(agents - 1, agents * 9 / 10));
    }

    /**
     * How long after start the collector's first alert evaluation (which loads the whole fleet's history) is
     * visible: the windows endpoint answers 404 until then. Null when it did not come within the limit.
     */
    static Duration awaitFirstEvaluation(HttpClient http, ServerProcess server, String token)
            throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + WINDOWS))
                .timeout(Duration.ofMinutes(1)).header("Authorization", "Bearer " + token).GET().build();
        long started = System.nanoTime();
        while (System.nanoTime() - started < EVALUATION_LIMIT.toNanos() && server.alive()) {
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 404) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            } catch (IOException e) {
                return null;
            }
            Thread.sleep(250);
        }
        return null;
    }

    /** New reports from the fleet's first agents, flat out, into the filled store: does ingest slow as it grows? */
    private LoadDriver.Run ingest(ServerProcess server, int posting) throws Exception {
        List<LoadDriver.Agent> agents = new java.util.ArrayList<>();
        Instant now = Instant.now();
        for (int i = 0; i < posting; i++) {
            ReportTemplate t = ReportTemplate.of(new SimulatedAgent(i), now, "grow", 1_000_000_000L);
            agents.add(new LoadDriver.Agent(t, server.tokens().get(t.host())));
        }
        try (LoadDriver driver = new LoadDriver(server.port(), "/api/v1/reports", agents, INGEST_CONNECTIONS)) {
            driver.maxRate(INGEST_CONNECTIONS, settings.ingest().dividedBy(3));
            return driver.maxRate(INGEST_CONNECTIONS, settings.ingest());
        }
    }

    /**
     * Stores {@code agents} agents' history, one report each, through {@link SqlReportStore#storeAll} in
     * transactions of {@value #FILL_BATCH} agents, as of {@code now}; returns backup rows.
     */
    long fill(Path dir, int agents, Instant now, BenchLog log) throws Exception {
        try (Database db = Database.open(dir)) {
            BenchFill.fast(db);
            new TokenStore(db);
            long rows = BenchFill.history(new SqlReportStore(db), agents, settings.nights(), now, FILL_BATCH, "growth", log);
            BenchFill.checkpoint(db);
            return rows;
        }
    }

    private static Query time(HttpClient http, int port, String path, String token) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofMinutes(2)).header("Authorization", "Bearer " + token).GET().build();
        try {
            long t0 = System.nanoTime();
            HttpResponse<InputStream> first = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            long bytes = drain(first.body());
            double cold = (System.nanoTime() - t0) / 1e6;
            if (cold > SLOW_MS) {
                // one slow answer says enough; repeating it would only stretch the run
                return new Query(path, first.statusCode(), cold, Double.NaN, bytes, null);
            }
            double[] warm = new double[WARM_REPEATS];
            for (int i = 0; i < WARM_REPEATS; i++) {
                long t = System.nanoTime();
                drain(http.send(request, HttpResponse.BodyHandlers.ofInputStream()).body());
                warm[i] = (System.nanoTime() - t) / 1e6;
            }
            Arrays.sort(warm);
            return new Query(path, first.statusCode(), cold, warm[WARM_REPEATS / 2], bytes, null);
        } catch (IOException | InterruptedException e) {
            return new Query(path, -1, 0, 0, 0, e.toString());
        }
    }

    /** Reads a body to its end without keeping it (a status page of 100,000 hosts is hundreds of MB). */
    static long drain(InputStream body) throws IOException {
        try (InputStream in = body) {
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
            }
            return total;
        }
    }

    private static String describe(Query q) {
        return q.error() != null ? q.path() + " failed: " + q.error()
                : String.format(Locale.ROOT, "%s: %d, cold %.1f ms, warm %.1f ms, %d bytes", q.path(), q.status(),
                        q.coldMs(), q.warmMedianMs(), q.bytes());
    }

    public String markdown(List<Size> sizes) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Each agent: 1 instance, %d databases, %d nights of one backup per "
                + "database and the latest log backup of each database in full recovery, stored through the "
                + "collector's store code (one report per agent, %d agents per transaction). First evaluation: how "
                + "long after start the collector's first alert evaluation (the whole fleet's history loaded) is "
                + "served; the collector runs with `-XX:+ExitOnOutOfMemoryError`, so running out of heap shows as a "
                + "failure. Query times: first request, then the median of %d more, served by a collector process on "
                + "that store; *deep* is a cursor 90 %% of the way through the fleet in host-name order. Ingest: the "
                + "first %d agents post new reports flat out over %d connections for %d s into that store. Then the "
                + "collector's RSS, the heap it has committed (`jcmd GC.heap_info`), its live heap (`jcmd "
                + "GC.class_histogram`, which collects fully first) and its RSS after that collection, once it stops falling.%n%n",
                SimulatedAgent.DATABASES, settings.nights(), FILL_BATCH, WARM_REPEATS, INGEST_AGENTS, INGEST_CONNECTIONS,
                settings.ingest().toSeconds()));
        md.append("| agents | backup rows | store MiB | bytes/backup row | fill s | first evaluation s "
                + "| collector RSS MiB | heap committed MiB | live heap MiB | RSS after a full GC MiB "
                + "| ingest reports/s | ingest p99 ms |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Size s : sizes) {
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %.0f | %d | %s | %s | %s | %s | %s | %s | %s |%n", s.agents(),
                    s.backupRows(), s.storeBytes() >> 20, s.bytesPerBackupRow(), s.fill().toSeconds(),
                    s.firstEvaluation() != null ? String.format(Locale.ROOT, "%.1f", s.firstEvaluation().toMillis() / 1000.0)
                            : s.failure() != null ? "**failed**" : "not within " + EVALUATION_LIMIT.toMinutes() + " min",
                    mib(s.rssBytes()), mib(s.heap().committedBytes()), mib(s.heap().liveBytes()),
                    mib(s.heap().rssAfterBytes()),
                    s.ingest() == null ? "–" : String.format(Locale.ROOT, "%.0f", s.ingest().acceptedPerSecond()),
                    s.ingest() == null ? "–" : String.format(Locale.ROOT, "%.1f",
                            IngestBenchmark.ms(s.ingest().latencies().percentile(99)))));
        }
        for (Size s : sizes) {
            if (s.failure() != null) {
                md.append(String.format(Locale.ROOT, "%n- **%d agents: the collector %s**%n", s.agents(),
                        s.failure().replace('|', '/')));
            }
        }
        for (Size s : sizes) {
            Map<String, Long> nmt = s.heap().nativeCommitted();
            if (!nmt.isEmpty()) {
                md.append(String.format(Locale.ROOT, "%n%d agents, after the full collection: RSS %s MiB; the JVM's native "
                        + "memory tracking (`jcmd VM.native_memory summary`), committed MiB: ", s.agents(), mib(s.heap().rssAfterBytes())));
                md.append(nmt.entrySet().stream().filter(e -> e.getValue() >= 1 << 20 || e.getKey().equals("Total"))
                        .map(e -> e.getKey() + " " + mib(e.getValue())).collect(java.util.stream.Collectors.joining(", ")));
                long total = nmt.getOrDefault("Total", -1L);
                md.append(String.format(Locale.ROOT, "; RSS beyond what it tracks (the native libraries' own allocations, "
                        + "SQLite's page caches among them, and the C allocator's free memory) %s MiB "
                        + "(negative: committed but not resident).%n", total < 0 ? "?" : Long.toString((s.heap().rssAfterBytes() - total) >> 20)));
            }
        }
        endpointTable(md, sizes, Size::queries);
        List<Size> failed = sizes.stream().filter(z -> z.readSide() != null).toList();
        if (!failed.isEmpty()) {
            md.append("\nThe read side alone, where the whole collector failed: the same requests to a collector started "
                    + "without its alert stage on the same store (`/api/v1/alerts` and the windows then answer 503).\n");
            endpointTable(md, failed, Size::readSide);
        }
        return md.toString();
    }

    private static void endpointTable(StringBuilder md, List<Size> sizes, Function<Size, List<Query>> queries) {
        md.append("\n| endpoint |");
        for (Size s : sizes) {
            md.append(' ').append(s.agents()).append(" agents: first / warm ms (bytes) |");
        }
        md.append("\n|---|").append("---:|".repeat(sizes.size())).append('\n');
        for (int e = 0; e < ENDPOINTS.size(); e++) {
            md.append("| ").append(ENDPOINTS.get(e).label()).append(" |");
            for (Size s : sizes) {
                Query q = queries.apply(s).get(e);
                if (q.error() != null) {
                    md.append(" failed: ").append(q.error().replace('|', '/')).append(" |");
                } else if (q.status() != 200) {
                    md.append(" HTTP ").append(q.status()).append(" |");
                } else {
                    md.append(String.format(Locale.ROOT, " %.1f / %s (%d) |", q.coldMs(), Double.isNaN(q.warmMedianMs())
                            ? "not repeated" : String.format(Locale.ROOT, "%.1f", q.warmMedianMs()), q.bytes()));
                }
            }
            md.append('\n');
        }
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "–" : Long.toString(bytes >> 20);
    }

    static long directorySize(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
