package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RebuildIngestBenchmarkTest {

    @Test
    void theFailedColumnSaysWhatEachRefusedReportGot() {
        TreeMap<Integer, Long> statuses = new TreeMap<>(Map.of(202, 10L, 503, 3L, -1, 1L));
        LoadDriver.Run refused = new LoadDriver.Run(1000, 0, 14, 10, 4, statuses, Duration.ofSeconds(1), new LatencyRecorder());
        assertThat(RebuildIngestBenchmark.failed(refused)).isEqualTo("4 (no answer: 1, HTTP 503: 3)");
        LoadDriver.Run clean = new LoadDriver.Run(1000, 0, 10, 10, 0, new TreeMap<>(Map.of(202, 10L)), Duration.ofSeconds(1),
                new LatencyRecorder());
        assertThat(RebuildIngestBenchmark.failed(clean)).isEqualTo("0");
    }
}
