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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Status pages at fleet size (issue 32 item 8): a SQLite store filled through the collector's store code with
 * {@code instances} simulated agents' history, a collector process on it with its alert stage, and once its first
 * evaluation is served, the fleet page, host pages and database pages each asked {@code repeats} times one after the
 * other on loopback, a different host each time. Reported: each page's p50, p99 and max from request to last byte,
 * which bounds the server's render time from above (loopback adds well under a millisecond).
 */
public final class PagesBenchmark {

    /** The goal: every page under 200 ms server-side at 10,000 instances. */
    static final double GOAL_MS = 200;
    static final int GOAL_INSTANCES = 10_000;
    private static final int FILL_BATCH = 500;

    /**
     * How to run it.
     *
     * @param instances simulated agents, one SQL Server instance each
     * @param nights    nights of history per instance (the database page's lookback is 30 days)
     * @param repeats   requests per page after the untimed warm-up requests
     * @param warmup    untimed requests per page first (1 by default; more leave the JIT's work out)
     */
    public record Settings(int instances, int nights, int repeats, int warmup, List<String> serverJvm, Path workDir) {
    }

    /** A page kind and the path of its {@code r}-th request in a fleet of {@code n} hosts. */
    record Page(String label, PathOf path) {
    }

    /** The path of a page's {@code request}-th request in a fleet of {@code instances}. */
    interface PathOf {
        String of(int request, int instances);
    }

    /** The host of the {@code r}-th request: spread over the fleet, sql0 (a creeping host) first. */
    static String host(int request, int instances) {
        return new SimulatedAgent((int) ((long) request * 7919 % instances)).host();
    }

    static final List<Page> PAGES = List.of(
            new Page("fleet page `/` (summary, first 50 hosts, their compact windows charts)", (r, n) -> "/"),
            new Page("fleet page, a deep page `/?after=`", (r, n) -> "/?after=" + GrowthBenchmark.deepHost(n)),
            new Page("host page `/hosts/{host}` (windows chart, job timeline, alerts)", (r, n) -> "/hosts/" + host(r, n)),
            new Page("database page `/hosts/{host}/MSSQLSERVER/{database}` (30 days of backups)",
                    (r, n) -> "/hosts/" + host(r, n) + "/" + SimulatedAgent.INSTANCE + "/"
                            + new SimulatedAgent(0).databases().get(r % SimulatedAgent.DATABASES).name()));

    /**
     * One page's timings; {@code bytes}: the mean body of its timed requests (of the warm-up request when none was
     * timed); {@code error} says why it was not measured (null when it was); {@code requests}: each timed request's
     * {@code [start, end]} in epoch milliseconds, to set beside the server's GC pauses.
     */
    public record Timing(String label, String example, int status, long bytes, LatencyRecorder latencies, String error,
                         List<long[]> requests) {

        Timing(String label, String example, int status, long bytes, LatencyRecorder latencies, String error) {
            this(label, example, status, bytes, latencies, error, List.of());
        }
    }

    /**
     * The server's stop-the-world GC pauses that fell inside a page's timed requests: how many, the longest, and how
     * many of the requests slower than twice the median had one inside them.
     */
    public record PausesIn(int pauses, double longestMillis, String longestKind, int slowRequests, int slowWithPause) {

        static PausesIn of(Timing t, List<GcPauses.Pause> all) {
            List<GcPauses.Pause> in = GcPauses.within(all, t.requests());
            GcPauses.Pause longest = in.stream().max(java.util.Comparator.comparingDouble(GcPauses.Pause::millis)).orElse(null);
            double slow = 2 * IngestBenchmark.ms(t.latencies().percentile(50));
            int slowRequests = 0;
            int slowWithPause = 0;
            for (long[] r : t.requests()) {
                if (r[1] - r[0] > slow) {
                    slowRequests++;
                    if (!GcPauses.within(in, List.<long[]>of(r)).isEmpty()) {
                        slowWithPause++;
                    }
                }
            }
            return new PausesIn(in.size(), longest == null ? 0 : longest.millis(), longest == null ? null : longest.kind(),
                    slowRequests, slowWithPause);
        }
    }

    /** The run: store size, how long the fill and the first evaluation took, and each page's timing. */
    public record Result(int instances, int nights, long backupRows, Duration fill, Duration firstEvaluation,
                         List<Timing> pages, String failure, List<GcPauses.Pause> gcPauses) {
    }

    private final Settings settings;

    public PagesBenchmark(Settings settings) {
        this.settings = settings;
    }

    public Result run(BenchLog log) throws Exception {
        Path dir = settings.workDir().resolve("pages-" + settings.instances());
        GrowthBenchmark.deleteTree(dir);
        long started = System.nanoTime();
        long rows = fill(dir, log);
        Duration fill = Duration.ofNanos(System.nanoTime() - started);
        log.say(String.format(Locale.ROOT, "pages: %d instances, %d backup rows stored in %d s", settings.instances(), rows,
                fill.toSeconds()));
        List<String> jvm = new ArrayList<>(settings.serverJvm());
        jvm.add("-XX:+ExitOnOutOfMemoryError");
        // its pauses, to tell a page's slow requests that a collection stopped from slow pages
        Path gcLog = settings.workDir().resolve("pages-" + settings.instances() + ".gc.log");
        java.nio.file.Files.deleteIfExists(gcLog);
        jvm.add(GcPauses.logOption(gcLog));
        try (ServerProcess server = ServerProcess.start("pages-" + settings.instances(), jvm,
                List.of("collector", "--data", dir.toString(), "--reader"), settings.workDir())) {
            String token = server.tokens().get("bench-reader");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            Duration first = GrowthBenchmark.awaitFirstEvaluation(http, server, token);
            log.say("pages: first alert evaluation served after " + (first == null ? "never" : first.toMillis() + " ms"));
            List<Timing> pages = new ArrayList<>();
            for (Page p : PAGES) {
                Timing t = first == null || !server.alive()
                        ? new Timing(p.label(), p.path().of(0, settings.instances()), -1, 0, new LatencyRecorder(),
                                "not asked: the collector's first evaluation never came")
                        : time(http, server.port(), token, p);
                pages.add(t);
                log.say(String.format(Locale.ROOT, "pages: %s: %s", p.label(), t.error() != null ? t.error()
                        : String.format(Locale.ROOT, "%,d bytes, p50 %.1f ms, p99 %.1f ms", t.bytes(),
                                IngestBenchmark.ms(t.latencies().percentile(50)), IngestBenchmark.ms(t.latencies().percentile(99)))));
            }
            return new Result(settings.instances(), settings.nights(), rows, fill, first, pages, server.exitReason(),
                    GcPauses.read(gcLog));
        }
    }

    private long fill(Path dir, BenchLog log) throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        try (Database db = Database.open(dir)) {
            BenchFill.fast(db);
            new TokenStore(db);
            long rows = BenchFill.history(new SqlReportStore(db), settings.instances(), settings.nights(), now, FILL_BATCH,
                    "pages", log);
            BenchFill.checkpoint(db);
            return rows;
        }
    }

    /** The warm-up requests, then {@code repeats} timed ones, each its own host (or the same page for the fleet). */
    private Timing time(HttpClient http, int port, String token, Page page) {
        LatencyRecorder latencies = new LatencyRecorder();
        String example = page.path().of(0, settings.instances());
        try {
            long bytes = 0;
            for (int w = 0; w < Math.max(1, settings.warmup()); w++) {
                HttpResponse<InputStream> warm = http.send(request(port, token, w == 0 ? example
                        : page.path().of(settings.repeats() + w, settings.instances())), HttpResponse.BodyHandlers.ofInputStream());
                bytes = GrowthBenchmark.drain(warm.body());
                if (warm.statusCode() != 200) {
                    return new Timing(page.label(), example, warm.statusCode(), bytes, latencies, "HTTP " + warm.statusCode());
                }
            }
            long timedBytes = 0;
            List<long[]> spans = new ArrayList<>();
            for (int r = 1; r <= settings.repeats(); r++) {
                HttpRequest request = request(port, token, page.path().of(r, settings.instances()));
                long startedAt = System.currentTimeMillis();
                long t0 = System.nanoTime();
                HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                timedBytes += GrowthBenchmark.drain(response.body());
                long elapsed = System.nanoTime() - t0;
                if (response.statusCode() != 200) {
                    return new Timing(page.label(), request.uri().getPath(), response.statusCode(), bytes, latencies,
                            "HTTP " + response.statusCode() + " for " + request.uri());
                }
                latencies.record(elapsed);
                spans.add(new long[] {startedAt, startedAt + Math.max(1, elapsed / 1_000_000)});
            }
            return new Timing(page.label(), example, 200, settings.repeats() > 0 ? timedBytes / settings.repeats() : bytes,
                    latencies, null, spans);
        } catch (IOException | InterruptedException e) {
            return new Timing(page.label(), example, -1, 0, latencies, e.toString());
        }
    }

    private static HttpRequest request(int port, String token, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofMinutes(1))
                .header("Authorization", "Bearer " + token).GET().build();
    }

    public String markdown(Result r) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d instances × %d nights (%d databases each, %d backup rows) in a SQLite store "
                        + "filled through the collector's store code; a collector process with its alert stage on it; after its "
                        + "first evaluation (%s), each page asked %s untimed, then %d times one after the other on loopback, "
                        + "a different host each time. Milliseconds from request to last byte: the server's render time plus "
                        + "loopback; bytes: the mean page.%n%n", r.instances(), r.nights(), SimulatedAgent.DATABASES, r.backupRows(),
                r.firstEvaluation() == null ? "never came" : String.format(Locale.ROOT, "%.1f s after start",
                        r.firstEvaluation().toMillis() / 1000.0), settings.warmup() <= 1 ? "once" : settings.warmup() + " times",
                settings.repeats()));
        md.append("| page | bytes | p50 ms | p99 ms | max ms | GC pauses in its timed requests (longest ms) "
                + "| requests over 2 × p50 (of them with a GC pause) |\n|---|---:|---:|---:|---:|---:|---:|\n");
        boolean judged = r.instances() >= GOAL_INSTANCES;
        List<String> verdicts = new ArrayList<>();
        for (Timing t : r.pages()) {
            if (t.error() != null) {
                md.append("| ").append(t.label()).append(" | failed: ").append(t.error().replace('|', '/')).append(" | | | | | |\n");
                verdicts.add("- " + t.label() + ": **not measured**");
                continue;
            }
            double p99 = IngestBenchmark.ms(t.latencies().percentile(99));
            PausesIn gc = PausesIn.of(t, r.gcPauses());
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %d (%.1f%s) | %d (%d) |%n", t.label(), t.bytes(),
                    IngestBenchmark.ms(t.latencies().percentile(50)), p99, IngestBenchmark.ms(t.latencies().max()), gc.pauses(),
                    gc.longestMillis(), gc.longestKind() == null ? "" : ", " + gc.longestKind(), gc.slowRequests(),
                    gc.slowWithPause()));
            verdicts.add(String.format(Locale.ROOT, "- %s: p99 %.1f ms (goal < %.0f ms at %d instances): %s", t.label(), p99,
                    GOAL_MS, GOAL_INSTANCES, judged ? IngestBenchmark.verdict(p99 < GOAL_MS) : "not judged at this size"));
        }
        md.append("\nGC pauses: the collector's stop-the-world pauses (its `-Xlog:gc` log) that overlap a timed request; "
                + "a slow request with none inside it was slow for another reason.\n\n");
        verdicts.forEach(v -> md.append(v).append('\n'));
        if (r.failure() != null) {
            md.append("- **the collector ").append(r.failure().replace('|', '/')).append("**\n");
        }
        return md.toString();
    }
}
