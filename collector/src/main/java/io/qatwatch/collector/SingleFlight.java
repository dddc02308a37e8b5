package io.qatwatch.collector;

import io.vertx.core.Future;
import java.util.function.Supplier;

/**
 * At most one run of a periodic blocking task in flight: a tick that finds the previous run unfinished is skipped,
 * not queued. While PostgreSQL is away each lease renewal waits for its connection timeout; queued ticks would pile
 * up behind it (and hold worker threads and pool waits that ingest needs once the database is back). Used on one
 * event loop, so the flag needs no lock (the count of skipped ticks is read elsewhere).
 */
final class SingleFlight {

    private boolean inFlight;
    private volatile long skipped;

    /** Starts {@code run} unless one is still in flight; the future of the run, or null when this tick was skipped. */
    <T> Future<T> run(Supplier<Future<T>> run) {
        if (inFlight) {
            skipped++;
            return null;
        }
        inFlight = true;
        Future<T> f;
        try {
            f = run.get();
        } catch (RuntimeException e) {
            inFlight = false;
            throw e;
        }
        return f.andThen(done -> inFlight = false);
    }

    /** Ticks skipped because a run was still in flight. */
    long skipped() {
        return skipped;
    }
}
