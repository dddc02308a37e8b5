package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrowthBenchmarkTest {

    @Test
    void theDeepCursorIsNinetyPercentThroughTheHostNamesInTheirSortOrder() {
        // sorted: sql0, sql1, sql10..sql19, sql2, ... sql89, sql9, sql90..sql99: ten names after sql90
        assertThat(GrowthBenchmark.deepHost(100)).isEqualTo("sql90");
    }

    @Test
    void fillStoresEveryAgentsNightsThroughTheRealStore(@TempDir Path work) throws Exception {
        GrowthBenchmark growth = new GrowthBenchmark(new GrowthBenchmark.Settings(List.of(3), 2, List.of(), work, Duration.ZERO));
        Path dir = work.resolve("store");

        // at noon every night of every host has finished (the creeping host's last backups end before 05:00)
        long rows = growth.fill(dir, 3, Instant.parse("2026-12-07T12:00:00Z"), line -> { });

        long logged = new SimulatedAgent(0).databases().stream().filter(d -> !"SIMPLE".equals(d.recoveryModel())).count();
        assertThat(rows).isEqualTo(3L * (2 * SimulatedAgent.DATABASES + logged));
        assertThat(GrowthBenchmark.directorySize(dir)).isPositive();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            assertThat(store.fleet()).hasSize(3);
            assertThat(store.backups("sql2", SimulatedAgent.INSTANCE, Instant.EPOCH)).hasSize((int) (2 * SimulatedAgent.DATABASES + logged));
        }
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            assertThat(store.fleetPage(GrowthBenchmark.deepHost(3), null, h -> true, 10)).as("sql2 is the last host").isEmpty();
        }
        GrowthBenchmark.deleteTree(dir);
        assertThat(dir).doesNotExist();
    }
}
