package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.CollectorProcess;
import io.qatwatch.collector.testing.Influxd;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector as its own JVM, in a host zone that is not UTC: every line it logs from start to SIGTERM begins with
 * its ISO-8601 UTC time, and that time is now (so it is UTC, not the host's clock with a Z pasted on).
 */
class LogTimesTest {

    private static final Pattern STAMPED = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z) \\S");

    @TempDir
    Path dir;

    @Test
    void everyLogLineStartsWithItsUtcTime() throws Exception {
        int port = Influxd.freePort();
        Path config = Files.writeString(dir.resolve("collector.yaml"), "listen:\n  host: 127.0.0.1\n  port: " + port + "\n");
        Path log = dir.resolve("collector.log");
        List<String> command = new java.util.ArrayList<>(CollectorProcess.command(log, "collector", "--config", config.toString(),
                "--data", dir.resolve("data").toString()));
        command.add(1, "-Duser.timezone=America/New_York");
        Instant before = Instant.now().minusSeconds(1);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("collector.out").toFile()).start();
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            boolean up = false;
            while (!up && System.nanoTime() < deadline && p.isAlive()) {
                try {
                    up = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (java.io.IOException notYet) {
                    Thread.sleep(100);
                }
            }
            assertThat(up).as(Files.readString(dir.resolve("collector.out"))).isTrue();
        } finally {
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        Instant after = Instant.now().plusSeconds(1);
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("the collector logged its start").anyMatch(l -> l.contains("collector listening on"));
        for (String line : lines) {
            Matcher m = STAMPED.matcher(line);
            assertThat(m.find()).as("a log line without its time: %s", line).isTrue();
            assertThat(Instant.parse(m.group(1))).as(line).isBetween(before, after);
        }
    }
}
