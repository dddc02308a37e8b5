package io.qatwatch.collector.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real InfluxDB 1.x ({@code influxd} from Debian's {@code influxdb} package) for tests: loopback-only
 * config, its own data directory, ready when {@code /ping} answers, stopped and awaited on close.
 */
final class Influxd implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/bin/influxd");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Influxd(Process process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts influxd with its data, WAL and meta directories under {@code dir}; waits up to 20 s for /ping. */
    static Influxd start(Path dir) throws IOException, InterruptedException {
        int httpPort = freePort();
        int rpcPort = freePort();
        Path config = dir.resolve("influxdb.conf");
        Files.writeString(config, """
                reporting-enabled = false
                bind-address = "127.0.0.1:%d"
                [meta]
                  dir = "%s"
                [data]
                  dir = "%s"
                  wal-dir = "%s"
                  query-log-enabled = false
                [monitor]
                  store-enabled = false
                [http]
                  enabled = true
                  bind-address = "127.0.0.1:%d"
                  auth-enabled = false
                  log-enabled = false
                  pprof-enabled = false
                """.formatted(rpcPort, dir.resolve("meta"), dir.resolve("data"), dir.resolve("wal"), httpPort));
        Process process = new ProcessBuilder(BINARY.toString(), "run", "-config", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("influxd.log").toFile())
                .start();
        Influxd influxd = new Influxd(process, httpPort);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!influxd.pings()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                influxd.close();
                throw new IOException("influxd did not answer /ping on 127.0.0.1:" + httpPort + "; its log: "
                        + Files.readString(dir.resolve("influxd.log")));
            }
            Thread.sleep(20);
        }
        return influxd;
    }

    private boolean pings() throws InterruptedException {
        try {
            return http.send(request("/ping").GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Runs InfluxQL and returns InfluxDB's JSON answer (errors are in it, not thrown). */
    JsonNode query(String database, String influxql) throws IOException, InterruptedException {
        String form = "db=" + URLEncoder.encode(database, StandardCharsets.UTF_8)
                + "&q=" + URLEncoder.encode(influxql, StandardCharsets.UTF_8);
        HttpResponse<String> response = http.send(request("/query")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    /** Posts line protocol (nanosecond timestamps) to /write; fails unless InfluxDB answers 204. */
    void write(String database, String lineProtocol) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request("/write?precision=ns&db="
                        + URLEncoder.encode(database, StandardCharsets.UTF_8))
                .POST(HttpRequest.BodyPublishers.ofString(lineProtocol)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 204) {
            throw new IOException("influxd /write answered " + response.statusCode() + ": " + response.body());
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path)).timeout(Duration.ofSeconds(30));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
