package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.CollectorProcess;
import io.qatwatch.collector.testing.Influxd;
import io.qatwatch.collector.testing.Postgres;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several collectors, each its own JVM, on one real PostgreSQL, on loopback ports, as behind a load balancer: agents
 * report to either; one is killed with SIGKILL mid-ingest, and mid-notification; PostgreSQL is restarted under load.
 * Nothing is lost or stored twice, every alert is announced once (counted at a real HTTP receiver), and the time a
 * dead collector's hosts wait for a new owner is measured.
 */
class MultiCollectorTest {

    /**
     * Evaluations every 4 s, leases of 3 s renewed every second: a minute and 30 s in production, the same logic
     * faster. Not shorter: on this busy 2-core machine a collector may stall for a second or two, and a lease that
     * lapses hands its slices over while their announcements are in flight. The failover figure with the production
     * intervals is measured with {@code -Dqatwatch.failover.everySeconds=60 -Dqatwatch.failover.leaseSeconds=30}
     * (docs/benchmarks.md).
     */
    private static final int EVERY_SECONDS = Integer.getInteger("qatwatch.failover.everySeconds", 4);
    private static final int LEASE_SECONDS = Integer.getInteger("qatwatch.failover.leaseSeconds", 3);
    /** How long a step may take: a minute, or four evaluations when they are that far apart. */
    private static final Duration STEP = Duration.ofSeconds(Math.max(60, 4L * EVERY_SECONDS));
    /** Webhook answers wait this long, so a collector can be killed while its notifications are in flight. */
    private static final long RECEIVER_DELAY_MS = 1500;

    @TempDir
    Path dir;

    private StoreConfig store;
    private Database db;
    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Vertx vertx;

    @BeforeEach
    void store() throws Exception {
        store = StoreKinds.config(Database.Kind.POSTGRESQL);
        db = StoreKinds.open(store, dir);
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        db.close();
        if (vertx != null) {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void agentsReportToEitherCollectorAndAKillMidStreamLosesNothingAndStoresNothingTwice() throws Exception {
        int reports = 60;
        int backupsEach = 4;
        TokenStore tokens = new TokenStore(db);
        Map<String, String> tokenOf = new HashMap<>();
        for (int h = 0; h < 4; h++) {
            tokenOf.put("sql0" + h, tokens.add("sql0" + h, TokenStore.Kind.AGENT, Instant.now()));
        }
        int[] ports = {Influxd.freePort(), Influxd.freePort()};
        Process a = start("a", ports[0], null);
        start("b", ports[1], null);

        // four agents, each with an outbox: a report stays until a collector answers 202, and goes to the next one
        AtomicInteger acknowledged = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(1);
        List<Thread> agents = new ArrayList<>();
        Map<String, Integer> accepted = new ConcurrentHashMap<>();
        for (int h = 0; h < 4; h++) {
            String host = "sql0" + h;
            int agentNumber = h;
            Thread agent = new Thread(() -> {
                for (int n = agentNumber + 1; n <= reports; n += 4) {
                    byte[] body = ReportJson.toBytes(TestReports.numbered(n, backupsEach, Instant.now().minus(Duration.ofDays(1))));
                    for (int attempt = 0; ; attempt++) {
                        int port = ports[(n + attempt) % 2];
                        try {
                            if (post(port, tokenOf.get(host), body) == 202) {
                                accepted.merge(host, 1, Integer::sum);
                                break;
                            }
                        } catch (Exception collectorGone) {
                            // the load balancer sends the retry to the other collector
                        }
                    }
                    if (acknowledged.incrementAndGet() == reports / 3) {
                        third.countDown();
                    }
                }
            });
            agent.start();
            agents.add(agent);
        }
        assertThat(third.await(120, TimeUnit.SECONDS)).isTrue();
        a.destroyForcibly();
        assertThat(a.waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (Thread agent : agents) {
            agent.join(120_000);
        }
        assertThat(acknowledged.get()).isEqualTo(reports);
        assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM reports")).isEqualTo(reports);
        assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM backups")).isEqualTo((long) reports * backupsEach);
        assertThat(StoreKinds.scalar(db, "SELECT sum(backups) FROM reports")).as("each backup counted by one report")
                .isEqualTo((long) reports * backupsEach);
    }

    @Test
    void threeCollectorsSplitTheAlertsAndTheSurvivorsTakeOverOneKilledMidNotificationAnnouncingEachOnce() throws Exception {
        Receiver receiver = receiver();
        Map<String, Process> collectors = new HashMap<>();
        int bPort = 0;
        int aPort = 0;
        for (String name : List.of("a", "b", "c")) {
            int port = Influxd.freePort();
            bPort = "b".equals(name) ? port : bPort;
            aPort = "a".equals(name) ? port : aPort;
            collectors.put(name, start(name, port, receiver.url(name)));
        }
        String reader = new TokenStore(db).add("dba", TokenStore.Kind.READ, Instant.now());
        awaitOwners(3, STEP);

        // silent agents: each host's alert is announced by the collector leasing its slice
        Set<String> first = silentHosts(0, 45);
        receiver.awaitAcknowledged(first, STEP);
        assertThat(receiver.byCollector.keySet()).as("every collector announced its share").contains("a", "b", "c");
        String alerts = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bPort + "/api/v1/alerts?limit=1000"))
                .header("Authorization", "Bearer " + reader).build(), HttpResponse.BodyHandlers.ofString()).body();
        Set<String> listed = new HashSet<>();
        new io.vertx.core.json.JsonArray(alerts).forEach(a -> listed.add(((JsonObject) a).getString("host")));
        assertThat(listed).as("one collector's API lists every collector's alerts").containsAll(first);

        // new alerts appear; collector a is killed while its announcements of them are in flight
        CountDownLatch aSending = new CountDownLatch(1);
        receiver.onReceive = (collector, host) -> {
            if ("a".equals(collector) && !first.contains(host)) {
                aSending.countDown();
            }
        };
        Set<String> second = silentHosts(45, 45);
        assertThat(aSending.await(STEP.toSeconds(), TimeUnit.SECONDS)).as("a announces some of the new alerts").isTrue();
        Thread.sleep(300);
        Map<String, Integer> before = slicesByOwner();
        String aOwner = ":" + aPort + "/";
        int aOwned = before.entrySet().stream().filter(e -> e.getKey().contains(aOwner))
                .mapToInt(Map.Entry::getValue).sum();
        collectors.get("a").destroyForcibly();
        long killedAt = System.nanoTime();
        assertThat(collectors.get("a").waitFor(30, TimeUnit.SECONDS)).isTrue();

        Duration takeover = awaitOwners(2, STEP);
        long slicesTakenAt = System.nanoTime();
        receiver.awaitAcknowledged(second, STEP);
        Duration announced = Duration.ofNanos(System.nanoTime() - killedAt);
        System.out.printf("failover: a's slices (%d of %d; by owner %s) had new owners %d ms after kill -9 (lease %d s, "
                + "evaluation every %d s); its unanswered announcements were made by the survivors %d ms after the kill%n",
                aOwned, HostSlices.COUNT, before.values(), Duration.ofNanos(slicesTakenAt - killedAt).toMillis(),
                LEASE_SECONDS, EVERY_SECONDS, announced.toMillis());
        assertThat(takeover).as("within two evaluation intervals of the lease expiring")
                .isLessThan(Duration.ofSeconds(LEASE_SECONDS + 2L * EVERY_SECONDS + 2));

        Thread.sleep(2L * EVERY_SECONDS * 1000);
        assertThat(receiver.acknowledged).as("every group announced once").isNotEmpty()
                .allSatisfy((group, times) -> assertThat(times).as(group).isOne());
        assertThat(receiver.unacknowledged.keySet()).as("a was killed with announcements in flight").isNotEmpty()
                .allSatisfy(group -> assertThat(receiver.acknowledged.get(group)).as("%s announced again by a survivor", group)
                        .isOne());
    }

    @Test
    void postgresRestartedUnderLoadMeans503ThenTheCollectorsRecoverAndLoseNothing() throws Exception {
        int reports = 40;
        String token = new TokenStore(db).add("sql01", TokenStore.Kind.AGENT, Instant.now());
        int[] ports = {Influxd.freePort(), Influxd.freePort()};
        start("a", ports[0], null);
        start("b", ports[1], null);
        AtomicInteger unavailable = new AtomicInteger();
        List<String> otherErrors = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch some = new CountDownLatch(1);
        Thread agent = new Thread(() -> {
            for (int n = 1; n <= reports; n++) {
                byte[] body = ReportJson.toBytes(TestReports.numbered(n, 3, Instant.now().minus(Duration.ofDays(1))));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (System.nanoTime() < deadline) {
                    try {
                        int status = post(ports[n % 2], token, body);
                        if (status == 202) {
                            break;
                        }
                        if (status == 503) {
                            unavailable.incrementAndGet();
                        } else {
                            otherErrors.add("HTTP " + status);
                        }
                    } catch (Exception e) {
                        otherErrors.add(e.toString());
                    }
                    sleep(200);
                }
                if (n == 10) {
                    some.countDown();
                }
            }
        });
        agent.start();
        assertThat(some.await(60, TimeUnit.SECONDS)).isTrue();
        Postgres server = Postgres.shared();
        server.stop(false);
        Thread.sleep(3_000);
        server.start();
        agent.join(180_000);
        assertThat(unavailable.get()).as("503 while PostgreSQL was down").isPositive();
        assertThat(otherErrors).as("never a 500 or a dropped connection").isEmpty();
        db.close();
        db = StoreKinds.open(store, dir);
        assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM reports")).isEqualTo(reports);
        assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM backups")).isEqualTo(reports * 3L);
    }

    /** {@code count} hosts that reported an hour ago and went silent, numbered from {@code from}. */
    private Set<String> silentHosts(int from, int count) throws Exception {
        SqlReportStore reports = new SqlReportStore(db);
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        Set<String> hosts = new HashSet<>();
        for (int i = from; i < from + count; i++) {
            String host = "silent-" + i;
            reports.store(host, TestReports.numbered(1000 + i, 0, hourAgo.minus(Duration.ofMinutes(1000 + i))), hourAgo);
            hosts.add(host);
        }
        return hosts;
    }

    /** Waits until exactly {@code collectors} collectors lease every slice; returns how long it took. */
    /** The live leases: how many slices each collector holds. */
    private Map<String, Integer> slicesByOwner() throws Exception {
        Map<String, Integer> perOwner = new java.util.TreeMap<>();
        db.read(c -> {
            try (var s = c.createStatement(); var rs = s.executeQuery(
                    "SELECT owner FROM alert_slices WHERE expires_at > clock_timestamp()")) {
                while (rs.next()) {
                    perOwner.merge(rs.getString(1), 1, Integer::sum);
                }
            }
            return null;
        });
        return perOwner;
    }

    private Duration awaitOwners(int collectors, Duration atMost) throws Exception {
        long start = System.nanoTime();
        long deadline = start + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            Map<String, Integer> perOwner = new HashMap<>();
            int leased = db.read(c -> {
                int n = 0;
                try (var s = c.createStatement(); var rs = s.executeQuery(
                        "SELECT owner FROM alert_slices WHERE expires_at > clock_timestamp()")) {
                    while (rs.next()) {
                        perOwner.merge(rs.getString(1), 1, Integer::sum);
                        n++;
                    }
                }
                return n;
            });
            if (leased == HostSlices.COUNT && perOwner.size() == collectors) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the slices did not settle on " + collectors + " collectors within " + atMost);
    }

    private Process start(String name, int port, String webhook) throws Exception {
        Path config = Files.writeString(dir.resolve(name + ".yaml"), """
                listen:
                  port: %d
                ingest:
                  reportsPerMinute: 10000
                store:
                  kind: postgresql
                  url: %s
                  user: %s
                  passwordFile: %s
                  poolSize: 4
                evaluation:
                  everySeconds: %d
                  leaseSeconds: %d
                """.formatted(port, store.url(), store.user(), store.passwordFile(), EVERY_SECONDS, LEASE_SECONDS)
                + (webhook == null ? "" : """
                alerts:
                  pipeline:
                    retryInitialSeconds: 1
                    retryMaxSeconds: 2
                  channels:
                    - { type: webhook, name: hook, url: "%s", timeoutSeconds: 10 }
                """.formatted(webhook)));
        Process p = CollectorProcess.start(dir.resolve(name + ".log"), dir.resolve(name + ".out"), port,
                "collector", "--config", config.toString(), "--data", dir.resolve(name).toString());
        processes.add(p);
        return p;
    }

    private int post(int port, String token, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/reports"))
                        .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called with the collector and host of each webhook request as it arrives. */
    @FunctionalInterface
    interface OnReceive {
        void received(String collector, String host);
    }

    /**
     * A real HTTP receiver for the webhook channel: one path per collector. It answers each request after
     * {@link #RECEIVER_DELAY_MS}; an announcement counts as acknowledged when its answer reached a live connection,
     * unacknowledged when the collector died first (it never learnt that it was delivered).
     */
    private Receiver receiver() throws Exception {
        vertx = Vertx.vertx();
        Receiver r = new Receiver();
        HttpServer server = vertx.createHttpServer().requestHandler(req -> {
            String collector = req.path().substring(req.path().lastIndexOf('/') + 1);
            boolean[] closed = {false};
            req.connection().closeHandler(v -> closed[0] = true);
            req.body().onSuccess(body -> {
                JsonObject payload = body.toJsonObject();
                String group = payload.getString("groupKey");
                String host = payload.getJsonArray("alerts").getJsonObject(0).getString("host");
                r.hostOf.put(group, host);
                r.byCollector.merge(collector, 1, Integer::sum);
                r.onReceive.received(collector, host);
                vertx.setTimer(RECEIVER_DELAY_MS, t -> {
                    if (closed[0]) {
                        r.unacknowledged.merge(group, 1, Integer::sum);
                        return;
                    }
                    req.response().setStatusCode(200).end().onComplete(done -> {
                        if (done.succeeded() && !closed[0]) {
                            r.acknowledged.merge(group, 1, Integer::sum);
                        } else {
                            r.unacknowledged.merge(group, 1, Integer::sum);
                        }
                    });
                });
            });
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        r.port = server.actualPort();
        return r;
    }

    /** What the webhook receiver counted, per notification group (rule, host, instance), and each group's host. */
    static final class Receiver {
        int port;
        final Map<String, String> hostOf = new ConcurrentHashMap<>();
        final Map<String, Integer> acknowledged = new ConcurrentHashMap<>();
        final Map<String, Integer> unacknowledged = new ConcurrentHashMap<>();
        final Map<String, Integer> byCollector = new ConcurrentHashMap<>();
        volatile OnReceive onReceive = (collector, host) -> { };

        String url(String collector) {
            return "http://127.0.0.1:" + port + "/hook/" + collector;
        }

        /** The hosts with an acknowledged announcement. */
        Set<String> announcedHosts() {
            Set<String> out = new HashSet<>();
            acknowledged.keySet().forEach(g -> out.add(hostOf.get(g)));
            return out;
        }

        void awaitAcknowledged(Set<String> hosts, Duration atMost) throws InterruptedException {
            long deadline = System.nanoTime() + atMost.toNanos();
            while (System.nanoTime() < deadline) {
                if (announcedHosts().containsAll(hosts)) {
                    return;
                }
                Thread.sleep(100);
            }
            Set<String> missing = new HashSet<>(hosts);
            missing.removeAll(announcedHosts());
            throw new AssertionError("never announced: " + missing);
        }
    }
}
