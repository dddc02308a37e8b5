package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.StoredBackup;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnalysisBenchmarkTest {

    @Test
    void theSimulatedFleetHasEveryNightAndItsCreepingHostIsFound() {
        SimulatedStore store = new SimulatedStore(5, 90, AnalysisBenchmark.NOW);
        List<StoredBackup> first = store.backups("sql0", SimulatedAgent.INSTANCE, Instant.EPOCH);
        assertThat(first.stream().filter(b -> !b.backup().type().equals("L")).count())
                .isEqualTo(90L * SimulatedAgent.DATABASES);
        assertThat(store.fleet()).hasSize(5);
        assertThat(store.fleet().get(0).instances().get(0).databases()).hasSize(SimulatedAgent.DATABASES);
    }

    @Test
    void itMeasuresTheColdEvaluationAndEachMinuteAfter() throws Exception {
        AnalysisBenchmark bench = new AnalysisBenchmark(new AnalysisBenchmark.Settings(10, 90, 0, 1 / 9.0));

        AnalysisBenchmark.Result result = bench.run(line -> { });

        assertThat(result.ruleErrors()).isEmpty();
        assertThat(result.alertsByRule()).containsEntry("backup-window-creep", 1L);
        assertThat(result.cycles()).extracting(AnalysisBenchmark.Cycle::name)
                .containsExactly("cold", "day minute", "night minute", "morning minute");
        assertThat(result.cycles()).extracting(AnalysisBenchmark.Cycle::rebuilt).containsExactly(10, 0, 0, 0);
        assertThat(result.cycles().get(1).newBackups()).isEqualTo(10);
        assertThat(result.cycles().get(0).cpu()).isPositive();
        assertThat(result.sqliteReadNanos()).isPositive();
        assertThat(bench.markdown(result)).contains("not judged").contains("morning minute");
    }

    @Test
    void splitBetweenCollectorsItEvaluatesOneCollectorsShareOfTheSlices() throws Exception {
        int instances = 24;
        long share = java.util.stream.IntStream.range(0, instances)
                .filter(i -> io.qatwatch.collector.store.HostSlices.of(new SimulatedAgent(i).host()) % 2 == 0).count();
        AnalysisBenchmark bench = new AnalysisBenchmark(new AnalysisBenchmark.Settings(instances, 30, 0, 1 / 9.0, 2));

        AnalysisBenchmark.Result result = bench.run(line -> { });

        assertThat(share).as("the simulated hosts fall on both halves").isBetween(1L, instances - 1L);
        assertThat(result.owned()).isEqualTo((int) share);
        assertThat(result.cycles().get(0).rebuilt()).as("only the share is built").isEqualTo((int) share);
        assertThat(result.cycles().get(1).newBackups()).as("only the share's new backup rows are read, as on PostgreSQL")
                .isEqualTo((int) share);
        assertThat(bench.markdown(result)).contains("split between 2 collectors").contains(share + " of the 24 instances");
    }
}
