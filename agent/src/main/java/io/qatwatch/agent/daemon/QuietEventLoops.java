package io.qatwatch.agent.daemon;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Lets the agent's Netty event loops sleep until they have work. Netty 4.2 wakes an event loop with nothing
 * scheduled once a second (to purge cancelled timers); the agent's loops are idle for a minute at a time, so
 * that is 2 × 86,400 wake-ups a day for nothing: the acceptor loop, which has nothing else to do, took 0.03 % of
 * a core on its own (docs/benchmarks.md, "Agent footprint"). A no-op task scheduled far ahead on every loop, the
 * acceptor's included, makes the loop sleep until its next real timer instead.
 */
public final class QuietEventLoops {

    /** How far ahead the no-op runs; any real timer (report cycle, retry, idle connection) comes sooner. */
    static final Duration NAP = Duration.ofHours(1);

    private QuietEventLoops() {
    }

    /**
     * Schedules the no-op on every event loop of {@code vertx}; call once.
     *
     * @param serving whether a server listens (then the acceptor loop runs too); without one, scheduling on the
     *                acceptor would start a thread that is otherwise never started
     */
    public static void apply(Vertx vertx, boolean serving) {
        VertxInternal internal = (VertxInternal) vertx;
        quiet(internal.eventLoopGroup());
        if (serving) {
            quiet(internal.acceptorEventLoopGroup());
        }
    }

    private static void quiet(EventLoopGroup group) {
        long nap = NAP.toMillis();
        for (EventExecutor loop : group) {
            loop.scheduleAtFixedRate(QuietEventLoops::nothing, nap, nap, TimeUnit.MILLISECONDS);
        }
    }

    private static void nothing() {
        // the point is the schedule: the loop's select waits until this task is due
    }
}
