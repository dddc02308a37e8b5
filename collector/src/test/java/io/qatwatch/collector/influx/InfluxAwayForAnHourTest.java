package io.qatwatch.collector.influx;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.Influxd;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * InfluxDB away for an hour (issue 34 item 5), against Debian's influxd: while it is stopped, an hour of a fleet's
 * points (more than the spool holds) is fed as reports come, one small submission at a time. The spool stays within
 * {@code spoolMaxBytes} on disk at every moment, in few files; once influxd is back, what arrives is exactly what
 * docs/influxdb.md promises, the newest points with the oldest dropped, and the drop counter is the difference; the
 * reports that come while the spool drains push nothing out of it.
 */
class InfluxAwayForAnHourTest {

    private static final long BOUND = 1024 * 1024;
    private static final int BATCH = 1000;
    private static final int HOSTS = 50;
    private static final int POINTS_PER_REPORT = 20;
    private static final Instant START = Instant.parse("2026-11-30T02:00:00Z");

    @TempDir
    Path dir;

    @Test
    void anHourAwayKeepsTheNewestPointsWithinTheBoundAndCountsTheOldestDropped() throws Exception {
        assertThat(Influxd.installed()).as("influxd from Debian's influxdb package (./run-tests installs it)").isTrue();
        Path spoolDir = dir.resolve("influx-spool");
        try (Influxd influxd = new Influxd(dir.resolve("influxd")).start()) {
            assertThat(influxd.query(null, "CREATE DATABASE qatwatch")).doesNotContain("error");
            InfluxSink sink = new InfluxSink(new InfluxV1Writer(influxd.url(), "qatwatch", null, null, null,
                    Duration.ofSeconds(2)), spoolDir, 10_000, BOUND, BATCH, Duration.ofSeconds(1)).start();
            try {
                assertThat(sink.submit(List.of("drill_marker,phase=before n=1i " + nanos(START)))).isTrue();
                awaitCount(influxd, "SELECT count(n) FROM drill_marker", 1);

                influxd.stop();
                SpoolWatch watch = new SpoolWatch(spoolDir);
                long fedStarted = System.nanoTime();
                long fed = feed(sink, 0, 60, watch);
                Duration feeding = Duration.ofNanos(System.nanoTime() - fedStarted);
                awaitMetric(sink, m -> m.get("qatwatch_influx_queue_items") == 0
                        && m.get("qatwatch_influx_spool_points") + m.get("qatwatch_influx_dropped_spool_full_points_total") == fed);
                watch.sample();
                var away = sink.metrics();
                long spooled = away.get("qatwatch_influx_spool_points");
                assertThat(fed).as("an hour of 50 hosts' reports, 20 points each").isEqualTo(60_000);
                assertThat(away.get("qatwatch_influx_up")).isZero();
                assertThat(away.get("qatwatch_influx_dropped_spool_full_points_total")).as("more than the spool holds")
                        .isPositive();
                assertThat(away.get("qatwatch_influx_dropped_queue_full_total")).isZero();
                assertThat(away.get("qatwatch_influx_spool_bytes")).isLessThanOrEqualTo(BOUND);
                assertThat(watch.maxBytes()).as("the spool's files on disk, at every moment of the hour")
                        .isLessThanOrEqualTo(BOUND);
                assertThat(watch.maxFiles()).as("batches of " + BATCH + " points, or a second's worth of reports")
                        .isLessThanOrEqualTo(spooled / BATCH + feeding.toSeconds() + 3);

                influxd.start();
                awaitMetric(sink, m -> m.get("qatwatch_influx_up") == 1);
                long droppedAway = sink.metrics().get("qatwatch_influx_dropped_spool_full_points_total");
                long total = fed + feed(sink, 60, 70, watch);
                awaitMetric(sink, m -> m.get("qatwatch_influx_queue_items") == 0 && m.get("qatwatch_influx_spool_points") == 0
                        && m.get("qatwatch_influx_up") == 1);
                long dropped = sink.metrics().get("qatwatch_influx_dropped_spool_full_points_total");
                assertThat(dropped).as("once InfluxDB takes writes again, new points make room by writing the oldest")
                        .isEqualTo(droppedAway);
                awaitCount(influxd, "SELECT count(seq) FROM drill", total - dropped);
                JsonArray row = values(influxd.query("qatwatch", "SELECT count(seq), min(seq), max(seq) FROM drill"));
                assertThat(row.getLong(1)).as("every point not counted as dropped arrived").isEqualTo(total - dropped);
                assertThat(row.getLong(2)).as("the oldest were dropped, exactly as many as counted").isEqualTo(dropped);
                assertThat(row.getLong(3)).as("the newest arrived").isEqualTo(total - 1);
                assertThat(values(influxd.query("qatwatch", "SELECT count(seq) FROM drill WHERE seq >= " + fed)).getLong(1))
                        .as("every point written after InfluxDB returned").isEqualTo(total - fed);
                assertThat(sink.metrics().get("qatwatch_influx_points_written_total")).isEqualTo(1 + total - dropped);
            } finally {
                sink.close();
            }
        }
    }

    /**
     * Feeds minutes {@code from} (inclusive) to {@code to} of the fleet: each host's report of the minute is one
     * submission of 20 points, the next a millisecond later, as ingest would submit them; {@code seq} numbers every
     * point in the order fed. Returns the points fed.
     */
    private static long feed(InfluxSink sink, int from, int to, SpoolWatch watch) {
        long fed = 0;
        for (int minute = from; minute < to; minute++) {
            for (int host = 0; host < HOSTS; host++) {
                List<String> lines = new ArrayList<>(POINTS_PER_REPORT);
                long seq = ((long) minute * HOSTS + host) * POINTS_PER_REPORT;
                for (int k = 0; k < POINTS_PER_REPORT; k++) {
                    lines.add(String.format("drill,host=sql%03d,point=p%02d seq=%di %d", host, k, seq + k,
                            nanos(START.plusSeconds(60L * minute))));
                }
                assertThat(sink.submit(lines)).isTrue();
                fed += lines.size();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            watch.sample();
        }
        return fed;
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The largest the spool directory's files got, and the most files, over the samples taken. */
    private static final class SpoolWatch {
        private final Path dir;
        private final AtomicLong maxBytes = new AtomicLong();
        private final AtomicLong maxFiles = new AtomicLong();

        SpoolWatch(Path dir) {
            this.dir = dir;
        }

        void sample() {
            long bytes = 0;
            long files = 0;
            try (Stream<Path> list = Files.list(dir)) {
                for (Path f : (Iterable<Path>) list::iterator) {
                    try {
                        bytes += Files.size(f);
                        files++;
                    } catch (NoSuchFileException goneMeanwhile) {
                        // written and removed between the listing and the look
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            maxBytes.accumulateAndGet(bytes, Math::max);
            maxFiles.accumulateAndGet(files, Math::max);
        }

        long maxBytes() {
            return maxBytes.get();
        }

        long maxFiles() {
            return maxFiles.get();
        }
    }

    private static JsonArray values(String answer) {
        JsonObject result = new JsonObject(answer).getJsonArray("results").getJsonObject(0);
        assertThat(result.getString("error")).as(answer).isNull();
        JsonArray series = result.getJsonArray("series");
        assertThat(series).as(answer).isNotNull();
        return series.getJsonObject(0).getJsonArray("values").getJsonArray(0);
    }

    private static void awaitCount(Influxd influxd, String influxQl, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long seen = -1;
        while (System.nanoTime() < deadline) {
            JsonArray series = new JsonObject(influxd.query("qatwatch", influxQl)).getJsonArray("results").getJsonObject(0)
                    .getJsonArray("series");
            seen = series == null ? 0 : series.getJsonObject(0).getJsonArray("values").getJsonArray(0).getLong(1);
            if (seen == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + expected + " from " + influxQl + ", saw " + seen);
    }

    private static void awaitMetric(InfluxSink sink, java.util.function.Predicate<java.util.Map<String, Long>> test)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (test.test(sink.metrics())) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never reached: " + sink.metrics());
    }
}
