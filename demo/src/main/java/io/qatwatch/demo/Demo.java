package io.qatwatch.demo;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.daemon.AgentDaemon;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.tds.TdsTestServer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A running demo: the webhook that stands for a chat room, one TDS test server per simulated SQL Server instance,
 * a collector with its alert stage on its own data directory, and a real agent per simulated host, in this JVM.
 * {@link #start} returns once every agent has reported; {@link #evaluateNow} then raises the alerts at once.
 */
public final class Demo implements AutoCloseable {

    /** The file that marks a folder as the demo's own, so that a restart may wipe it. */
    static final String MARKER = "qatwatch-demo.txt";
    static final String NOTICE = "Demo: every host, SQL Server and backup on this page is simulated by 'qatwatch demo'.";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");

    private final Vertx vertx;
    private final DemoFleet fleet;
    private final DemoWebhook webhook;
    private final List<TdsTestServer> servers;
    private final Collector collector;
    private final List<AgentDaemon> agents;
    private final String readToken;
    private final String operatorToken;
    private final Path dataDir;
    private final Clock clock;
    private final AlertStage stage;

    private Demo(Vertx vertx, DemoFleet fleet, DemoWebhook webhook, List<TdsTestServer> servers, Collector collector,
            List<AgentDaemon> agents, String readToken, String operatorToken, Path dataDir, Clock clock, AlertStage stage) {
        this.vertx = vertx;
        this.fleet = fleet;
        this.webhook = webhook;
        this.servers = servers;
        this.collector = collector;
        this.agents = agents;
        this.readToken = readToken;
        this.operatorToken = operatorToken;
        this.dataDir = dataDir;
        this.clock = clock;
        this.stage = stage;
    }

    /**
     * Evaluates the fleet now rather than at the stage's next minute, so that the page and the chat show the alerts
     * as soon as the demo is up; the stage skips a call while its own evaluation runs, so this waits for one of its own.
     */
    public void evaluateNow() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (vertx.executeBlocking(() -> 0).compose(x -> stage.evaluate()).await(60, TimeUnit.SECONDS) == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the demo's collector did not evaluate the fleet within 60 s");
            }
            Thread.sleep(100);
        }
    }

    /** Starts the demo on {@code port} (0: a free one) with its state in {@code dataDir}, wiped first; chat lines go to {@code out}. */
    public static Demo start(Path dataDir, int port, Clock clock, PrintStream out) throws Exception {
        prepare(dataDir);
        Vertx vertx = Vertx.vertx();
        List<TdsTestServer> servers = new ArrayList<>();
        try {
            DemoWebhook webhook = new DemoWebhook(out).start(vertx).await(10, TimeUnit.SECONDS);
            ReplayClock sqlClock = new ReplayClock(clock);
            DemoFleet fleet = DemoFleet.at(sqlClock);
            for (DemoFleet.Member m : fleet.members) {
                servers.add(TdsTestServer.start(m.server().scenario()));
            }
            // a port of its own before the config is written: the links in chat messages name it
            int listen = port != 0 ? port : freePort();
            Path config = Files.writeString(dataDir.resolve("collector.yaml"), collectorYaml(fleet, listen, webhook.url(), clock));
            CollectorConfig loaded = ConfigLoader.load(config);
            AlertStage stage = new AlertStage(vertx, loaded, clock);
            Collector collector = stage.startCollector(loaded, dataDir).await(60, TimeUnit.SECONDS);
            TokenStore tokens = collector.tokens();
            String readToken = tokens.add("demo-reader", TokenStore.Kind.READ, clock.instant());
            String operatorToken = tokens.add("demo-operator", TokenStore.Kind.OPERATOR, clock.instant());
            List<AgentConfig> configs = new ArrayList<>();
            List<JdbcSqlInstanceProbe> probes = new ArrayList<>();
            for (int i = 0; i < fleet.members.size(); i++) {
                DemoFleet.Member m = fleet.members.get(i);
                Path agentDir = Files.createDirectories(dataDir.resolve("agents").resolve(m.host().name));
                Path password = Files.writeString(agentDir.resolve("sql-password"), "demo\n");
                SqlInstanceSettings sql = new SqlInstanceSettings(m.server().instance, servers.get(i).jdbcUrl(), "qatwatch_demo",
                        password, null, false, Duration.ofSeconds(5), Duration.ofSeconds(30), 5000);
                configs.add(agentConfig(m.host().name, collector.port(), sql));
                probes.add(new JdbcSqlInstanceProbe(sql, sqlClock));
                // before any agent runs: while a replay runs, every simulated server reads the replayed time
                replay(probes.get(i), m.server(), sqlClock, fleet.createdAt, configs.get(i).schedule().sqlBackups());
            }
            List<AgentDaemon> agents = new ArrayList<>();
            for (int i = 0; i < fleet.members.size(); i++) {
                DemoFleet.Member m = fleet.members.get(i);
                String token = tokens.add(m.host().name, TokenStore.Kind.AGENT, clock.instant());
                JdbcSqlInstanceProbe probe = probes.get(i);
                agents.add(AgentDaemon.start(vertx, configs.get(i), dataDir.resolve("agents").resolve(m.host().name), token,
                        new AgentDaemon.Probes(m.host().probe(), settings -> probe), clock).await(30, TimeUnit.SECONDS));
            }
            Demo demo = new Demo(vertx, fleet, webhook, servers, collector, agents, readToken, operatorToken, dataDir, clock, stage);
            demo.awaitFirstReports(Duration.ofSeconds(60));
            return demo;
        } catch (Exception e) {
            servers.forEach(TdsTestServer::close);
            vertx.close().await(10, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * The agent's running-requests polls of the hour or two before {@code until}, replayed through its own probe at the
     * instants it would have made them: so that it measures the CPU of the backups and restores the story says it saw
     * run, the same way it does live (one query a poll, the request's {@code cpu_time} growing). What those polls
     * return is dropped, as nothing was listening then; the probe remembers the requests they saw, and hands on what it
     * measured when its first real cycle reads the backup history and sees the last restore gone.
     */
    static void replay(JdbcSqlInstanceProbe probe, SimulatedServer server, ReplayClock clock, Instant until,
            Duration step) {
        try {
            for (Instant poll : server.replayPolls(until, step)) {
                clock.replay(poll);
                probe.probe(EnumSet.of(SqlSection.RUNNING_BACKUPS), null);
            }
        } finally {
            clock.live();
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The data directory must be new, empty or the demo's own (then it is wiped: the history starts from now again). */
    private static void prepare(Path dataDir) throws IOException {
        if (Files.isDirectory(dataDir)) {
            boolean empty;
            try (Stream<Path> entries = Files.list(dataDir)) {
                empty = entries.findAny().isEmpty();
            }
            if (!empty && !Files.exists(dataDir.resolve(MARKER))) {
                throw new IOException(dataDir + " is not empty and is not a demo's data directory (" + MARKER
                        + " is missing): give the demo a folder of its own with --data");
            }
            try (Stream<Path> walk = Files.walk(dataDir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    if (!p.equals(dataDir)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.createDirectories(dataDir);
        Files.writeString(dataDir.resolve(MARKER), "The data directory of 'qatwatch demo'; wiped at each start.\n");
    }

    private static AgentConfig agentConfig(String name, int collectorPort, SqlInstanceSettings instance) {
        AgentConfig d = AgentConfig.defaults();
        AgentConfig.Collector c = d.collector();
        return new AgentConfig(name,
                new AgentConfig.Collector(URI.create("http://127.0.0.1:" + collectorPort), null, c.tokenEnv(), null, true,
                        c.connectTimeout(), c.requestTimeout(), c.initialBackoff(), Duration.ofSeconds(30)),
                new OutboxSettings(8L << 20, 1L << 20, false, 5),
                d.schedule(), 0, List.of(instance));
    }

    static String collectorYaml(DemoFleet fleet, int port, String webhookUrl, Clock clock) {
        Instant now = clock.instant();
        StringBuilder hostsDay = new StringBuilder();
        StringBuilder hostsNight = new StringBuilder();
        for (DemoFleet.Member m : fleet.members) {
            StringBuilder into = m.group().equals(DemoFleet.BUSINESS_HOURS) ? hostsDay : hostsNight;
            into.append(into.isEmpty() ? "" : ", ").append(m.host().name);
        }
        return "# written by 'qatwatch demo' at " + now + ": the collector of the demo's simulated fleet\n"
                + "listen:\n  host: 127.0.0.1\n  port: " + port + "\n"
                + "statusPage:\n  publicUrl: http://127.0.0.1:" + port + "/\n  notice: \"" + NOTICE + "\"\n"
                + "alerts:\n"
                + "  # business hours are 07:00-19:00 every day in two zones chosen so that, now, it is\n"
                + "  # " + TIME.format(now.atOffset(fleet.businessHours)) + " in one and "
                + TIME.format(now.atOffset(fleet.beforeOpening)) + " in the other\n"
                + "  calendars:\n"
                + calendar(DemoFleet.BUSINESS_HOURS, fleet.businessHours)
                + calendar(DemoFleet.BEFORE_OPENING, fleet.beforeOpening)
                + "  defaultCalendar: " + DemoFleet.BUSINESS_HOURS + "\n"
                + "  hostGroups:\n"
                + "    - { name: " + DemoFleet.BUSINESS_HOURS + ", calendar: " + DemoFleet.BUSINESS_HOURS + ", hosts: [" + hostsDay + "] }\n"
                + "    - { name: " + DemoFleet.BEFORE_OPENING + ", calendar: " + DemoFleet.BEFORE_OPENING + ", hosts: [" + hostsNight + "] }\n"
                + "  pipeline:\n    statusPageUrl: http://127.0.0.1:" + port + "/\n"
                + "  channels:\n    - { type: webhook, name: demo-chat, url: \"" + webhookUrl + "\" }\n";
    }

    private static String calendar(String name, java.time.ZoneOffset offset) {
        return "    - name: " + name + "\n      zone: " + DemoFleet.zoneId(offset) + "\n"
                + "      hours:\n        mon-sun: \"" + DemoFleet.OPENING + "-" + DemoFleet.CLOSING + "\"\n"
                + "      safetyMarginMinutes: 60\n";
    }

    /** Waits until the collector holds every simulated instance with its server facts and, where it has any, its backups. */
    private void awaitFirstReports(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            java.util.Map<String, io.qatwatch.collector.store.FleetRow> rows = new java.util.HashMap<>();
            collector.store().fleet().forEach(r -> rows.put(r.host(), r));
            boolean all = fleet.members.stream().allMatch(m -> {
                var row = rows.get(m.host().name);
                boolean hasBackups = m.server().finishedBy(clock.instant()) > 0;
                return row != null && row.instances().stream().anyMatch(i -> i.server() != null
                        && (!hasBackups || i.backupHighWaterMark() != null));
            });
            if (all) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the demo's agents did not report within " + timeout.toSeconds() + " s");
    }

    /** Every probe step of the simulated hosts that failed, with its error: none, when the simulation answers every query. */
    List<String> failedProbes() throws Exception {
        List<String> failed = new ArrayList<>();
        for (var row : collector.store().fleet()) {
            row.probes().stream().filter(p -> !p.ok()).forEach(p -> failed.add(row.host() + " " + p.name() + ": " + p.error()));
        }
        return failed;
    }

    public int port() {
        return collector.port();
    }

    public String statusPage() {
        return "http://127.0.0.1:" + port() + "/";
    }

    /** A read token issued for the demo: for the API, and for the status page's sign-in form. */
    public String readToken() {
        return readToken;
    }

    /** An operator token issued for the demo: signed in with it, the status page offers acknowledge, note and silence. */
    public String operatorToken() {
        return operatorToken;
    }

    public Path dataDir() {
        return dataDir;
    }

    DemoFleet fleet() {
        return fleet;
    }

    DemoWebhook webhook() {
        return webhook;
    }

    List<TdsTestServer> servers() {
        return List.copyOf(servers);
    }

    /** What the demo prints at start: where everything is and what it shows. */
    String welcome() {
        Instant now = clock.instant();
        StringBuilder out = new StringBuilder();
        out.append("qatwatch demo is up. Everything in it is simulated: four SQL Server hosts, their backups and the chat room.\n")
                .append("  status page   ").append(statusPage()).append('\n')
                .append("  read token    ").append(readToken).append('\n')
                .append("  operator token ").append(operatorToken).append(" (sign in with it at ").append(statusPage())
                .append("login to acknowledge, note and silence from the page)\n")
                .append("                curl -H 'Authorization: Bearer ").append(readToken).append("' ").append(statusPage())
                .append("api/v1/alerts\n")
                .append("  hosts         demo-sql-qat01  Xeon with QAT 4xxx, SQL Server 2022 Enterprise in hardware mode: a window creeping\n")
                .append("                demo-sql-amd01  AMD EPYC, Standard edition, QAT in software mode: a backup predicted to spill\n")
                .append("                demo-sql-ag01/02  availability group ag-orders: last night's backup ran into business hours\n");
        for (int i = 0; i < fleet.members.size(); i++) {
            DemoFleet.Member m = fleet.members.get(i);
            out.append(i == 0 ? "  SQL Servers   " : "                ").append(m.host().name).append('/').append(m.server().instance)
                    .append(" simulated at ").append(servers.get(i).jdbcUrl()).append('\n');
        }
        out.append("  business      07:00-19:00 daily; it is ").append(TIME.format(now.atOffset(fleet.businessHours)))
                .append(" in ").append(DemoFleet.zoneId(fleet.businessHours)).append(" (").append(DemoFleet.BUSINESS_HOURS)
                .append(") and ").append(TIME.format(now.atOffset(fleet.beforeOpening))).append(" in ")
                .append(DemoFleet.zoneId(fleet.beforeOpening)).append(" (").append(DemoFleet.BEFORE_OPENING).append(")\n")
                .append("  chat          alerts are posted to ").append(webhook.url()).append(" and printed below as 'demo chat'\n")
                .append("  data          ").append(dataDir).append(" (wiped at each start: the history is made relative to now)\n")
                .append("Ctrl-C stops it.\n");
        return out.toString();
    }

    /** Stops the agents, the collector, the simulated servers and the webhook. */
    @Override
    public void close() throws Exception {
        for (AgentDaemon a : agents) {
            a.stop().await(15, TimeUnit.SECONDS);
        }
        collector.stop().await(15, TimeUnit.SECONDS);
        servers.forEach(TdsTestServer::close);
        webhook.stop().await(5, TimeUnit.SECONDS);
        vertx.close().await(15, TimeUnit.SECONDS);
    }
}
