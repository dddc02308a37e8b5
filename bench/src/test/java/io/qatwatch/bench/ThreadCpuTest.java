package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    // a line of /proc/<pid>/task/<tid>/stat whose name holds a space and both parentheses (utime 1234, stime 66 ticks)
    private static final String STAT = "4242 (odd) (name) S 1 4242 4242 0 -1 4194368 900 0 0 0 1234 66 0 0 20 0 31 0 77 "
            + "4012340 42000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

    @Test
    void readsTheNameAndTheCpuOfAStatLine() {
        assertThat(ThreadCpu.name(STAT)).isEqualTo("odd) (name");
        assertThat(ThreadCpu.cpuNanos(STAT)).isEqualTo(1300L * 10_000_000L);
    }

    @Test
    void sortsTheKernelsCutNamesIntoKinds() {
        assertThat(ThreadCpu.kind("qatwatch-alert-")).isEqualTo("stage");
        assertThat(ThreadCpu.kind("qatwatch-store-")).isEqualTo("store");
        assertThat(ThreadCpu.kind("qatwatch-read-1")).isEqualTo("store");
        assertThat(ThreadCpu.kind("C2 CompilerThre")).isEqualTo("JIT");
        assertThat(ThreadCpu.kind("C1 CompilerThre")).isEqualTo("JIT");
        assertThat(ThreadCpu.kind("GC Thread#0")).isEqualTo("GC");
        assertThat(ThreadCpu.kind("G1 Conc#0")).isEqualTo("GC");
        assertThat(ThreadCpu.kind("vert.x-eventloo")).isEqualTo("other");
    }

    @Test
    void countsABusyStageThreadOfThisProcessAsTheStages() throws Exception {
        long pid = ProcessHandle.current().pid();
        Map<String, Long> before = ThreadCpu.sample(pid);
        CountDownLatch done = new CountDownLatch(1);
        long[] spun = new long[1];
        Thread stage = new Thread(() -> {
            // 300 ms of this thread's own CPU, whatever else the machine does
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long until = mx.getCurrentThreadCpuTime() + 300_000_000L;
            while (mx.getCurrentThreadCpuTime() < until) {
                spun[0] += Long.numberOfTrailingZeros(spun[0] + System.nanoTime());
            }
            done.countDown();
            try {
                Thread.sleep(Long.MAX_VALUE); // alive at the second sample: an ended thread's CPU leaves /proc with it
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }, "qatwatch-alert-stage-9");
        stage.start();
        done.await();
        Map<String, Long> after = ThreadCpu.sample(pid);
        stage.interrupt();

        assertThat(after.keySet()).containsExactly(ThreadCpu.KINDS);
        assertThat(after.get("stage") - before.get("stage")).isGreaterThanOrEqualTo(200_000_000L);
        assertThat(ThreadCpu.secondsBetween(before, after)).matches("\\d+\\.\\d\\d( / \\d+\\.\\d\\d){4}");
        assertThat(ThreadCpu.secondsBetween(Map.of(), after)).isEqualTo("n/a");
        assertThat(ThreadCpu.seconds(Map.of())).isEqualTo("n/a");
        assertThat(Double.parseDouble(ThreadCpu.seconds(after).split(" / ")[0])).isGreaterThanOrEqualTo(0.2);
    }
}
