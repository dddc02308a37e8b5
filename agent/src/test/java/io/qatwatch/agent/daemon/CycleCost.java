package io.qatwatch.agent.daemon;

import com.sun.net.httpserver.HttpServer;
import io.qatwatch.agent.AgentMain;
import io.qatwatch.agent.probe.sqlserver.FootprintMsdb;
import io.qatwatch.tds.TdsTestServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Not a test: what the agent daemon's steady cycles cost, counted rather than timed, for docs/benchmarks.md
 * ("Session 8: agent cycle cost"). The real daemon ({@code AgentMain agent}, so agents of older commits run the same way) in this
 * JVM against the TDS test server (sql2022-enterprise-hardware with a msdb of {@code rows} backups, a full backup
 * running) and a loopback collector that answers 202; after the first sync and {@code warm} cycles it counts, over
 * {@code cycles} cycles: the bytes each of the agent's threads allocated ({@code ThreadMXBean.getThreadAllocatedBytes},
 * exact, independent of the machine's load), their CPU time (load-dependent), the SQL batches the server received by
 * query, the reports and their bytes, and the classes loaded. A window starts and ends at the same point of a cycle:
 * when the server receives the cycle's first batch (SQL mode) or the collector a report (host mode).
 * <pre>
 *   scripts/agent-cycle-cost.sh [sql|sql-all|host] [ROWS] [WARM] [CYCLES]      (see the script)
 * </pre>
 */
public final class CycleCost {

    private static final Pattern MARKER = Pattern.compile("-- qatwatch query: ([\\w.-]+)");
    private static final Pattern TOP = Pattern.compile("SELECT TOP \\((\\d+)\\)");
    private static final Pattern AFTER = Pattern.compile("backup_set_id > (\\d+)");
    /** The JVM's own threads by their Linux names (15 characters at most), grouped: collector, compilers, VM thread. */
    private static final Pattern JVM_THREAD = Pattern.compile("(GC Thread|VM Thread|C1 CompilerThre|C2 CompilerThre|VM Periodic Tas"
            + "|Service Thread|Monitor Deflati|Sweeper thread|Notification Th|Signal Dispatch)");
    /** Threads of this harness, the TDS test server and the stand-in collector: not the agent's. */
    private static final Pattern HARNESS = Pattern.compile("main|tds-test-server.*|stub-collector.*|HTTP-Dispatcher|cycle-cost.*");
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** {@code -Dcycle-cost.reports=DIR} writes every report's JSON there (report-0001.json, ...), to see what a cycle sends. */
    private static final String DUMP = System.getProperty("cycle-cost.reports");

    private final Map<String, LongAdder> batches = new ConcurrentHashMap<>();
    private final AtomicLong cycleStarts = new AtomicLong();
    /** The newest backup set a history query has asked for so far (its page ends there or at msdb's last row). */
    private final AtomicLong asked = new AtomicLong();
    private final AtomicLong reports = new AtomicLong();
    /** Reports carrying an instance (a SQL cycle's), apart from host-only ones: the first sync ends with one per cycle. */
    private final AtomicLong sqlReports = new AtomicLong();
    private final AtomicLong gzipBytes = new AtomicLong();
    private final AtomicLong jsonBytes = new AtomicLong();
    private final AtomicReference<Window> window = new AtomicReference<>();
    /** The counts when the server received the agent's first batch: the first sync is measured from there. */
    private volatile Point first;

    /** The counts at one point of a cycle. */
    private record Point(Map<Long, String> names, Map<Long, long[]> threads, Map<String, Long> batches, long reports,
                         long gzipBytes, long jsonBytes, long classes, long gcCount, long gcMillis, Map<String, Long> jvm) {
    }

    /** A measuring window: from the cycle {@code from} to the cycle {@code to}. */
    private static final class Window {
        final long from;
        final long to;
        volatile Point start;
        volatile Point end;
        final CountDownLatch done = new CountDownLatch(1);

        Window(long from, long to) {
            this.from = from;
            this.to = to;
        }
    }

    private CycleCost() {
    }

    /**
     * Arguments: mode ({@code sql}: backups every 2 s, host hourly; {@code sql-all}: every SQL group every 2 s;
     * {@code sql-host}: backups and the host probe every 2 s, the footprint bench's cycle;
     * {@code host}: the host probe every 2 s, no SQL Server), backup rows (first sync), warm-up cycles, measured cycles.
     */
    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "sql";
        long rows = args.length > 1 ? Long.parseLong(args[1]) : 1_000;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int cycles = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        new CycleCost().run(mode, rows, warm, cycles);
        if (Boolean.getBoolean("cycle-cost.exit")) {
            // an orderly exit, so that -XX:DumpLoadedClassList writes its last lines (the lambda forms it logs at exit)
            System.exit(0);
        }
        Runtime.getRuntime().halt(0);
    }

    private void run(String mode, long rows, int warm, int cycles) throws Exception {
        Path dir = Files.createTempDirectory("cycle-cost");
        boolean sql = mode.startsWith("sql");
        io.qatwatch.tds.Scenario scenario = FootprintMsdb.scenario(new AtomicLong(rows));
        if (mode.equals("sql-local")) {
            onThisHost(scenario);
        }
        TdsTestServer server = TdsTestServer.start(scenario).onBatch(this::batch);
        HttpServer collector = collector();
        Path token = Files.writeString(dir.resolve("agent.token"), "cycle-cost-0123456789abcdefghijklmnop");
        Path password = Files.writeString(dir.resolve("sql-password"), server.scenario().acceptedPassword() + "\n");
        // -Dcycle-cost.every=60s: the footprint bench's cycle, where what a pause between cycles undoes (the
        // collector's connection, warm caches) shows; 2 s by default
        String every = System.getProperty("cycle-cost.every", "2s");
        long everySeconds = java.time.Duration.parse("PT" + every.toUpperCase(Locale.ROOT)).toSeconds();
        // the health endpoint on, as in production and the footprint bench (its HTTP server's classes are the agent's too)
        int healthPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            healthPort = free.getLocalPort();
        }
        String yaml = "agent:\n  name: cycle-cost\n"
                + "collector:\n  url: http://127.0.0.1:" + collector.getAddress().getPort() + "\n  tokenFile: '" + token + "'\n"
                + "schedule:\n  host: " + (sql && !mode.equals("sql-host") ? "1h" : every) + "\n  sqlBackups: " + every + "\n"
                + ("sql-all".equals(mode) ? "  sqlConfiguration: " + every + "\n  sqlInventory: " + every + "\n" : "")
                + "health:\n  port: " + healthPort + "\n"
                + (sql ? "sqlserver:\n  instances:\n    - name: PROD\n      jdbcUrl: '" + server.jdbcUrl() + "'\n      user: "
                        + server.scenario().acceptedUser() + "\n      passwordFile: '" + password + "'\n"
                        + "      backupPageSize: 5000\n" : "");
        Path config = dir.resolve("agent.yaml");
        Files.writeString(config, yaml);
        for (Path secret : new Path[] {token, password, config}) {
            Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
        Thread agent = new Thread(() -> AgentMain.run("agent", "--config", config.toString(), "--data", dir.resolve("data").toString()),
                "agent-main");
        agent.setDaemon(true);
        agent.start();

        // The first sync ends when the history query comes back short; then the warm-up cycles.
        long firstSteady = waitForSteady(sql, rows);
        askHealth(healthPort);
        if (sql) {
            printSync(rows, first, point());
        }
        Window w = new Window(firstSteady + warm, firstSteady + warm + cycles);
        window.set(w);
        if (!w.done.await(cycles * Math.max(10L, 2 * everySeconds) + 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the window did not end: " + cycleStarts.get() + " cycles, " + reports.get() + " reports");
        }
        print(mode, rows, cycles, w.start, w.end);
        printMemory();
        server.close();
        collector.stop(0);
    }

    private long waitForSteady(boolean sql, long rows) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        while (System.nanoTime() < deadline) {
            long now = sql ? cycleStarts.get() : reports.get();
            // every row asked for, and the report of every cycle so far delivered
            boolean synced = !sql || asked.get() >= rows && sqlReports.get() >= now;
            if (now > 0 && synced) {
                return now;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the first sync did not end");
    }

    /**
     * SQL Server "on this host": {@code MachineName} is this host's name and {@code SERVERPROPERTY('ProcessID')} this
     * JVM's pid, so that each poll that sees the running backup reads the process through OSHI as it would read
     * {@code sqlservr} (it then finds a java process, not sqlservr, and says so: the read is what is counted).
     */
    private static void onThisHost(io.qatwatch.tds.Scenario scenario) throws IOException {
        String host = InetAddress.getLocalHost().getHostName();
        long pid = ProcessHandle.current().pid();
        java.util.List<io.qatwatch.tds.Column> props = java.util.List.of(io.qatwatch.tds.Column.col("product_version", "nvarchar(128)"),
                io.qatwatch.tds.Column.col("product_major_version", "int"), io.qatwatch.tds.Column.col("edition", "nvarchar(128)"),
                io.qatwatch.tds.Column.col("engine_edition", "int"), io.qatwatch.tds.Column.col("machine_name", "nvarchar(128)"),
                io.qatwatch.tds.Column.col("server_name", "nvarchar(128)"), io.qatwatch.tds.Column.col("is_hadr_enabled", "int"));
        scenario.answer("server-properties.sql", io.qatwatch.tds.TdsResponse.rows(props, java.util.List.of(java.util.List.of("16.0.4135.4", 16,
                "Enterprise Edition: Core-based Licensing (64-bit)", 3, host, "SQL01\\PROD", 0))));
        java.util.List<io.qatwatch.tds.Column> running = new java.util.ArrayList<>();
        for (String c : new String[] {"can_see_all_sessions int", "server_utc_offset_minutes int", "process_id int", "session_id smallint",
                "command nvarchar(32)", "database_name nvarchar(128)", "start_time datetime", "percent_complete real",
                "total_elapsed_time int", "estimated_completion_time bigint", "request_cpu_ms int", "session_cpu_ms int"}) {
            running.add(io.qatwatch.tds.Column.col(c.substring(0, c.indexOf(' ')), c.substring(c.indexOf(' ') + 1)));
        }
        scenario.answer("running-backups.sql", io.qatwatch.tds.TdsResponse.rows(running, java.util.List.of(java.util.List.of(1, 60, pid, 87,
                "BACKUP DATABASE", "Payments", "2026-11-30T01:30:00.000", 42.5f, 101000, 136647L, 38250, 38400))));
    }

    /** One GET /healthz before the window, as the footprint bench asks it (a raw socket: no client classes in this JVM). */
    private static void askHealth(int port) throws IOException {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            s.getOutputStream().write("GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            if (!answer.startsWith("HTTP/1.")) {
                throw new IllegalStateException("/healthz answered " + answer);
            }
        }
    }

    /** Every SQL batch, on the server's connection thread: counted by its query; a cycle starts with server-properties. */
    private void batch(String sql) {
        Matcher m = MARKER.matcher(sql);
        String query = m.find() ? m.group(1) : "(other)";
        batches.computeIfAbsent(query, q -> new LongAdder()).increment();
        if (query.startsWith("backup-history")) {
            Matcher top = TOP.matcher(sql);
            Matcher after = AFTER.matcher(sql);
            if (top.find() && after.find()) {
                asked.accumulateAndGet(Long.parseLong(after.group(1)) + Long.parseLong(top.group(1)), Math::max);
            }
        }
        if (query.equals("server-properties.sql")) {
            long n = cycleStarts.incrementAndGet();
            if (n == 1) {
                first = point();
            }
            mark(n);
        }
    }

    private void mark(long count) {
        Window w = window.get();
        if (w == null) {
            return;
        }
        if (count == w.from) {
            w.start = point();
        } else if (count == w.to) {
            w.end = point();
            w.done.countDown();
        }
    }

    private HttpServer collector() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        http.setExecutor(Executors.newSingleThreadExecutor(r -> new Thread(r, "stub-collector")));
        http.createContext("/api/v1/reports", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            gzipBytes.addAndGet(body.length);
            boolean gzip = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"));
            byte[] json = gzip ? new GZIPInputStream(new java.io.ByteArrayInputStream(body)).readAllBytes() : body;
            jsonBytes.addAndGet(json.length);
            long n = reports.incrementAndGet();
            if (!new String(json, StandardCharsets.UTF_8).contains("\"instances\":[]")) {
                sqlReports.incrementAndGet();
            }
            if (DUMP != null) {
                Files.write(Path.of(DUMP).resolve(String.format(Locale.ROOT, "report-%04d.json", n)), json);
            }
            if (!cycleStartsCounted()) {
                mark(n);
            }
            byte[] answer = "{\"reportId\":\"r\",\"duplicate\":false}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        http.start();
        return http;
    }

    /** In SQL mode the cycles are counted by the server; in host mode by the reports. */
    private boolean cycleStartsCounted() {
        return cycleStarts.get() > 0;
    }

    private Point point() {
        Map<Long, String> names = new TreeMap<>();
        Map<Long, long[]> threads = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.put(t.getId(), t.getName());
            threads.put(t.getId(), new long[] {THREADS.getThreadAllocatedBytes(t.getId()), THREADS.getThreadCpuTime(t.getId())});
        }
        Map<String, Long> b = new TreeMap<>();
        batches.forEach((k, v) -> b.put(k, v.sum()));
        long gc = ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(x -> Math.max(0, x.getCollectionCount())).sum();
        long gcMillis = ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(x -> Math.max(0, x.getCollectionTime())).sum();
        return new Point(names, threads, b, reports.get(), gzipBytes.get(), jsonBytes.get(),
                ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount(), gc, gcMillis, jvmThreads());
    }

    /**
     * CPU nanoseconds of the JVM's own threads (garbage collector, JIT compiler, VM thread), which {@code ThreadMXBean}
     * does not list, by name group: {@code /proc/self/task/<tid>/schedstat}'s first field (time on a CPU, ns). They work
     * for the harness too (its allocations are collected, its code compiled), the same for every agent measured.
     */
    private static Map<String, Long> jvmThreads() {
        Map<String, Long> cpu = new TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    Matcher m = JVM_THREAD.matcher(comm);
                    if (m.lookingAt()) {
                        long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                        cpu.merge(m.group(1), ns, Long::sum);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // no /proc (not Linux): the JVM's own threads are not shown
        }
        return cpu;
    }

    /** The first sync as a whole (from the first batch until every page's report was delivered): the agent's threads. */
    private static void printSync(long rows, Point a, Point b) {
        long[] agent = agentTotals(a, b);
        long batches = 0;
        for (Map.Entry<String, Long> e : b.batches().entrySet()) {
            batches += e.getValue() - a.batches().getOrDefault(e.getKey(), 0L);
        }
        System.out.printf(Locale.ROOT, "first sync of %d rows: agent threads allocated %,d B, CPU %.0f ms; %d batches, %d reports, "
                        + "%,d B of JSON; %d collections (%d ms, whole JVM)%n", rows, agent[0], agent[1] / 1e6, batches, b.reports() - a.reports(),
                b.jsonBytes() - a.jsonBytes(), b.gcCount() - a.gcCount(), b.gcMillis() - a.gcMillis());
        StringBuilder jvm = new StringBuilder("first sync, the JVM's own threads (harness's share included):");
        b.jvm().forEach((name, ns) -> jvm.append(String.format(Locale.ROOT, " %s %.0f ms;", name, (ns - a.jvm().getOrDefault(name, 0L)) / 1e6)));
        System.out.println(jvm);
        System.out.println();
    }

    /** Bytes allocated and CPU used by the agent's threads (not the harness's) between two points. */
    private static long[] agentTotals(Point a, Point b) {
        long[] total = new long[2];
        for (Map.Entry<Long, long[]> e : b.threads().entrySet()) {
            if (HARNESS.matcher(b.names().get(e.getKey())).matches()) {
                continue;
            }
            long[] before = a.threads().getOrDefault(e.getKey(), new long[] {0, 0});
            total[0] += e.getValue()[0] - before[0];
            total[1] += e.getValue()[1] - before[1];
        }
        return total;
    }

    /** Class metadata, code and the heap after a full collection, this whole JVM (the harness's share is the same for every agent). */
    private static void printMemory() {
        System.gc();
        StringBuilder line = new StringBuilder("memory after a full collection (whole JVM):");
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        line.append(String.format(Locale.ROOT, " heap used %.2f MiB", heap / 1048576.0));
        for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            String name = pool.getName();
            if (name.equals("Metaspace") || name.equals("Compressed Class Space") || name.startsWith("CodeHeap")) {
                line.append(String.format(Locale.ROOT, "; %s %.2f MiB", name, pool.getUsage().getUsed() / 1048576.0));
            }
        }
        System.out.println(line);
    }

    private static void print(String mode, long rows, int cycles, Point a, Point b) {
        System.out.printf(Locale.ROOT, "mode %s, msdb %d rows, %d cycles measured%n", mode, rows, cycles);
        Map<String, long[]> groups = new TreeMap<>();
        long agentBytes = 0;
        long agentCpu = 0;
        for (Map.Entry<Long, long[]> e : b.threads().entrySet()) {
            String name = b.names().get(e.getKey());
            long[] before = a.threads().getOrDefault(e.getKey(), new long[] {0, 0});
            long bytes = e.getValue()[0] - before[0];
            long cpu = e.getValue()[1] - before[1];
            String group = name.replaceAll("\\d+$", "N");
            long[] g = groups.computeIfAbsent(group, k -> new long[3]);
            g[0] += bytes;
            g[1] += cpu;
            g[2]++;
            if (!HARNESS.matcher(name).matches()) {
                agentBytes += bytes;
                agentCpu += cpu;
            }
        }
        System.out.println("| thread (group) | threads | allocated per cycle | CPU per cycle |");
        System.out.println("|---|---:|---:|---:|");
        groups.forEach((name, g) -> {
            if (g[0] > 0 || g[1] > 0) {
                System.out.printf(Locale.ROOT, "| %s%s | %d | %,d B | %.2f ms |%n", name, HARNESS.matcher(name.replace("N", "0")).matches()
                        ? " (harness)" : "", g[2], g[0] / cycles, g[1] / 1e6 / cycles);
            }
        });
        System.out.printf(Locale.ROOT, "| **agent, all threads** | | **%,d B** | **%.2f ms** |%n", agentBytes / cycles, agentCpu / 1e6 / cycles);
        b.jvm().forEach((name, ns) -> System.out.printf(Locale.ROOT, "| JVM: %s (harness's share included) | | | %.2f ms |%n", name,
                (ns - a.jvm().getOrDefault(name, 0L)) / 1e6 / cycles));
        System.out.println();
        System.out.println("| query | batches per cycle |");
        System.out.println("|---|---:|");
        long total = 0;
        for (Map.Entry<String, Long> e : b.batches().entrySet()) {
            long n = e.getValue() - a.batches().getOrDefault(e.getKey(), 0L);
            total += n;
            if (n > 0) {
                System.out.printf(Locale.ROOT, "| %s | %.2f |%n", e.getKey(), (double) n / cycles);
            }
        }
        System.out.printf(Locale.ROOT, "| **all** | **%.2f** |%n%n", (double) total / cycles);
        long n = b.reports() - a.reports();
        System.out.printf(Locale.ROOT, "reports %d (%.2f a cycle), %,d B of JSON and %,d B gzipped a report; classes loaded %d (+%d in the window); "
                        + "collections %d (%d ms, whole JVM) in the window%n", n, (double) n / cycles, n == 0 ? 0 : (b.jsonBytes() - a.jsonBytes()) / n,
                n == 0 ? 0 : (b.gzipBytes() - a.gzipBytes()) / n, b.classes(), b.classes() - a.classes(), b.gcCount() - a.gcCount(),
                b.gcMillis() - a.gcMillis());
    }
}
