package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.FleetState;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AnalysisBenchmarkTest {

    @Test
    void theSimulatedFleetHasEveryNightAndItsCreepingHostIsFound() {
        AnalysisBenchmark bench = new AnalysisBenchmark(new AnalysisBenchmark.Settings(5, 90, 5, 0));
        FleetState fleet = bench.fleet(0, 5, Instant.parse("2026-11-30T12:00:00Z"));
        assertThat(fleet.hosts()).hasSize(5);
        FleetState.InstanceState first = fleet.hosts().get(0).instances().get(0);
        long nightly = first.backups().stream().filter(b -> !b.type().equals("L")).count();
        assertThat(nightly).isEqualTo(90L * SimulatedAgent.DATABASES);
        assertThat(first.databases()).hasSize(SimulatedAgent.DATABASES);

        AnalysisBenchmark.Result result = bench.run(line -> { });

        assertThat(result.instances()).isEqualTo(5);
        assertThat(result.ruleErrors()).isEmpty();
        assertThat(result.alertsByRule()).containsEntry("backup-window-creep", 1L);
        assertThat(result.cpu()).isPositive();
        assertThat(bench.markdown(result)).contains("not judged");
    }
}
