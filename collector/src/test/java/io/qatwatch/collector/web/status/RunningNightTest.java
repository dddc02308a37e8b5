package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.window.SpillForecast;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 9: the demo's spill host drew last night as the finished backups' stub (22:30-22:50, "margin
 * 8 h 10 min") while its alert said the Warehouse full had run 6 h 15 min and would end at 07:59.
 */
class RunningNightTest {

    private static final ZoneOffset ZONE = ZoneOffset.UTC;
    private static final LocalDate MORNING = LocalDate.of(2026, 12, 1);
    private static final Instant BUSINESS_START = Instant.parse("2026-12-01T07:00:00Z");
    private static final Instant SEEN = Instant.parse("2026-12-01T05:15:00Z");

    private static SpillForecast warehouse() {
        Instant started = Instant.parse("2026-11-30T23:00:00Z");
        return new SpillForecast("demo-sql-amd01/MSSQLSERVER", "Warehouse", started, 79.0, SEEN.getEpochSecond()
                - started.getEpochSecond(), Instant.parse("2026-12-01T07:59:00Z"), 0, Instant.parse("2026-12-01T07:59:00Z"),
                MORNING, BUSINESS_START, -59 * 60, 105 * 60);
    }

    private static List<StatusView.Night> stub() {
        List<StatusView.Night> nights = new ArrayList<>();
        nights.add(new StatusView.Night(MORNING.minusDays(1), "FULL", BUSINESS_START.minusSeconds(86_400),
                Instant.parse("2026-11-29T22:30:00Z"), Instant.parse("2026-11-30T04:10:00Z"), 10_200, false));
        nights.add(new StatusView.Night(MORNING, "FULL", BUSINESS_START, Instant.parse("2026-11-30T22:30:00Z"),
                Instant.parse("2026-11-30T22:50:00Z"), 8 * 3600 + 600, false));
        return nights;
    }

    @Test
    void aRunningNightIsDrawnFromItsStartToTheLastReportAndOnToItsPredictedEnd() {
        List<StatusView.Night> nights = stub();
        StatusWindows.withRunning(nights, warehouse());
        StatusView.Night last = nights.get(1);
        assertThat(last.firstStart()).isEqualTo(Instant.parse("2026-11-30T22:30:00Z"));
        assertThat(last.lastFinish()).as("up to the report that saw it running").isEqualTo(SEEN);
        assertThat(last.stillRunning()).isTrue();
        assertThat(last.judgedMarginSeconds()).as("coloured by its predicted margin").isEqualTo(-59 * 60);
        assertThat(WindowChart.tooltip(last, ZONE)).isEqualTo("Night before Tue 1 Dec: running since 22:30, 6 h 45 min so far "
                + "(Warehouse 79 % done at 05:15), full night, predicted end 07:59, 59 min into business hours");

        String svg = WindowChart.svg(new StatusView.InstanceWindows("demo-sql-amd01", "MSSQLSERVER", ZONE, 30, nights, null), "1");
        assertThat(svg).contains("<rect class=\"bar breach running\"", "<rect class=\"bar predicted breach\"", "<line class=\"now\"")
                .doesNotContain("margin 8 h 10 min");
        String timeline = JobTimeline.svg(new StatusView.InstanceWindows("demo-sql-amd01", "MSSQLSERVER", ZONE, 30, nights, null), "1");
        assertThat(timeline).as("the job timeline draws it the same way, with the same words")
                .contains("<rect class=\"bar breach running\"", "<rect class=\"bar predicted breach\"")
                .contains("<title>" + WindowChart.tooltip(last, ZONE) + "</title>");
    }

    @Test
    void aNightWhoseOnlyBackupStillRunsIsAddedWithItsPredictedEnd() {
        List<StatusView.Night> nights = new ArrayList<>(stub().subList(0, 1));
        StatusWindows.withRunning(nights, warehouse());
        assertThat(nights).hasSize(2);
        assertThat(nights.get(1).morning()).isEqualTo(MORNING);
        assertThat(nights.get(1).firstStart()).isEqualTo(Instant.parse("2026-11-30T23:00:00Z"));
        assertThat(nights.get(1).running().predictedWindowEnd()).isEqualTo(Instant.parse("2026-12-01T07:59:00Z"));
    }
}
