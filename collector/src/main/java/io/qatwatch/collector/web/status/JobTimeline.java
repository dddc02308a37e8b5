package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.JobMark;
import io.qatwatch.collector.web.status.StatusView.Night;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The job timeline of one instance (DBA Dash's, per night): a row per night of the last {@value #MAX_NIGHTS}, time
 * of night left to right on the business calendar's clock; in each row the backup window on the top lane, then a
 * lane per SQL Server Agent job that ran inside it, bars from where its run entered the window to where it left.
 * Each lane keeps its place and fill pattern in every row, so colour is never the only sign; every bar's tooltip
 * says what it is in words. Pure: windows in, SVG text out.
 */
final class JobTimeline {

    /** Nights drawn: two weeks stay readable at 390 px; the table beside it lists the same. */
    static final int MAX_NIGHTS = 14;
    /** Job lanes drawn; further jobs share the last lane, "other jobs". */
    static final int MAX_JOB_LANES = 5;
    static final String OTHER_JOBS = "other jobs";
    static final int WIDTH = 720;
    /** Fill patterns of the job lanes, in lane order (defined in the SVG's defs). */
    static final String[] PATTERNS = {"hatch", "cross", "dots", "vertical", "solid"};

    /** Room for "Wed 25 Nov" at the phone font size (21 units). */
    private static final int LEFT = 140;
    private static final int RIGHT = 16;
    private static final int TOP = 34;
    private static final int BOTTOM = 50;
    private static final int LANE = 12;
    private static final int ROW_PAD = 10;
    /** Never less than the phone's font size (21 units), so night labels never touch. */
    private static final int MIN_ROW = 28;
    private static final DateTimeFormatter NIGHT = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    private final InstanceWindows windows;
    private final List<Night> nights;
    private final List<String> lanes;
    private final double from;
    private final double to;
    private final int row;

    private JobTimeline(InstanceWindows windows) {
        this.windows = windows;
        this.nights = shown(windows);
        this.lanes = jobLanes(nights);
        double earliest = Double.MAX_VALUE;
        double latest = -Double.MAX_VALUE;
        for (Night n : nights) {
            earliest = Math.min(earliest, clock(n, n.firstStart()));
            latest = Math.max(latest, Math.max(clock(n, n.lastFinish()), clock(n, n.businessStart())));
            if (n.running() != null) {
                latest = Math.max(latest, clock(n, n.running().predictedWindowEnd()));
            }
            for (JobMark j : n.jobs()) {
                earliest = Math.min(earliest, clock(n, j.from()));
                latest = Math.max(latest, clock(n, j.to()));
            }
        }
        // whole hours, at least an hour of business hours on the right; from noon to noon at most
        this.from = Math.max(0, Math.floor(earliest / 60) * 60);
        this.to = Math.min(24 * 60, Math.max(from + 120, Math.ceil(latest / 60) * 60 + 60));
        this.row = Math.max(MIN_ROW, (1 + lanes.size()) * LANE + ROW_PAD);
    }

    /** The nights the timeline draws: the last {@value #MAX_NIGHTS}, oldest first. */
    static List<Night> shown(InstanceWindows w) {
        List<Night> sorted = w.nights().stream().sorted(Comparator.comparing(Night::morning)).toList();
        return sorted.subList(Math.max(0, sorted.size() - MAX_NIGHTS), sorted.size());
    }

    /** The job lanes, busiest job first (by time in the windows), the rest folded into {@value #OTHER_JOBS}. */
    static List<String> jobLanes(List<Night> nights) {
        Map<String, Long> seconds = new LinkedHashMap<>();
        for (Night n : nights) {
            for (JobMark j : n.jobs()) {
                seconds.merge(j.job(), j.to().getEpochSecond() - j.from().getEpochSecond(), Long::sum);
            }
        }
        List<String> jobs = new ArrayList<>(seconds.keySet());
        jobs.sort(Comparator.comparing((String j) -> -seconds.get(j)).thenComparing(String.CASE_INSENSITIVE_ORDER));
        if (jobs.size() <= MAX_JOB_LANES) {
            return jobs;
        }
        List<String> out = new ArrayList<>(jobs.subList(0, MAX_JOB_LANES - 1));
        out.add(OTHER_JOBS);
        return out;
    }

    /** The lane a job is drawn on (0-based among the job lanes). */
    static int laneOf(List<String> lanes, String job) {
        int i = lanes.indexOf(job);
        return i >= 0 ? i : lanes.size() - 1;
    }

    /** The timeline; {@code id} makes its pattern ids unique on the page. Null when the instance has no night. */
    static String svg(InstanceWindows windows, String id) {
        return windows.nights().isEmpty() ? null : new JobTimeline(windows).draw(id);
    }

    private int height() {
        return TOP + nights.size() * row + BOTTOM;
    }

    private String draw(String id) {
        StringBuilder s = new StringBuilder(8192);
        String title = "Job timeline of " + windows.host() + " / " + windows.instance() + ": backups and " + lanes.size()
                + (lanes.size() == 1 ? " other job" : " other jobs") + " over the last " + nights.size()
                + (nights.size() == 1 ? " night" : " nights");
        s.append("<svg class=\"job-timeline\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height())
                .append("\" role=\"img\" aria-label=\"").append(esc(title)).append("\" data-nights=\"").append(nights.size())
                .append("\" data-lanes=\"").append(1 + lanes.size()).append("\"><title>").append(esc(title)).append("</title>");
        patterns(s, id);
        axes(s);
        for (int r = 0; r < nights.size(); r++) {
            night(s, nights.get(r), r, id);
        }
        s.append("</svg>");
        return s.toString();
    }

    private static void patterns(StringBuilder s, String id) {
        s.append("<defs>");
        pattern(s, id, "hatch", "<path d=\"M0 6L6 0\" class=\"pat\"/>");
        pattern(s, id, "cross", "<path d=\"M0 0L6 6M0 6L6 0\" class=\"pat\"/>");
        pattern(s, id, "dots", "<circle cx=\"3\" cy=\"3\" r=\"1.4\" class=\"pat dot\"/>");
        pattern(s, id, "vertical", "<path d=\"M3 0V6\" class=\"pat\"/>");
        s.append("</defs>");
    }

    private static void pattern(StringBuilder s, String id, String name, String mark) {
        s.append("<pattern id=\"jt-").append(esc(id)).append('-').append(name)
                .append("\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" class=\"pat-bg\"/>")
                .append(mark).append("</pattern>");
    }

    private void axes(StringBuilder s) {
        int x0 = LEFT;
        int x1 = WIDTH - RIGHT;
        int yBottom = TOP + nights.size() * row;
        double unitsPerHour = (x1 - x0) / ((to - from) / 60);
        // clock labels at least 70 units apart: "00:00" at the phone font size is about 55 wide
        double step = 60 * Math.ceil(70 / unitsPerHour);
        for (double m = Math.ceil(from / step) * step; m <= to; m += step) {
            s.append("<line class=\"grid\" x1=\"").append(f(x(m))).append("\" x2=\"").append(f(x(m))).append("\" y1=\"").append(TOP)
                    .append("\" y2=\"").append(yBottom).append("\"/><text x=\"").append(f(x(m))).append("\" y=\"").append(yBottom + 20)
                    .append("\" text-anchor=\"middle\">").append(LocalTime.NOON.plusMinutes((long) m).format(CLOCK)).append("</text>");
        }
        s.append("<text class=\"axis-title\" x=\"").append(f((x0 + x1) / 2.0)).append("\" y=\"").append(yBottom + 44)
                .append("\" text-anchor=\"middle\">Time of night, ").append(esc(windows.zone().getId())).append(" (hours)</text>");
        s.append("<text class=\"axis-title\" x=\"").append(4).append("\" y=\"").append(TOP - 14)
                .append("\">Night before</text>");
        s.append("<text class=\"band-label\" x=\"").append(x1 - 4).append("\" y=\"").append(TOP - 14)
                .append("\" text-anchor=\"end\">business hours</text>");
    }

    private void night(StringBuilder s, Night n, int r, String id) {
        double top = TOP + r * row;
        double start = clock(n, n.businessStart());
        if (start < to) {
            s.append("<rect class=\"band\" x=\"").append(f(x(Math.max(start, from)))).append("\" y=\"").append(f(top))
                    .append("\" width=\"").append(f(x(to) - x(Math.max(start, from)))).append("\" height=\"").append(row)
                    .append("\"/><line class=\"business-start\" x1=\"").append(f(x(start))).append("\" x2=\"").append(f(x(start)))
                    .append("\" y1=\"").append(f(top)).append("\" y2=\"").append(f(top + row)).append("\"/>");
        }
        s.append("<line class=\"row-rule\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                .append(f(top + row)).append("\" y2=\"").append(f(top + row)).append("\"/>");
        s.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(top + Math.min(row, 2 * LANE + ROW_PAD) / 2.0 + 5))
                .append("\" text-anchor=\"end\">").append(n.morning().format(NIGHT)).append("</text>");
        long judged = n.judgedMarginSeconds();
        String state = judged < 0 ? "breach" : judged < windows.safetyMarginMinutes() * 60 ? "near" : "ok";
        double y = top + ROW_PAD / 2.0;
        bar(s, "bar " + state + (n.stillRunning() ? " running" : ""), clock(n, n.firstStart()), clock(n, n.lastFinish()), y,
                "", WindowChart.tooltip(n, windows.zone()));
        if (n.running() != null && n.running().predictedWindowEnd().isAfter(n.lastFinish())) {
            // from the report that saw it running to its predicted end, pale, as on the windows chart
            bar(s, "bar predicted " + state, clock(n, n.lastFinish()), clock(n, n.running().predictedWindowEnd()), y, "",
                    WindowChart.tooltip(n, windows.zone()));
        }
        for (JobMark j : n.jobs()) {
            int lane = laneOf(lanes, j.job());
            String pattern = PATTERNS[lane];
            String attributes = " data-job=\"" + esc(lanes.get(lane).equals(OTHER_JOBS) ? OTHER_JOBS : j.job()) + "\""
                    + ("solid".equals(pattern) ? "" : " fill=\"url(#jt-" + esc(id) + "-" + pattern + ")\"");
            bar(s, "job-run lane-" + (lane + 1), clock(n, j.from()), clock(n, j.to()), y + (lane + 1) * LANE, attributes,
                    jobTooltip(n, j, windows.zone()));
        }
    }

    private void bar(StringBuilder s, String cls, double a, double b, double y, String attributes, String tooltip) {
        double x = x(Math.max(a, from));
        double w = Math.max(2, x(Math.min(b, to)) - x);
        s.append("<rect class=\"").append(cls).append("\" x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" width=\"")
                .append(f(w)).append("\" height=\"").append(LANE - 2).append('"').append(attributes)
                .append("><title>").append(esc(tooltip)).append("</title></rect>");
    }

    /** "Night before Tue 3 Dec: IndexOptimize ran in the window 01:10 to 02:40 (1 h 30 min)". */
    static String jobTooltip(Night n, JobMark j, java.time.ZoneId zone) {
        return "Night before " + n.morning().format(NIGHT) + ": " + j.job() + " ran in the window "
                + j.from().atZone(zone).toLocalTime().format(CLOCK) + " to " + j.to().atZone(zone).toLocalTime().format(CLOCK)
                + " (" + Html.duration(j.to().getEpochSecond() - j.from().getEpochSecond()) + ")";
    }

    /** Wall-clock minutes since noon of the evening before the night's morning, in the calendar's zone. */
    private double clock(Night n, Instant t) {
        LocalDateTime noon = n.morning().minusDays(1).atTime(LocalTime.NOON);
        return ChronoUnit.SECONDS.between(noon, t.atZone(windows.zone()).toLocalDateTime()) / 60.0;
    }

    private double x(double minutes) {
        return LEFT + (minutes - from) / (to - from) * (WIDTH - LEFT - RIGHT);
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
