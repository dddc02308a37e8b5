package io.qatwatch.bench;

import java.io.IOException;
import java.net.InetAddress;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real InfluxDB for the sink run: Debian's {@code influxd} 1.x on loopback with a scratch data directory.
 * {@code ./run-tests} installs it ({@code apt-get install influxdb}); the collector writes to it in v1 mode.
 */
public final class InfluxdServer implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/influxd");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern COUNT = Pattern.compile("\"values\":\\[\\[\"[^\"]*\",(\\d+)]]");

    private final Process process;
    private final String url;

    private InfluxdServer(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts influxd under {@code dir} and creates {@code database}. */
    public static InfluxdServer start(Path dir, String database) throws Exception {
        Files.createDirectories(dir);
        int http = freeLoopbackPort();
        int rpc = freeLoopbackPort();
        Path conf = dir.resolve("influxd.conf");
        // every listener on 127.0.0.1: the packaged config listens on all interfaces
        Files.writeString(conf, String.join("\n",
                "reporting-enabled = false",
                "bind-address = \"127.0.0.1:" + rpc + "\"",
                "[meta]", "dir = \"" + dir.resolve("meta") + "\"",
                "[data]", "dir = \"" + dir.resolve("data") + "\"", "wal-dir = \"" + dir.resolve("wal") + "\"",
                "query-log-enabled = false",
                "[monitor]", "store-enabled = false",
                "[http]", "bind-address = \"127.0.0.1:" + http + "\"", "log-enabled = false", ""));
        Process p = new ProcessBuilder(BINARY.toString(), "run", "-config", conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("influxd.log").toFile()).start();
        InfluxdServer server = new InfluxdServer(p, "http://127.0.0.1:" + http);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                HttpResponse<Void> ping = HTTP.send(HttpRequest.newBuilder(URI.create(server.url + "/ping")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ping.statusCode() == 204) {
                    break;
                }
            } catch (IOException starting) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException("influxd did not start on " + server.url + "; see " + dir.resolve("influxd.log"));
                }
                Thread.sleep(50);
            }
        }
        server.query(null, "CREATE DATABASE " + database);
        return server;
    }

    public String url() {
        return url;
    }

    public long pid() {
        return process.pid();
    }

    /** The number a {@code SELECT count(...)} answered, 0 when the series is empty. */
    public long count(String database, String influxQl) throws Exception {
        Matcher m = COUNT.matcher(query(database, influxQl));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private String query(String database, String influxQl) throws Exception {
        String form = "q=" + URLEncoder.encode(influxQl, StandardCharsets.UTF_8)
                + (database == null ? "" : "&db=" + URLEncoder.encode(database, StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops influxd and waits for it to exit (it takes 1–3 s to shut down cleanly). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
