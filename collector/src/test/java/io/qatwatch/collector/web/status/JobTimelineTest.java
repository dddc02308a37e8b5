package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.JobMark;
import io.qatwatch.collector.web.status.StatusView.Night;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The host page's job timeline (issue 32 item 1): a bar per job per night, on an axis and a legend that say what they are. */
class JobTimelineTest {

    /** 20 nights of backups 22:00 to 03:00 Berlin; IndexOptimize inside each window 01:10 to 02:40, CHECKDB on Sundays 23:00 to 23:45. */
    private static InstanceWindows withJobs() {
        List<Night> nights = new ArrayList<>();
        for (int i = 19; i >= 0; i--) {
            LocalDate morning = StatusFixture.TODAY.minusDays(i);
            ZonedDateTime businessStart = ZonedDateTime.of(morning, LocalTime.of(7, 0), StatusFixture.BERLIN);
            ZonedDateTime start = businessStart.minusHours(9);
            ZonedDateTime end = businessStart.minusHours(4);
            List<JobMark> jobs = new ArrayList<>();
            jobs.add(new JobMark("IndexOptimize - USER_DATABASES", businessStart.minusMinutes(350).toInstant(),
                    businessStart.minusMinutes(260).toInstant()));
            if (morning.getDayOfWeek() == java.time.DayOfWeek.MONDAY) {
                jobs.add(new JobMark("DatabaseIntegrityCheck - USER_DATABASES", businessStart.minusHours(8).toInstant(),
                        businessStart.minusMinutes(435).toInstant()));
            }
            nights.add(new Night(morning, "FULL", businessStart.toInstant(), start.toInstant(), end.toInstant(), 4 * 3600, false, jobs));
        }
        return new InstanceWindows("sql01", "MSSQLSERVER", StatusFixture.BERLIN, StatusFixture.SAFETY_MINUTES, nights, null);
    }

    private static double tickX(String svg, String clock) {
        Matcher m = Pattern.compile("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" text-anchor=\"middle\">" + clock + "</text>").matcher(svg);
        assertThat(m.find()).as("a tick labelled %s", clock).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void eachNightHasABarForTheBackupsAndForEachJobWhereTheClockAxisSaysTheyRan() {
        String svg = JobTimeline.svg(withJobs(), "1");
        assertThat(svg).contains("data-nights=\"14\"", "data-lanes=\"3\"")
                .contains(">Time of night, Europe/Berlin (hours)</text>", ">Night before</text>", ">business hours</text>")
                .contains("<title>Night before Mon 30 Nov: IndexOptimize - USER_DATABASES ran in the window 01:10 to 02:40 (1 h 30 min)</title>")
                .contains("<title>Night before Mon 30 Nov: 22:00 to 03:00, full night, margin 4 h 00 min</title>")
                .contains("<title>Night before Mon 30 Nov: DatabaseIntegrityCheck - USER_DATABASES ran in the window 23:00 to 23:45 (45 min)</title>");
        assertThat(svg.split("data-job=\"IndexOptimize - USER_DATABASES\"", -1)).as("one bar per night").hasSize(15);
        assertThat(svg.split("data-job=\"DatabaseIntegrityCheck - USER_DATABASES\"", -1)).as("two Mondays in 14 nights").hasSize(3);
        // the backups bar of the last night starts at the 22:00 tick; IndexOptimize sits on the next lane, hatched
        double at22 = tickX(svg, "22:00");
        Matcher last = Pattern.compile("<rect class=\"bar ok\" x=\"([0-9.]+)\" y=\"([0-9.]+)\"[^>]*><title>Night before Mon 30 Nov")
                .matcher(svg);
        assertThat(last.find()).isTrue();
        assertThat(Double.parseDouble(last.group(1))).isCloseTo(at22, org.assertj.core.data.Offset.offset(0.11));
        double twoHours = tickX(svg, "00:00") - at22;
        Matcher index = Pattern.compile("<rect class=\"job-run lane-1\" x=\"([0-9.]+)\" y=\"([0-9.]+)\" width=\"([0-9.]+)\"[^>]*"
                + "fill=\"url\\(#jt-1-hatch\\)\"><title>Night before Mon 30 Nov").matcher(svg);
        assertThat(index.find()).isTrue();
        assertThat(Double.parseDouble(index.group(1))).isCloseTo(at22 + twoHours / 2 * (3 + 10 / 60.0), org.assertj.core.data.Offset.offset(0.2));
        assertThat(Double.parseDouble(index.group(3))).as("90 minutes wide").isCloseTo(twoHours / 2 * 1.5, org.assertj.core.data.Offset.offset(0.2));
        assertThat(Double.parseDouble(index.group(2)) - Double.parseDouble(last.group(2))).as("one lane below the backups").isEqualTo(12);
    }

    @Test
    void theHostPageGivesTheTimelineALegendBesideItAndATableWithTheSameRuns() {
        InstanceWindows w = withJobs();
        StatusView.HostRow row = StatusFixture.fleet().get(0);
        InstanceWindows mine = new InstanceWindows(row.host(), row.instances().get(0).name(), w.zone(), w.safetyMarginMinutes(),
                w.nights(), null);
        List<List<HostView.DatabaseRef>> databases = new ArrayList<>();
        row.instances().forEach(i -> databases.add(List.of()));
        String page = HostPage.render(new HostView(StatusFixture.NOW, row, List.of(), databases, List.of(), List.of(),
                List.of(mine), null, List.of()), new StatusPage.Chrome(null, "grafana", "t", false));
        assertThat(page).contains("<h3>Job timeline of ", "<div class=\"chart-with-legend\"><div class=\"chart\"><svg class=\"job-timeline\"")
                .contains("lane 2: IndexOptimize - USER_DATABASES <span class=\"muted\">(hatch)</span>")
                .contains("lane 3: DatabaseIntegrityCheck - USER_DATABASES <span class=\"muted\">(cross)</span>")
                .contains("<summary>The timeline as a table</summary>")
                .contains(">Time of day, Europe/Berlin (hours)</text>", "<ul class=\"legend chart-legend\" aria-label=\"Legend of the backup windows chart\">")
                .contains("other SQL Server Agent jobs running in the window</li>")
                .contains("<td data-label=\"IndexOptimize - USER_DATABASES\">01:10\u201302:40 (1 h 30 min)</td>")
                .contains("<td data-label=\"Backups\">22:00 to 03:00, full night, margin 4 h 00 min</td>");
    }

    @Test
    void moreJobsThanLanesShareTheLastLaneAndNightsWithoutJobsDrawTheBackupsAlone() {
        List<Night> nights = new ArrayList<>();
        for (Night n : withJobs().nights()) {
            List<JobMark> jobs = new ArrayList<>();
            for (int k = 0; k < 7; k++) {
                jobs.add(new JobMark("job " + k, n.firstStart().plusSeconds(600L * k), n.firstStart().plusSeconds(600L * k + 60L * (10 - k))));
            }
            nights.add(new Night(n.morning(), n.kind(), n.businessStart(), n.firstStart(), n.lastFinish(), n.marginSeconds(), false, jobs));
        }
        assertThat(JobTimeline.jobLanes(nights)).containsExactly("job 0", "job 1", "job 2", "job 3", JobTimeline.OTHER_JOBS);
        String svg = JobTimeline.svg(new InstanceWindows("sql01", "MSSQLSERVER", StatusFixture.BERLIN, 30, nights, null), "2");
        assertThat(svg).contains("data-lanes=\"6\"", "data-job=\"other jobs\"", "ran in the window");
        String alone = JobTimeline.svg(StatusFixture.steady(), "3");
        assertThat(alone).contains("data-lanes=\"1\"").doesNotContain("job-run");
        assertThat(JobTimeline.svg(new InstanceWindows("sql01", "MSSQLSERVER", StatusFixture.BERLIN, 30, List.of(), null), "4")).isNull();
    }
}
