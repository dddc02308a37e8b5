package io.qatwatch.collector.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.InetAddress;
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
 * Debian's {@code influxd} (InfluxDB 1.x) as a child process on loopback ports with a data directory of its own;
 * stop and start again on the same port and data to simulate an outage.
 */
public final class Influxd implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dir;
    private final int httpPort;
    private final int rpcPort;
    private Process process;

    public Influxd(Path dir) throws IOException {
        this.dir = dir;
        this.httpPort = freePort();
        this.rpcPort = freePort();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("influxd.conf"), """
                reporting-enabled = false
                bind-address = "127.0.0.1:%d"
                [meta]
                  dir = "%s/meta"
                [data]
                  dir = "%s/data"
                  wal-dir = "%s/wal"
                  query-log-enabled = false
                [monitor]
                  store-enabled = false
                [http]
                  enabled = true
                  bind-address = "127.0.0.1:%d"
                  auth-enabled = false
                  log-enabled = false
                  pprof-enabled = false
                """.formatted(rpcPort, dir, dir, dir, httpPort));
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public static boolean installed() {
        return Files.isExecutable(Path.of("/usr/bin/influxd"));
    }

    public String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    public Influxd start() throws Exception {
        process = new ProcessBuilder("/usr/bin/influxd", "run", "-config", dir.resolve("influxd.conf").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("influxd.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/ping")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
                    return this;
                }
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("influxd exited: " + Files.readString(dir.resolve("influxd.log")));
            }
        }
        throw new IllegalStateException("influxd not ready on " + url());
    }

    /** Stops it (SIGTERM) and waits for the process to exit, so the port and data directory are free again. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /** Runs InfluxQL and returns the JSON answer. */
    public String query(String database, String influxQl) throws Exception {
        String body = "q=" + URLEncoder.encode(influxQl, StandardCharsets.UTF_8)
                + (database == null ? "" : "&db=" + URLEncoder.encode(database, StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/query"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
