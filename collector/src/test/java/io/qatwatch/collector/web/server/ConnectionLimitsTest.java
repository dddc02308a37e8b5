package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connection floods over real TCP (issue 34 item 3): past {@code listen.maxConnectionsPerAddress} from one address, or
 * {@code listen.maxConnections} in all, a new connection is closed unread and counted, while the connections already
 * held, other addresses and a real report are still answered; a closed connection frees its slot. Clients come from
 * several loopback addresses (127.0.0.2, ...; Linux answers the whole of 127/8).
 */
class ConnectionLimitsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);
    private static final byte[] HEALTHZ = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path data;

    private RunningCollector running;
    private final List<Socket> sockets = new ArrayList<>();

    private void start(int total, int perAddress, int headerTimeoutSeconds) throws Exception {
        CollectorConfig config = CollectorConfig.defaults();
        IngestConfig ingest = config.ingest();
        config = config.withListen(config.listen().withConnectionLimits(total, perAddress))
                .withIngest(new IngestConfig(ingest.maxBodyBytes(), ingest.reportsPerMinute(), ingest.bodyIdleTimeoutSeconds(),
                        ingest.bodyTimeoutSeconds(), ingest.maxConcurrentBodies(), headerTimeoutSeconds));
        running = RunningCollector.start(config, data, CLOCK);
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket s : sockets) {
            s.close();
        }
        if (running != null) {
            running.close();
        }
    }

    @Test
    void oneAddressPastItsLimitIsClosedAndCountedWhileOthersAndAgentsAreAnswered() throws Exception {
        start(400, 20, 60);
        String token = running.token("sql01", TokenStore.Kind.AGENT);
        List<Integer> flood = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            flood.add(healthz(open("127.0.0.2")));
        }
        assertThat(flood.subList(0, 20)).as("the first 20 from 127.0.0.2 are held and answered").containsOnly(200);
        assertThat(flood.subList(20, 150)).as("the 130 beyond them are closed without an answer").containsOnly(-1);

        for (int i = 0; i < 20; i++) {
            assertThat(healthz(open("127.0.0.3"))).as("another address has slots of its own").isEqualTo(200);
        }
        assertThat(running.postReport(token, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode())
                .as("an agent's report during the flood").isEqualTo(202);
        assertThat(StoreKinds.scalar(running.collector().database(), "SELECT COUNT(*) FROM reports")).isEqualTo(1);
        Socket held = sockets.get(0);
        held.getOutputStream().write(HEALTHZ);
        assertThat(answer(held.getInputStream())).as("a connection held from the flooding address still serves")
                .isEqualTo(200);

        String metrics = running.get("/metrics", null).bodyAsString();
        assertThat(metric(metrics, "qatwatch_connections_refused_total{limit=\"per_address\"}")).isEqualTo(130);
        assertThat(metric(metrics, "qatwatch_connections_refused_total{limit=\"total\"}")).isZero();
        assertThat(metric(metrics, "qatwatch_connections_open")).as("20 + 20 sockets and the client's one connection")
                .isEqualTo(41);
    }

    @Test
    void pastTheTotalEveryoneIsClosedUntilAConnectionClosesAndFreesItsSlot() throws Exception {
        start(30, 10, 60);
        for (String from : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
            for (int i = 0; i < 10; i++) {
                assertThat(healthz(open(from))).isEqualTo(200);
            }
        }
        for (int i = 0; i < 5; i++) {
            assertThat(healthz(open("127.0.0.5"))).as("a fourth address, past the total of 30").isEqualTo(-1);
        }

        sockets.remove(0).close();
        assertThat(awaitAdmitted("127.0.0.5")).as("the closed connection's slot is taken by the next").isEqualTo(200);
        assertThat(healthz(open("127.0.0.6"))).as("and only that one").isEqualTo(-1);

        sockets.remove(0).close();
        String metrics = awaitMetrics();
        assertThat(metric(metrics, "qatwatch_connections_refused_total{limit=\"total\"}")).isGreaterThanOrEqualTo(6);
        assertThat(metric(metrics, "qatwatch_connections_refused_total{limit=\"per_address\"}")).isZero();
        assertThat(metric(metrics, "qatwatch_connections_open")).as("29 sockets and the scrape's connection").isEqualTo(30);
    }

    @Test
    void idleConnectionsLeaveAtTheHeaderTimeoutAndTheirAddressIsServedAgain() throws Exception {
        start(400, 10, 1);
        for (int i = 0; i < 10; i++) {
            open("127.0.0.2");
        }
        for (Socket idle : List.copyOf(sockets)) {
            idle.setSoTimeout(10_000);
            assertThat(readAll(idle.getInputStream())).as("an idle connection is closed at the header timeout").isEmpty();
        }
        assertThat(awaitAdmitted("127.0.0.2")).as("its address has its slots again").isEqualTo(200);
    }

    /** A connection from {@code from} to the collector, kept until the test ends. */
    private Socket open(String from) throws IOException {
        Socket s = new Socket(InetAddress.getByName("127.0.0.1"), running.port(), InetAddress.getByName(from), 0);
        s.setSoTimeout(10_000);
        sockets.add(s);
        return s;
    }

    /** {@code GET /healthz} on the connection: its status, or -1 when the collector closed it without an answer. */
    private static int healthz(Socket s) throws IOException {
        try {
            s.getOutputStream().write(HEALTHZ);
        } catch (SocketException closed) {
            return -1;
        }
        return answer(s.getInputStream());
    }

    /** Opens connections from {@code from} until one is answered (a closed slot is freed on the server's event loop). */
    private int awaitAdmitted(String from) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Socket s = open(from);
            int status = healthz(s);
            if (status > 0) {
                return status;
            }
            sockets.remove(s);
            s.close();
            Thread.sleep(10);
        }
        return -1;
    }

    /** {@code GET /metrics} once a slot is free for the scrape. */
    private String awaitMetrics() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return running.get("/metrics", null).bodyAsString();
            } catch (Exception closed) {
                if (System.nanoTime() > deadline) {
                    throw closed;
                }
                Thread.sleep(10);
            }
        }
    }

    /** The status of one answer (head and its Content-Length of body), or -1 when the connection closed first. */
    private static int answer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return -1;
                }
                head.write(b);
            }
        } catch (SocketException reset) {
            return -1;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        Matcher length = Pattern.compile("(?i)content-length:\\s*(\\d+)").matcher(text);
        in.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
        return Integer.parseInt(text.substring(9, 12));
    }

    /** What arrives until the collector closes the connection. */
    private static byte[] readAll(InputStream in) throws IOException {
        try {
            return in.readAllBytes();
        } catch (SocketException reset) {
            return new byte[0];
        }
    }

    private static long metric(String text, String sample) {
        for (String line : text.split("\n")) {
            if (line.startsWith(sample + " ")) {
                return (long) Double.parseDouble(line.substring(sample.length() + 1).trim());
            }
        }
        throw new AssertionError("no sample " + sample + " in /metrics");
    }
}
