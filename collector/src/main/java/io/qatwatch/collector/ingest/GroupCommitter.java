package io.qatwatch.collector.ingest;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Group commit for ingest: reports that arrive while the store worker is busy are stored together in one
 * transaction, so the durable commit (a disk flush) is paid once per batch instead of once per report.
 * Each report's future completes, on the context that submitted it, only after its batch committed: a 202
 * still means "durably stored".
 */
public final class GroupCommitter {

    private record Pending(Incoming incoming, Context context, Promise<ReportStore.Stored> promise) {
    }

    private final Vertx vertx;
    private final WorkerExecutor storeWorker;
    private final ReportStore store;
    private final int maxBatch;
    private final Queue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    public GroupCommitter(Vertx vertx, WorkerExecutor storeWorker, ReportStore store, int maxBatch) {
        this.vertx = vertx;
        this.storeWorker = storeWorker;
        this.store = store;
        this.maxBatch = maxBatch;
    }

    /** Queues one report; the future completes when the batch holding it has committed (or failed). */
    public Future<ReportStore.Stored> store(Incoming incoming) {
        Promise<ReportStore.Stored> promise = Promise.promise();
        queue.add(new Pending(incoming, vertx.getOrCreateContext(), promise));
        if (draining.compareAndSet(false, true)) {
            storeWorker.executeBlocking(() -> {
                drain();
                return null;
            }, true);
        }
        return promise.future();
    }

    /** Runs on the store worker until the queue is empty. */
    private void drain() {
        while (true) {
            List<Pending> batch = new ArrayList<>();
            for (Pending p; batch.size() < maxBatch && (p = queue.poll()) != null; ) {
                batch.add(p);
            }
            if (batch.isEmpty()) {
                draining.set(false);
                // a report queued between the empty poll and the reset would otherwise wait for the next one
                if (queue.isEmpty() || !draining.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            List<Outcome> outcomes;
            try {
                outcomes = store.storeAll(batch.stream().map(Pending::incoming).toList());
            } catch (RuntimeException e) {
                outcomes = batch.stream().map(p -> new Outcome(null, e)).toList();
            }
            for (int i = 0; i < batch.size(); i++) {
                Pending p = batch.get(i);
                Outcome o = outcomes.get(i);
                p.context().runOnContext(v -> {
                    if (o.error() == null) {
                        p.promise().complete(o.stored());
                    } else {
                        p.promise().fail(o.error());
                    }
                });
            }
        }
    }
}
