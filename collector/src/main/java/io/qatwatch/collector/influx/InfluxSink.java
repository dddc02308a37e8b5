package io.qatwatch.collector.influx;

import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.metrics.PrometheusText.Type;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes points to InfluxDB without ever holding up ingest. {@link #submit} only enqueues (bounded; a full queue
 * drops and counts); one worker thread encodes, batches and writes. When a write fails the batch goes to an
 * on-disk {@link PointSpool} and the worker retries with exponential backoff, oldest spooled batch first, so
 * InfluxDB being down for hours loses nothing up to the spool's bound.
 */
public final class InfluxSink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InfluxSink.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(500);
    /**
     * While InfluxDB is down, points gather this long (or up to a batch) before they go to the spool: one file per
     * report would be one file system block per few points, and tens of thousands of files in an hour.
     */
    private static final long SPOOL_LINGER_NANOS = Duration.ofSeconds(1).toNanos();
    private static final Supplier<List<String>> STOP = List::of;

    private final InfluxWriter writer;
    private final PointSpool spool;
    private final int batchPoints;
    private final Duration maxRetry;
    private final BlockingQueue<Supplier<List<String>>> queue;
    private final Thread worker;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong droppedQueueFull = new AtomicLong();
    private final AtomicLong droppedRejected = new AtomicLong();
    private final AtomicLong writeFailures = new AtomicLong();
    private final AtomicLong encodeFailures = new AtomicLong();
    private volatile long spoolPoints;
    private volatile long spoolBytes;
    private volatile long spoolDropped;
    private volatile long spoolFullDropped;
    private volatile boolean healthy = true;
    private Duration retryDelay = FIRST_RETRY;
    private long nextAttemptNanos;
    private long pendingSinceNanos;

    /**
     * @param spoolDir     directory of the on-disk spool (created; batches left by an earlier run are written first)
     * @param queueItems   submissions (reports or point lists) that may wait in memory
     * @param batchPoints  most points per write
     */
    public InfluxSink(InfluxWriter writer, Path spoolDir, int queueItems, long spoolMaxBytes, int batchPoints,
            Duration maxRetry) throws IOException {
        this.writer = writer;
        this.spool = new PointSpool(spoolDir, spoolMaxBytes);
        this.batchPoints = batchPoints;
        this.maxRetry = maxRetry;
        this.queue = new ArrayBlockingQueue<>(queueItems);
        publishSpool();
        this.worker = new Thread(this::run, "qatwatch-influx-sink");
        this.worker.setDaemon(true);
    }

    public InfluxSink start() {
        if (!spool.isEmpty()) {
            LOG.info("influx: {} points spooled by an earlier run will be written to {}", spool.points(), writer.describe());
        }
        worker.start();
        return this;
    }

    /**
     * Queues points for writing; {@code points} runs on the worker thread (encode there, not on the event loop).
     * Never blocks: returns false and counts the loss when the queue is full.
     */
    public boolean submit(Supplier<List<String>> points) {
        if (queue.offer(points)) {
            return true;
        }
        droppedQueueFull.incrementAndGet();
        return false;
    }

    /** Queues already-encoded lines (windows, trends, alerts). */
    public boolean submit(List<String> lines) {
        List<String> copy = List.copyOf(lines);
        return submit(() -> copy);
    }

    private void run() {
        List<String> pending = new ArrayList<>();
        boolean stopping = false;
        while (!stopping || !pending.isEmpty()) {
            try {
                if (!stopping) {
                    Supplier<List<String>> next = queue.poll(pending.isEmpty() ? 200 : 20, TimeUnit.MILLISECONDS);
                    while (next != null) {
                        if (next == STOP) {
                            stopping = true;
                            break;
                        }
                        encode(next, pending);
                        if (pending.size() >= batchPoints) {
                            break;
                        }
                        next = queue.poll();
                    }
                }
                if (!pending.isEmpty() && (stopping || healthy || pending.size() >= batchPoints
                        || System.nanoTime() - pendingSinceNanos >= SPOOL_LINGER_NANOS)) {
                    List<String> batch = new ArrayList<>(pending.subList(0, Math.min(batchPoints, pending.size())));
                    pending.subList(0, batch.size()).clear();
                    pendingSinceNanos = System.nanoTime();
                    deliver(batch, stopping);
                }
                if (!stopping) {
                    drainSpool();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
            } catch (RuntimeException e) {
                LOG.error("influx: sink worker error: {}", e.toString(), e);
            }
        }
    }

    private void encode(Supplier<List<String>> next, List<String> pending) {
        try {
            if (pending.isEmpty()) {
                pendingSinceNanos = System.nanoTime();
            }
            pending.addAll(next.get());
        } catch (RuntimeException e) {
            encodeFailures.incrementAndGet();
            LOG.error("influx: could not encode points: {}", e.toString(), e);
        }
    }

    /**
     * Writes now, unless InfluxDB is known down (backing off) or older points wait in the spool: then spools. With
     * InfluxDB answering again, the oldest spooled batches that the new one would push out of a full spool are
     * written first rather than dropped.
     */
    private void deliver(List<String> batch, boolean stopping) {
        while (!stopping && !spool.isEmpty() && !spool.hasRoomFor(batch) && System.nanoTime() >= nextAttemptNanos) {
            if (!writeOldestSpooled()) {
                break;
            }
        }
        if (stopping || !spool.isEmpty() || System.nanoTime() < nextAttemptNanos || attempt(batch) == Outcome.RETRY) {
            toSpool(batch);
        }
    }

    private void drainSpool() {
        while (!spool.isEmpty() && System.nanoTime() >= nextAttemptNanos && queue.isEmpty()) {
            if (!writeOldestSpooled()) {
                return;
            }
        }
    }

    /** Writes the oldest spooled batch and forgets it; false when the write failed and is to be retried. */
    private boolean writeOldestSpooled() {
        PointSpool.Batch oldest = spool.oldest();
        List<String> lines;
        try {
            lines = spool.read(oldest);
        } catch (IOException e) {
            LOG.error("influx: spooled batch {} unreadable, {} points dropped: {}", oldest.file(), oldest.points(), e.toString());
            spoolDropped += oldest.points();
            removeFromSpool(oldest);
            return true;
        }
        if (attempt(lines) == Outcome.RETRY) {
            return false;
        }
        removeFromSpool(oldest);
        return true;
    }

    /** What became of one write. */
    private enum Outcome { WRITTEN, RETRY, REFUSED }

    private Outcome attempt(List<String> batch) {
        try {
            writer.write(batch);
            written.addAndGet(batch.size());
            if (!healthy) {
                LOG.info("influx: writing to {} again", writer.describe());
            }
            healthy = true;
            retryDelay = FIRST_RETRY;
            nextAttemptNanos = 0;
            return Outcome.WRITTEN;
        } catch (InfluxWriter.RejectedException e) {
            droppedRejected.addAndGet(batch.size());
            LOG.warn("influx: {} points refused and dropped: {}", batch.size(), e.getMessage());
            return Outcome.REFUSED;
        } catch (Exception e) {
            writeFailures.incrementAndGet();
            if (healthy) {
                LOG.warn("influx: write to {} failed, spooling on disk and retrying: {}", writer.describe(), e.toString());
            }
            healthy = false;
            nextAttemptNanos = System.nanoTime() + retryDelay.toNanos();
            Duration doubled = retryDelay.multipliedBy(2);
            retryDelay = doubled.compareTo(maxRetry) > 0 ? maxRetry : doubled;
            return Outcome.RETRY;
        }
    }

    private void toSpool(List<String> batch) {
        try {
            spool.append(batch);
        } catch (IOException e) {
            spoolDropped += batch.size();
            LOG.error("influx: cannot spool {} points: {}", batch.size(), e.toString());
        }
        publishSpool();
    }

    private void removeFromSpool(PointSpool.Batch batch) {
        try {
            spool.remove(batch);
        } catch (IOException e) {
            LOG.error("influx: cannot delete spooled batch {}: {}", batch.file(), e.toString());
        }
        publishSpool();
    }

    private void publishSpool() {
        spoolPoints = spool.points();
        spoolBytes = spool.bytes();
        spoolFullDropped = spool.droppedPoints();
    }

    /** What each of {@link #metrics()} means, for the HELP line of {@code GET /metrics}. */
    private static final Map<String, String> HELP = Map.of(
            "qatwatch_influx_up", "1 while the last write to InfluxDB succeeded (or none was due), 0 after a failed one.",
            "qatwatch_influx_queue_items", "Reports waiting in memory to be turned into points and written.",
            "qatwatch_influx_spool_points", "Points kept on disk (influx-spool/) until InfluxDB takes them.",
            "qatwatch_influx_spool_bytes", "Size of the on-disk spool.",
            "qatwatch_influx_points_written_total", "Points InfluxDB accepted.",
            "qatwatch_influx_write_failures_total", "Writes that failed; their points wait in the spool.",
            "qatwatch_influx_dropped_queue_full_total", "Reports not written because the memory queue was full.",
            "qatwatch_influx_dropped_refused_points_total", "Points InfluxDB refused as invalid (not retried).",
            "qatwatch_influx_dropped_spool_full_points_total", "Points dropped because the spool was full.",
            "qatwatch_influx_encode_failures_total", "Reports that could not be turned into points.");

    /** Gauges and counters by name (counters end in {@code _total}). */
    public Map<String, Long> metrics() {
        Map<String, Long> m = new TreeMap<>();
        m.put("qatwatch_influx_queue_items", (long) queue.size());
        m.put("qatwatch_influx_spool_points", spoolPoints);
        m.put("qatwatch_influx_spool_bytes", spoolBytes);
        m.put("qatwatch_influx_points_written_total", written.get());
        m.put("qatwatch_influx_write_failures_total", writeFailures.get());
        m.put("qatwatch_influx_dropped_queue_full_total", droppedQueueFull.get());
        m.put("qatwatch_influx_dropped_refused_points_total", droppedRejected.get());
        m.put("qatwatch_influx_dropped_spool_full_points_total", spoolFullDropped + spoolDropped);
        m.put("qatwatch_influx_encode_failures_total", encodeFailures.get());
        m.put("qatwatch_influx_up", healthy ? 1L : 0L);
        return m;
    }

    /** {@link #metrics()} with their help and type, for {@code GET /metrics}. */
    public void writeMetrics(PrometheusText out) {
        metrics().forEach((name, value) ->
                out.family(name, name.endsWith("_total") ? Type.COUNTER : Type.GAUGE, HELP.get(name)).sample(value));
    }

    /** Points written since start. */
    public long writtenPoints() {
        return written.get();
    }

    /** Stops the worker: what is still queued goes to the spool and is written on the next start. */
    @Override
    public void close() throws InterruptedException {
        if (worker.isAlive() && queue.offer(STOP, 10, TimeUnit.SECONDS)) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        writer.close();
    }
}
