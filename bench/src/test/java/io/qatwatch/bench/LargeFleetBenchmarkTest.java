package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LargeFleetBenchmarkTest {

    @Test
    void aProcesssLiveHeapIsTheTotalOfItsClassHistogramAfterAFullCollection() throws Exception {
        byte[] held = new byte[32 << 20];

        long live = LargeFleetBenchmark.liveHeapBytes(ProcessHandle.current().pid());

        assertThat(live).as("jcmd's histogram of this JVM, which holds a 32 MiB array")
                .isGreaterThan(held.length).isLessThanOrEqualTo(Runtime.getRuntime().totalMemory());
        assertThat(held).hasSize(32 << 20);
    }

    @Test
    void aHistogramWithoutItsTotalLineReadsAsNotMeasured() {
        assertThat(LargeFleetBenchmark.histogramTotalBytes("12345:\ncom.sun.tools.attach.AttachNotSupportedException"))
                .isEqualTo(-1);
    }
}
