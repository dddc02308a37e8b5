package io.qatwatch.collector.analysis;

import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceHistory;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The alert stage's cold start reads, on a thread of their own: every instance's history, read in batches of
 * {@value #BATCH} instances ({@link ReportStore#histories}) a few batches ahead of the analysis, which takes them one
 * instance at a time in the order they were asked for. So reading the store (one core) overlaps building the
 * instances (the other), and a start makes a few queries per batch instead of several per instance. At most
 * {@value #AHEAD} batches wait, read and not yet taken, so the whole fleet's history is never held at once.
 */
final class ColdReads implements AutoCloseable {

    /**
     * Instances per {@link ReportStore#histories} call: at 90 nights an instance has ~2,000 rows (~1 MB decoded), so at
     * most ({@value #AHEAD} + 2) × 16 instances' rows are held at once, ~60 MB, and PostgreSQL answers in 1/16 of the
     * round trips.
     */
    static final int BATCH = 16;
    private static final int AHEAD = 2;
    /** No batch taken for this long: the analysis is gone, the reader stops. */
    private static final java.time.Duration ABANDONED = java.time.Duration.ofMinutes(10);

    private final List<InstanceKey> keys;
    private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(AHEAD);
    private final Thread reader;
    private volatile boolean closed;
    private Iterator<InstanceHistory> batch = Collections.emptyIterator();
    private int taken;

    private ColdReads(ReportStore store, List<InstanceKey> keys, Instant since, Instant acceleratorSince, Pacer pacer) {
        this.keys = keys;
        this.reader = new Thread(() -> read(store, since, acceleratorSince, pacer), "qatwatch-cold-reads");
        reader.setDaemon(true);
    }

    /** Starts reading the histories of {@code keys}, in their order, calling {@code pacer} before each batch. */
    static ColdReads start(ReportStore store, List<InstanceKey> keys, Instant since, Instant acceleratorSince,
            Pacer pacer) {
        ColdReads reads = new ColdReads(store, List.copyOf(keys), since, acceleratorSince, pacer);
        reads.reader.start();
        return reads;
    }

    private void read(ReportStore store, Instant since, Instant acceleratorSince, Pacer pacer) {
        try {
            for (int from = 0; from < keys.size() && !closed; from += BATCH) {
                pacer.pace();
                hand(store.histories(keys.subList(from, Math.min(keys.size(), from + BATCH)), since, acceleratorSince));
            }
        } catch (Exception | Error e) {
            // the analysis waiting for the batch rethrows it (an OutOfMemoryError included, rather than wait forever)
            hand(e);
        }
    }

    /**
     * Waits for room; gives up when closed (the refresh failed or ended before taking everything), or when nothing was
     * taken for {@link #ABANDONED}: a refresh that failed and was never followed by another (which closes this).
     */
    private void hand(Object batchOrError) {
        long since = System.nanoTime();
        try {
            while (!closed && !ready.offer(batchOrError, 100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() - since > ABANDONED.toNanos()) {
                    close();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The history of the next instance asked for, which must be {@code host}/{@code instance}; blocking until its batch
     * is read. Throws what reading it threw. After the last instance the reader is done and this is closed.
     */
    @SuppressWarnings("unchecked")
    InstanceHistory next(String host, String instance) throws Exception {
        InstanceKey expected = taken < keys.size() ? keys.get(taken) : null;
        if (closed || expected == null || !expected.host().equals(host) || !expected.instance().equals(instance)) {
            throw new IllegalStateException("cold start read " + expected + " next, not " + host + "/" + instance);
        }
        if (!batch.hasNext()) {
            Object next = ready.take();
            if (next instanceof Exception e) {
                close();
                throw e;
            }
            if (next instanceof Error e) {
                close();
                throw e;
            }
            batch = ((List<InstanceHistory>) next).iterator();
        }
        taken++;
        if (taken == keys.size()) {
            close();
        }
        return batch.next();
    }

    /** True while instances asked for are not taken yet. */
    boolean pending() {
        return !closed && taken < keys.size();
    }

    @Override
    public void close() {
        closed = true;
        ready.clear();
    }
}
