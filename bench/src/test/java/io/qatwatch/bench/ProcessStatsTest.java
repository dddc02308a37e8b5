package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessStatsTest {

    private static final String STATUS = """
            Name:\tjava
            VmPeak:\t 4012340 kB
            VmHWM:\t  183204 kB
            VmRSS:\t  171932 kB
            Threads:\t31
            """;

    @Test
    void readsKilobyteLinesOfProcStatus() {
        assertThat(ProcessStats.kilobytes(STATUS, "VmRSS")).isEqualTo(171_932);
        assertThat(ProcessStats.kilobytes(STATUS, "VmHWM")).isEqualTo(183_204);
        assertThat(ProcessStats.kilobytes(STATUS, "VmSwap")).isEqualTo(-1);
    }

    @Test
    void samplesThisProcessAndSeesItsCpuGrow() {
        long pid = ProcessHandle.current().pid();
        ProcessStats.Sample before = ProcessStats.sample(pid);
        long spin = 0;
        long until = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
        }
        ProcessStats.Sample after = ProcessStats.sample(pid);
        assertThat(spin).isPositive();
        assertThat(after.cpu()).isGreaterThan(before.cpu());
        assertThat(after.coresSince(before)).isPositive();
        assertThat(after.rssBytes()).isGreaterThan(1 << 20);
        assertThat(after.peakRssBytes()).isGreaterThanOrEqualTo(after.rssBytes());
    }
}
