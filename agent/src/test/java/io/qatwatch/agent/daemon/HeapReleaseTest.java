package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.ship.DeliveryVerticle;
import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the agent collects the heap a backlog grew: at the end of the catch-up, and once more when the reports it left
 * in the outbox have been delivered; not again on later deliveries.
 */
class HeapReleaseTest {

    private final Vertx vertx = Vertx.vertx();
    private final AtomicLong depth = new AtomicLong();
    private final AtomicInteger collections = new AtomicInteger();
    private CountDownLatch collected = new CountDownLatch(0);

    private final HeapRelease release = new HeapRelease(vertx, depth::get, () -> {
        collections.incrementAndGet();
        collected.countDown();
    });

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void collectsAgainOnceTheBacklogsReportsAreDelivered() throws Exception {
        depth.set(2);
        release.caughtUp();
        assertThat(collections).hasValue(1);

        depth.set(1);
        release.delivered().await(10, TimeUnit.SECONDS);
        assertThat(collections).as("a report still waits").hasValue(1);

        depth.set(0);
        release.delivered().await(10, TimeUnit.SECONDS);
        assertThat(collections).hasValue(2);

        release.delivered().await(10, TimeUnit.SECONDS);
        assertThat(collections).as("later deliveries of the steady state").hasValue(2);
    }

    @Test
    void anEmptyOutboxAtTheEndOfTheCatchUpNeedsNoSecondCollection() throws Exception {
        release.caughtUp();
        release.delivered().await(10, TimeUnit.SECONDS);
        assertThat(collections).hasValue(1);
    }

    @Test
    void listensForTheDeliveryLoopsAnnouncements() throws Exception {
        release.listen().completion().await(10, TimeUnit.SECONDS);
        depth.set(1);
        release.caughtUp();
        depth.set(0);
        collected = new CountDownLatch(1);
        vertx.eventBus().publish(DeliveryVerticle.DELIVERED_ADDRESS, null);
        assertThat(collected.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(collections).hasValue(2);
    }
}
