package io.qatwatch.agent.daemon;

import io.qatwatch.agent.ship.DeliveryVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Gives back the heap a backlog grew: one full collection when a catch-up ends, and one more once the outbox it
 * filled has been delivered. The serial collector returns memory only after a full collection; the last pages'
 * reports (~2 MB each, read back from the outbox and compressed after the first collection, too large for the young
 * generation) would otherwise keep the old generation grown by a few MB until the next full collection, which an
 * agent that allocates ~0.4 MB a minute may not have for hours (docs/benchmarks.md, "Agent footprint").
 */
final class HeapRelease {

    private final Vertx vertx;
    private final LongSupplier outboxDepth;
    private final Runnable collect;
    private final AtomicBoolean afterDelivery = new AtomicBoolean();

    /** @param collect the full collection ({@code System.gc()}); run off the event loop */
    HeapRelease(Vertx vertx, LongSupplier outboxDepth, Runnable collect) {
        this.vertx = vertx;
        this.outboxDepth = outboxDepth;
        this.collect = collect;
    }

    /** Listens for deliveries ({@link DeliveryVerticle#DELIVERED_ADDRESS}). */
    MessageConsumer<Object> listen() {
        return vertx.eventBus().localConsumer(DeliveryVerticle.DELIVERED_ADDRESS, msg -> delivered());
    }

    /** A catch-up ended; called off the event loop. Collects now, and again when the outbox is next empty. */
    void caughtUp() {
        afterDelivery.set(true);
        collect.run();
        if (outboxDepth.getAsLong() == 0) {
            afterDelivery.set(false);
        }
    }

    /** A report was delivered: the second collection, once the outbox a catch-up filled is empty. */
    Future<Void> delivered() {
        if (outboxDepth.getAsLong() > 0 || !afterDelivery.compareAndSet(true, false)) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> {
            collect.run();
            return null;
        }, false);
    }
}
