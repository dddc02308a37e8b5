package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.testing.Influxd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's spool against a port where nothing listens: bounded, oldest dropped and counted, kept across restarts. */
class InfluxSinkSpoolTest {

    @TempDir
    Path dir;

    private static List<String> points(int batch, int n) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Alert silent = new Alert("agent-silent", Severity.WARNING, "h" + batch, "PROD", null, null, "x".repeat(1000),
                    "the agent stopped reporting", List.of(), List.of());
            lines.add(InfluxPoints.alert(silent, null, true, Instant.ofEpochSecond(1_800_000_000L + batch * 1000L + i)));
        }
        return lines;
    }

    @Test
    void unreachableInfluxFillsABoundedSpoolThatSurvivesARestart() throws Exception {
        String nowhere = "http://127.0.0.1:" + Influxd.freePort();
        Path spoolDir = dir.resolve("spool");
        long bound = 1024 * 1024;
        InfluxSink sink = new InfluxSink(new InfluxV1Writer(nowhere, "qatwatch", null, null, null, Duration.ofSeconds(1)),
                spoolDir, 1000, bound, 100, Duration.ofSeconds(1)).start();
        for (int batch = 0; batch < 30; batch++) {
            assertThat(sink.submit(points(batch, 100))).isTrue();
        }
        await(() -> sink.metrics().get("qatwatch_influx_dropped_spool_full_points_total"), v -> v > 0);
        sink.close();
        var m = sink.metrics();
        assertThat(m.get("qatwatch_influx_spool_bytes")).isLessThanOrEqualTo(bound);
        assertThat(m.get("qatwatch_influx_spool_points") + m.get("qatwatch_influx_dropped_spool_full_points_total"))
                .as("every point is either spooled or counted as dropped").isEqualTo(3000);
        assertThat(m.get("qatwatch_influx_up")).isZero();
        long spooled = m.get("qatwatch_influx_spool_points");

        try (var files = Files.list(spoolDir)) {
            assertThat(files.filter(f -> f.toString().endsWith(".lp")).count()).isPositive();
        }
        InfluxSink restarted = new InfluxSink(new InfluxV1Writer(nowhere, "qatwatch", null, null, null,
                Duration.ofSeconds(1)), spoolDir, 1000, bound, 100, Duration.ofSeconds(1));
        assertThat(restarted.metrics().get("qatwatch_influx_spool_points")).as("the spool is read back on start")
                .isEqualTo(spooled);
        restarted.close();
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws Exception {
        InfluxSink sink = new InfluxSink(new InfluxV1Writer("http://127.0.0.1:" + Influxd.freePort(), "qatwatch", null,
                null, null, Duration.ofSeconds(1)), dir.resolve("spool2"), 2, 16L * 1024 * 1024, 100, Duration.ofSeconds(1));
        assertThat(sink.submit(points(0, 1))).isTrue();
        assertThat(sink.submit(points(1, 1))).isTrue();
        assertThat(sink.submit(points(2, 1))).as("not started: the queue of 2 is full").isFalse();
        assertThat(sink.metrics().get("qatwatch_influx_dropped_queue_full_total")).isEqualTo(1);
        assertThat(sink.metrics().get("qatwatch_influx_queue_items")).isEqualTo(2);
        sink.close();
    }

    private static void await(LongSupplier value, java.util.function.LongPredicate test) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (test.test(value.getAsLong())) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never reached; last " + value.getAsLong());
    }
}
