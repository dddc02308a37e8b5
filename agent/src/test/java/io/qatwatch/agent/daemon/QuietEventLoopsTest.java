package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoopGroup;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Idle event loops, counted by the kernel: the voluntary context switches of each loop's thread over a few
 * seconds (Linux only). Without the no-op, Netty 4.2 wakes an idle loop every second.
 */
class QuietEventLoopsTest {

    private static final long IDLE_MILLIS = 3_500;

    @Test
    void idleLoopsSleepOnceQuieted() throws Exception {
        assumeTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "needs Linux /proc");
        Vertx quiet = serving();
        Vertx plain = serving();
        try {
            QuietEventLoops.apply(quiet, true);
            long[] quietThreads = loopThreads(quiet);
            long[] plainThreads = loopThreads(plain);
            long[] quietBefore = switches(quietThreads);
            long[] plainBefore = switches(plainThreads);
            Thread.sleep(IDLE_MILLIS);
            long[] quietAfter = switches(quietThreads);
            long[] plainAfter = switches(plainThreads);
            for (int i = 0; i < quietThreads.length; i++) {
                assertThat(quietAfter[i] - quietBefore[i]).as("wake-ups of quieted loop %d in %d ms", i, IDLE_MILLIS)
                        .isLessThanOrEqualTo(1);
                assertThat(plainAfter[i] - plainBefore[i]).as("wake-ups of a plain Netty 4.2 loop %d in %d ms", i, IDLE_MILLIS)
                        .isGreaterThanOrEqualTo(2);
            }
        } finally {
            quiet.close().await(10, TimeUnit.SECONDS);
            plain.close().await(10, TimeUnit.SECONDS);
        }
    }

    /** One event loop and an HTTP server on loopback, so that the acceptor loop runs too; nothing else scheduled. */
    private static Vertx serving() throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setBlockedThreadCheckInterval(60_000));
        vertx.createHttpServer().requestHandler(req -> req.response().end()).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        return vertx;
    }

    /** The kernel thread ids of the event loop and the acceptor loop. */
    private static long[] loopThreads(Vertx vertx) throws Exception {
        VertxInternal internal = (VertxInternal) vertx;
        return new long[] {threadId(internal.eventLoopGroup()), threadId(internal.acceptorEventLoopGroup())};
    }

    private static long threadId(EventLoopGroup group) throws Exception {
        String self = group.next().submit(() -> Files.readSymbolicLink(Path.of("/proc/thread-self")).toString())
                .get(10, TimeUnit.SECONDS);
        return Long.parseLong(self.substring(self.lastIndexOf('/') + 1));
    }

    private static long[] switches(long[] threads) throws IOException {
        long[] counts = new long[threads.length];
        for (int i = 0; i < threads.length; i++) {
            for (String line : Files.readAllLines(Path.of("/proc/self/task/" + threads[i] + "/status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    counts[i] = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        }
        return counts;
    }
}
