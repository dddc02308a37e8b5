package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease renewal's guard on a real Vert.x timer and worker pool: while one renewal hangs (PostgreSQL away: a
 * connection attempt waits its timeout), the timer's ticks start no other; once it returns, the next tick runs at once.
 */
class SingleFlightTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void aTickThatFindsTheLastRunStillWaitingIsSkippedNotQueued() throws Exception {
        SingleFlight renewal = new SingleFlight();
        CountDownLatch databaseBack = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        CountDownLatch ranAfterReturn = new CountDownLatch(1);
        long timer = vertx.setPeriodic(20, t -> {
            Future<Integer> f = renewal.run(() -> vertx.executeBlocking(() -> {
                int n = started.incrementAndGet();
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    if (n == 1) {
                        databaseBack.await(30, TimeUnit.SECONDS);
                    }
                } finally {
                    inFlight.decrementAndGet();
                }
                return n;
            }, false));
            if (f != null) {
                f.onSuccess(n -> {
                    if (n > 1) {
                        ranAfterReturn.countDown();
                    }
                });
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (renewal.skipped() < 25 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(renewal.skipped()).as("ticks while the first renewal hangs").isGreaterThanOrEqualTo(25);
        assertThat(started).as("renewals started while one hangs").hasValue(1);
        databaseBack.countDown();
        assertThat(ranAfterReturn.await(10, TimeUnit.SECONDS)).as("the next tick renews once the first returned").isTrue();
        vertx.cancelTimer(timer);
        assertThat(mostInFlight).as("renewals in flight at once").hasValue(1);
    }
}
