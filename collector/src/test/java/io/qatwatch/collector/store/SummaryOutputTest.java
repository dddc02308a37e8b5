package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A summary body's writer keeps its buffer on the thread between bodies (every instance's summary is written in the
 * morning, and a buffer grown from 512 bytes by doubling allocated about twice the body again each time): what a body
 * holds must not depend on what the thread wrote before, and two bodies written at once must not share a buffer.
 */
class SummaryOutputTest {

    private static final Instant BASE = Instant.parse("2026-12-06T06:00:00Z");
    /** Database names, made once: the allocation test counts the writer's bytes, not the test's. */
    private static final String[] NAMES = java.util.stream.IntStream.range(0, 20).mapToObj(i -> "db" + i).toArray(String[]::new);

    @Test
    void aBodyHoldsTheSameBytesWhateverTheThreadWroteBefore() throws Exception {
        byte[] alone = CompletableFuture.supplyAsync(() -> body(7, 10)).get();
        body(1_000, 100_000);
        assertThat(body(7, 10)).as("written after a larger body on this thread").containsExactly(alone);
        assertThat(body(7, 10)).as("and again").containsExactly(alone);
    }

    @Test
    void twoBodiesWrittenAtOnceOnOneThreadKeepTheirOwnBytes() {
        byte[] first = body(5, 3);
        byte[] second = body(9, 400);
        SummaryOutput a = new SummaryOutput(BASE);
        SummaryOutput b = new SummaryOutput(BASE);
        for (int i = 0; i < 400; i++) {
            if (i < 3) {
                a.writeLong(5 * i);
                a.writeString(NAMES[i % NAMES.length]);
            }
            b.writeLong(9 * i);
            b.writeString(NAMES[i % NAMES.length]);
        }
        assertThat(a.toByteArray()).containsExactly(first);
        assertThat(b.toByteArray()).containsExactly(second);
    }

    @Test
    void aBodyIsReadOutOnce() {
        SummaryOutput out = new SummaryOutput(BASE);
        out.writeCount(3);
        out.toByteArray();
        assertThatThrownBy(out::toByteArray).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aLargeBodyWrittenAgainAllocatesLittleMoreThanItself() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        int size = 0;
        for (int round = 0; round < 3; round++) {
            size = body(3, 60_000).length;
        }
        long before = threads.getThreadAllocatedBytes(self);
        byte[] again = body(3, 60_000);
        long allocated = threads.getThreadAllocatedBytes(self) - before;
        assertThat(again).hasSize(size);
        // the body itself, once (its copy out), and the strings' map; growing from 512 bytes would add about twice the body
        assertThat(allocated).as("bytes allocated writing a %d-byte body", size).isLessThan(size + size / 2 + 64_000);
    }

    /** A body of {@code n} numbers (each {@code step} apart) and a few repeated names. */
    private static byte[] body(int step, int n) {
        SummaryOutput out = new SummaryOutput(BASE);
        for (int i = 0; i < n; i++) {
            out.writeLong((long) step * i);
            out.writeString(NAMES[i % NAMES.length]);
        }
        return out.toByteArray();
    }
}
