package io.qatwatch.bench;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.status.StatusPage;
import io.qatwatch.collector.web.status.StatusView;
import io.qatwatch.collector.web.status.StatusViews;
import io.qatwatch.collector.web.status.StatusWindows;
import io.qatwatch.collector.web.status.WindowCharts;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not a test: a main that estimates the fleet page's server-side cost between quiet benches (issue 32 item 8). It
 * fills a SQLite store with {@code instances} simulated agents × {@code nights} (once; the store is kept in
 * {@code dir} and reused), evaluates the fleet once on this thread as the alert stage would, then builds and renders
 * the fleet page ({@code /}, and a deep page) {@code renders} times, printing the median thread CPU of building the
 * view (store reads and analysis look-ups) and of rendering it, the bytes each allocates, the page's bytes and each
 * section's bytes. Thread CPU of one thread, so another build on the machine changes it little; the quiet bench's
 * milliseconds stay the figure. The simulated fleet raises few alerts; {@code alerts} adds warnings (one per host,
 * round the fleet) until that many are active, so the alerts' part of the page is in the figures too.
 *
 * <pre>java -cp ... io.qatwatch.bench.FleetPageCpu [instances=10000] [nights=30] [renders=20] [dir=/tmp/qatwatch-fleet-page-cpu] [alerts=0]</pre>
 */
public final class FleetPageCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** HotSpot's: the bytes this thread allocated, a figure the machine's load does not change. */
    private static final com.sun.management.ThreadMXBean ALLOCATED = (com.sun.management.ThreadMXBean) THREADS;
    private static final Pattern SECTION = Pattern.compile("<section id=\"([a-z-]+)\"");

    private FleetPageCpu() {
    }

    public static void main(String[] args) throws Exception {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int nights = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int renders = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Path dir = Path.of(args.length > 3 ? args[3] : "/tmp/qatwatch-fleet-page-cpu").resolve(instances + "x" + nights);
        int wanted = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        Instant now = fill(dir, instances, nights);
        AlertsConfig config = new AlertsConfig(null, null, null, new WindowSettings(false, false, nights), null, null, null)
                .validate();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            long c0 = THREADS.getCurrentThreadCpuTime();
            LiveFleet.Refresh refresh = new LiveFleet(config.analysis(), h -> Set.of()).refresh(store, now);
            AlertEvaluator.Evaluation e = config.evaluator().evaluate(refresh.analysis());
            System.out.printf(Locale.ROOT, "evaluated %d instances in %.1f s of CPU: %d alerts%n", refresh.rebuilt(),
                    (THREADS.getCurrentThreadCpuTime() - c0) / 1e9, e.alerts().size());
            List<AlertsView.ActiveAlert> active = new java.util.ArrayList<>(e.alerts().stream().map(a -> new AlertsView.ActiveAlert(
                    a.id(), a.rule(), a.severity().label(), a.host(), a.instance(), a.database(), a.summary(), a.details(), now))
                    .toList());
            for (int i = 0; active.size() < wanted; i++) {
                String host = "sql" + (i % instances);
                active.add(new AlertsView.ActiveAlert("synthetic-" + i, "restore-untested", "warning", host, "MSSQLSERVER",
                        "db" + i / instances, "No restore test of db" + i / instances + " on " + host + " in 30 days",
                        "Its last full backup was never restored anywhere in the fleet.", now.minusSeconds(i)));
            }
            System.out.printf(Locale.ROOT, "active alerts: %d (%d synthetic)%n", active.size(), active.size() - e.alerts().size());
            AlertsView alerts = new AlertsView() {
                @Override
                public List<ActiveAlert> active() {
                    return active;
                }

                @Override
                public List<ResolvedAlert> resolved(String host, int limit) {
                    return List.of();
                }

                @Override
                public List<ChannelHealth> channels() {
                    return List.of();
                }
            };
            WindowCharts charts = (at, hosts) -> StatusWindows.of(e.analysis(), hosts);
            CompressionView compression = () -> e.analysis().compression();
            // as the server builds its pages: the fleet's hosts kept between pages, read again only when they change
            io.qatwatch.collector.web.FleetRoster roster = new io.qatwatch.collector.web.FleetRoster(store);
            String deep = GrowthBenchmark.deepHost(instances);
            for (String page : List.of("/", "/?after=" + deep)) {
                FleetQuery query = page.equals("/") ? FleetQuery.parse(io.vertx.core.MultiMap.caseInsensitiveMultiMap(), 50, 500)
                        : FleetQuery.parse(io.vertx.core.MultiMap.caseInsensitiveMultiMap().add("after", deep), 50, 500);
                long[] build = new long[renders];
                long[] render = new long[renders];
                long[] buildBytes = new long[renders];
                long[] renderBytes = new long[renders];
                String html = null;
                for (int r = -5; r < renders; r++) {
                    long a0 = ALLOCATED.getCurrentThreadAllocatedBytes();
                    long b0 = THREADS.getCurrentThreadCpuTime();
                    StatusView view = StatusViews.fromStore(store, roster::hostsSeen, alerts, charts, compression, h -> null,
                            h -> Set.of(), 15, query, 50, now);
                    long b1 = THREADS.getCurrentThreadCpuTime();
                    long a1 = ALLOCATED.getCurrentThreadAllocatedBytes();
                    html = StatusPage.render(view);
                    long b2 = THREADS.getCurrentThreadCpuTime();
                    long a2 = ALLOCATED.getCurrentThreadAllocatedBytes();
                    if (r >= 0) {
                        build[r] = b1 - b0;
                        render[r] = b2 - b1;
                        buildBytes[r] = a1 - a0;
                        renderBytes[r] = a2 - a1;
                    }
                }
                System.out.printf(Locale.ROOT, "%s: %d bytes; median thread CPU: view %.1f ms, render %.1f ms (min %.1f, %.1f)%n",
                        page, html.length(), median(build) / 1e6, median(render) / 1e6,
                        Arrays.stream(build).min().orElse(0) / 1e6, Arrays.stream(render).min().orElse(0) / 1e6);
                System.out.printf(Locale.ROOT, "  allocated (median): view %,d bytes, render %,d bytes%n", median(buildBytes),
                        median(renderBytes));
                sections(html);
                Files.writeString(dir.resolveSibling(page.equals("/") ? "fleet-page.html" : "deep-page.html"), html);
                steps(store, roster, alerts, charts, compression, query, now);
            }
        }
    }

    /**
     * The view's steps one by one, as {@link StatusViews#fromStore} takes them: where its CPU and allocations go (median
     * of 10 after 3 untimed).
     */
    private static void steps(SqlReportStore store, io.qatwatch.collector.web.FleetRoster roster, AlertsView alerts,
            WindowCharts charts, CompressionView compression, FleetQuery query, Instant now) throws Exception {
        java.util.Map<String, long[]> cpu = new java.util.LinkedHashMap<>();
        java.util.Map<String, long[]> bytes = new java.util.LinkedHashMap<>();
        for (int r = -3; r < 10; r++) {
            int round = r;
            Step step = (name, work) -> {
                long a0 = ALLOCATED.getCurrentThreadAllocatedBytes();
                long c0 = THREADS.getCurrentThreadCpuTime();
                Object out = work.call();
                if (round >= 0) {
                    cpu.computeIfAbsent(name, k -> new long[10])[round] = THREADS.getCurrentThreadCpuTime() - c0;
                    bytes.computeIfAbsent(name, k -> new long[10])[round] = ALLOCATED.getCurrentThreadAllocatedBytes() - a0;
                }
                return out;
            };
            var status = (io.qatwatch.collector.web.FleetStatus) step.time("alerts: FleetStatus.of",
                    () -> io.qatwatch.collector.web.FleetStatus.of(alerts.active(), now, 15, h -> null, h -> Set.of()));
            step.time("alerts: alertsOf, StatusViews.alerts (the 50 shown)", () -> StatusViews.alerts(
                    io.qatwatch.collector.web.FleetStatus.alertsOf(alerts.active(), query, h -> null, h -> Set.of()),
                    StatusViews.ALERTS_SHOWN));
            step.time("store.hostsSeen() (every host, read again)", store::hostsSeen);
            var seen = (List<?>) step.time("FleetRoster.hostsSeen() (nothing stored since)", roster::hostsSeen);
            @SuppressWarnings("unchecked")
            var hostsSeen = (List<io.qatwatch.collector.store.ReportStore.HostSeen>) seen;
            step.time("summarise", () -> status.summarise(hostsSeen));
            var page = (io.qatwatch.collector.web.FleetPage) step.time("store.fleetPage()",
                    () -> io.qatwatch.collector.web.FleetPage.read(store, status, query));
            Set<String> hosts = new java.util.TreeSet<>();
            page.rows().forEach(row -> hosts.add(row.host()));
            step.time("store.acceleratorChanges() per instance", () -> {
                for (var row : page.rows()) {
                    for (var i : row.instances()) {
                        store.acceleratorChanges(row.host(), i.name(), now.minus(java.time.Duration.ofDays(30)));
                    }
                }
                return null;
            });
            step.time("windows (StatusWindows.of)", () -> charts.lastNights(now, hosts));
            step.time("compression (StatusViews.compression)", () -> StatusViews.compression(compression.latest(), hosts));
        }
        cpu.forEach((name, times) -> System.out.printf(Locale.ROOT, "    %-42s %7.2f ms %,12d bytes allocated%n", name,
                median(times) / 1e6, median(bytes.get(name))));
    }

    /** One timed step of the view. */
    private interface Step {
        Object time(String name, java.util.concurrent.Callable<?> work) throws Exception;
    }

    /** Each section's share of the page, in characters (the page is ASCII but for a few names). */
    private static void sections(String html) {
        Matcher m = SECTION.matcher(html);
        String name = null;
        int from = 0;
        while (m.find()) {
            if (name != null) {
                System.out.printf(Locale.ROOT, "  %-12s %,9d%n", name, m.start() - from);
            }
            name = m.group(1);
            from = m.start();
        }
        if (name != null) {
            System.out.printf(Locale.ROOT, "  %-12s %,9d%n", name, html.length() - from);
        }
        System.out.printf(Locale.ROOT, "  svg in all  %,9d%n", svgChars(html));
    }

    private static long svgChars(String html) {
        long n = 0;
        for (int i = html.indexOf("<svg"); i >= 0; i = html.indexOf("<svg", i + 1)) {
            int end = html.indexOf("</svg>", i);
            n += end - i + 6;
        }
        return n;
    }

    private static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** Fills the store once; its "now" is kept beside it so a later run sees the same nights. */
    private static Instant fill(Path dir, int instances, int nights) throws Exception {
        Path ready = dir.resolve("filled-at");
        if (Files.exists(ready)) {
            return Instant.parse(Files.readString(ready).trim());
        }
        GrowthBenchmark.deleteTree(dir);
        Files.createDirectories(dir);
        Instant now = AnalysisBenchmark.NOW;
        long t0 = System.nanoTime();
        try (Database db = Database.open(dir)) {
            BenchFill.fast(db);
            long rows = BenchFill.history(new SqlReportStore(db), instances, nights, now, 500, "page-cpu",
                    line -> System.out.println(line));
            BenchFill.checkpoint(db);
            System.out.printf(Locale.ROOT, "filled %d backup rows in %d s%n", rows, (System.nanoTime() - t0) / 1_000_000_000L);
        }
        Files.writeString(ready, now.toString());
        return now;
    }
}
