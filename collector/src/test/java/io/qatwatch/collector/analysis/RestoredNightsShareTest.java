package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.NightlyWindow;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart from persisted summaries keeps the nights as a start from the rows does: every instance on one calendar
 * holds the calendar's own morning and business hours for a night, not three objects of its own for every night
 * (~72 bytes a night, ~4 KiB an instance at 90 nights, found by the heap15 helper). The generated fleet of
 * {@link GeneratedFleetGoldenTest}, one calendar.
 */
class RestoredNightsShareTest {

    @Test
    void instancesRestoredFromSummariesShareEachNightsMorningAndBusinessHours(@TempDir Path dir) throws Exception {
        try (Database database = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(database);
            new GeneratedFleetGoldenTest().fill(store);
            new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of()).refresh(store, GeneratedFleetGoldenTest.MORNING);

            LiveFleet restarted = new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of());
            FleetAnalysis analysis = restarted.refresh(store, GeneratedFleetGoldenTest.MORNING).analysis();
            assertThat(restarted.summaryCounts().restored()).as("instances restored from their summaries")
                    .isEqualTo(GeneratedFleetGoldenTest.INSTANCES - 1);

            Map<LocalDate, List<NightlyWindow>> byMorning = new java.util.TreeMap<>();
            for (InstanceAnalysis ia : analysis.instances()) {
                for (NightlyWindow w : ia.windows()) {
                    byMorning.computeIfAbsent(w.morning(), m -> new ArrayList<>()).add(w);
                }
            }
            assertThat(byMorning).as("nights to compare").hasSizeGreaterThan(10);
            for (List<NightlyWindow> night : byMorning.values()) {
                assertThat(night).as("instances with a window on %s", night.get(0).morning()).hasSizeGreaterThan(1);
                assertThat(distinct(night.stream().map(w -> (Object) w.morning()).toList())).as("%s's morning", night.get(0).morning()).isOne();
                assertThat(distinct(night.stream().map(w -> (Object) w.businessEnd()).toList())).as("%s's business end", night.get(0).morning()).isOne();
                assertThat(distinct(night.stream().map(w -> (Object) w.businessStart()).toList())).as("%s's business start", night.get(0).morning()).isOne();
            }
        }
    }

    /** How many different objects, by identity. */
    private static int distinct(List<Object> objects) {
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        objects.forEach(o -> seen.put(o, true));
        return seen.size();
    }
}
