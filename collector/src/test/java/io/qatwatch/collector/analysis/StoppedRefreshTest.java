package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.pacing.StoppablePacer;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collector stopped during a first evaluation (minutes at 100,000 instances) ends it at the next instance or batch
 * rather than finishing it: the refresh throws {@link StoppablePacer.Stopped} and does no further unit of work on its
 * thread. What it left in the store (summaries written for some instances, not others) restarts to the same analysis
 * as a store nobody stopped. The generated fleet of {@link GeneratedFleetGoldenTest}.
 */
class StoppedRefreshTest {

    private static final Instant NOW = GeneratedFleetGoldenTest.MORNING;

    @Test
    void aStopEndsTheRefreshAtItsNextUnitAndTheStoreRestartsToTheSameAnalysis(@TempDir Path dir) throws Exception {
        int units = unitsOfAFirstRefresh(dir.resolve("whole"));
        assertThat(units).as("units of work a first refresh paces on its own thread").isGreaterThan(GeneratedFleetGoldenTest.INSTANCES);
        for (int stopAt = 1; stopAt < units; stopAt += Math.max(1, units / 6)) {
            try (Database database = Database.open(dir.resolve("stopped-" + stopAt))) {
                SqlReportStore store = new SqlReportStore(database);
                new GeneratedFleetGoldenTest().fill(store);
                Thread self = Thread.currentThread();
                AtomicInteger mine = new AtomicInteger();
                StoppablePacer[] pacer = new StoppablePacer[1];
                int stop = stopAt;
                pacer[0] = new StoppablePacer(() -> {
                    if (Thread.currentThread() == self && mine.incrementAndGet() == stop) {
                        pacer[0].stop();
                    }
                });
                LiveFleet stopped = new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of());
                stopped.pacedBy(pacer[0]);
                assertThatThrownBy(() -> stopped.refresh(store, NOW)).as("a refresh stopped at unit %d", stop)
                        .isInstanceOf(StoppablePacer.Stopped.class);
                assertThat(mine.get()).as("units done on the refreshing thread once stopped at unit %d", stop).isEqualTo(stop);

                FleetAnalysis restarted = new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of())
                        .refresh(store, NOW).analysis();
                FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, NOW, GeneratedFleetGoldenTest.CONFIG.analysis(),
                        h -> Set.of()), GeneratedFleetGoldenTest.CONFIG.analysis(), NOW);
                FreshComparison.assertSameAsFresh(restarted, fresh, GeneratedFleetGoldenTest.CONFIG.evaluator(),
                        GeneratedFleetGoldenTest.CONFIG.analysis().windows().lookbackDays());
            }
        }
    }

    /** How many times a first refresh nobody stops paces on the thread that calls it. */
    private static int unitsOfAFirstRefresh(Path dir) throws Exception {
        try (Database database = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(database);
            new GeneratedFleetGoldenTest().fill(store);
            Thread self = Thread.currentThread();
            AtomicInteger mine = new AtomicInteger();
            LiveFleet fleet = new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of());
            fleet.pacedBy(() -> {
                if (Thread.currentThread() == self) {
                    mine.incrementAndGet();
                }
            });
            fleet.refresh(store, NOW);
            return mine.get();
        }
    }
}
