package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class IngestBenchmarkTest {

    private final IngestBenchmark bench = new IngestBenchmark(new IngestBenchmark.Settings(10, List.of(1000),
            Duration.ofSeconds(1), Duration.ofSeconds(10), 8, List.of("-Xmx512m"), Path.of("unused"), false));

    @Test
    void theGoalsAreJudgedFromTheMeasuredFigures() {
        IngestBenchmark.ServerResult bare = server("bare", run(0, 100_000, 1_000_000), run(1000, 10_000, 2_000_000));
        IngestBenchmark.ServerResult collector = server("collector", run(0, 30_000, 3_000_000),
                run(1000, 10_000, 80_000_000));

        String md = bench.markdown(List.of(bare, collector));

        assertThat(md).contains("| collector | max (8 conns) | 3000 |");
        assertThat(md).contains("collector / bare ceiling: 0.30 (goal ≥ 0.5): **missed**");
        assertThat(md).contains("collector max: 3000 reports/s");
        assertThat(md).contains("collector p99 at 1,000 reports/s: 80.0 ms (goal ≤ 50 ms): **missed**");
    }

    @Test
    void aFastEnoughCollectorMeetsThem() {
        IngestBenchmark.ServerResult bare = server("bare", run(0, 100_000, 1_000_000), run(1000, 10_000, 2_000_000));
        IngestBenchmark.ServerResult collector = server("collector", run(0, 60_000, 3_000_000),
                run(1000, 10_000, 20_000_000));

        String md = bench.markdown(List.of(bare, collector));

        assertThat(md).contains("collector / bare ceiling: 0.60 (goal ≥ 0.5): **met**");
        assertThat(md).contains("(goal ≥ 5,000 on 2 cores): **met**");
        assertThat(md).contains("p99 at 1,000 reports/s: 20.0 ms (goal ≤ 50 ms): **met**");
    }

    /** A 10-second run at {@code rate} (0: closed loop) that accepted {@code accepted} reports, all at {@code latency} ns. */
    private static LoadDriver.Run run(int rate, long accepted, long latencyNanos) {
        LatencyRecorder latencies = new LatencyRecorder();
        for (long i = 0; i < accepted; i++) {
            latencies.record(latencyNanos);
        }
        TreeMap<Integer, Long> statuses = new TreeMap<>();
        statuses.put(202, accepted);
        return new LoadDriver.Run(rate, rate == 0 ? 8 : 0, accepted, accepted, 0, statuses, Duration.ofSeconds(10),
                latencies);
    }

    /** Phases in the order the benchmark runs them: fixed rates first, max last. */
    private static IngestBenchmark.ServerResult server(String name, LoadDriver.Run max, LoadDriver.Run at1000) {
        return new IngestBenchmark.ServerResult(name, List.of(
                new IngestBenchmark.Phase(name, "1000/s", at1000, 0.5, 0.2, 100 << 20),
                new IngestBenchmark.Phase(name, "max (8 conns)", max, 1.8, 0.2, 120 << 20)), 130 << 20, 7500,
                max.accepted() + at1000.accepted(), List.of());
    }
}
