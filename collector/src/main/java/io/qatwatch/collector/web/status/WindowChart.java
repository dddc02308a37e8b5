package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.Night;
import io.qatwatch.collector.web.status.StatusView.Trend;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One instance's nightly backup windows as inline SVG: a bar per night from the first backup's start to the
 * last one's finish, drawn against the business hours band (time runs downward, business start is the line
 * at the band's top), with the margin trend and its projection to the night it crosses the safety margin.
 * Full (the host page: hour grid, days, a tooltip per night, other jobs beside the bars) or compact (the fleet page:
 * the same bars, band, margin lines and trend, two clock labels, the nights counted in its label). Pure: view in, SVG
 * text out.
 */
final class WindowChart {

    static final int WIDTH = 720;
    static final int HEIGHT = 322;
    /** How far past the last night the projection is drawn at most, so 30 nights stay readable. */
    static final int MAX_PROJECTION_DAYS = 21;
    /** Bars that started longer than this before business start (weekend windows) are cut at the top. */
    static final double MAX_LOOKBACK_MINUTES = 16 * 60;

    /** The full chart's margins: room for the hour labels, the y-axis title above the plot and the days below. */
    private static final Frame FULL = new Frame(WIDTH, HEIGHT, 74, 16, 32, 30);
    /**
     * The fleet page's compact chart: no grid, no day labels, no tooltip per night and no job marks; 50 full charts were
     * a third of a fleet page's bytes (issue 32 item 8), and the host page has the full one.
     */
    static final Frame COMPACT = new Frame(320, 76, 42, 4, 4, 4);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter NIGHT = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    /** The chart's size and its plot's margins inside it, in SVG units. */
    record Frame(int width, int height, int left, int right, int top, int bottom) {
    }

    private final Frame frame;
    private final InstanceWindows windows;
    private final List<Night> nights;
    private final LocalDate firstDay;
    private final LocalDate lastDay;
    private final LocalDate endDay;
    private final double slot;
    private final double top;
    private final double bottom;

    private WindowChart(InstanceWindows windows, Frame frame) {
        this.frame = frame;
        this.windows = windows;
        this.nights = windows.nights().stream().sorted(Comparator.comparing(Night::morning)).toList();
        this.firstDay = nights.get(0).morning();
        this.lastDay = nights.get(nights.size() - 1).morning();
        Trend trend = windows.trend();
        LocalDate end = lastDay;
        if (trend != null && trend.forecastDate() != null && trend.forecastDate().isAfter(lastDay)) {
            end = trend.forecastDate().isAfter(lastDay.plusDays(MAX_PROJECTION_DAYS)) ? lastDay.plusDays(MAX_PROJECTION_DAYS)
                    : trend.forecastDate();
        }
        this.endDay = end;
        this.slot = (double) (frame.width() - frame.left() - frame.right()) / (ChronoUnit.DAYS.between(firstDay, endDay) + 1);
        double earliest = nights.stream().mapToDouble(WindowChart::startMinutes).min().orElse(-60);
        double latest = nights.stream().mapToDouble(n -> Math.max(endMinutes(n), predictedEndMinutes(n))).max().orElse(0);
        this.top = Math.floor(Math.max(-MAX_LOOKBACK_MINUTES, Math.min(earliest, -windows.safetyMarginMinutes() - 60)) / 60) * 60;
        this.bottom = Math.max(120, Math.ceil(Math.max(latest, 0) / 60) * 60 + 60);
    }

    /** The full chart; {@code id} makes its clip path unique on the page. */
    static String svg(InstanceWindows windows, String id) {
        StringBuilder s = new StringBuilder(8192);
        svg(s, windows, id, false);
        return s.toString();
    }

    /** The full chart, or the compact one (the fleet page's), appended to {@code s}. */
    static void svg(StringBuilder s, InstanceWindows windows, String id, boolean compact) {
        if (windows.nights().isEmpty()) {
            throw new IllegalArgumentException("no nights to draw for " + windows.host() + "/" + windows.instance());
        }
        new WindowChart(windows, compact ? COMPACT : FULL).draw(s, id, compact);
    }

    private void draw(StringBuilder s, String id, boolean compact) {
        String title = compact ? compactTitle()
                : "Backup windows of " + windows.host() + " / " + windows.instance() + ", " + nights.size() + " nights";
        s.append("<svg class=\"").append(compact ? "windows compact" : "windows").append("\" viewBox=\"0 0 ").append(frame.width())
                .append(' ').append(frame.height()).append("\" role=\"img\"");
        if (!compact) {
            // the compact chart's title is its accessible name alone: the same words twice were 12 KB of a fleet page
            s.append(" aria-label=\"").append(esc(title)).append('"');
        }
        s.append(" data-nights=\"").append(nights.size()).append("\"><title>").append(esc(title)).append("</title>");
        s.append("<defs><clipPath id=\"plot-").append(esc(id)).append("\"><rect x=\"").append(frame.left()).append("\" y=\"")
                .append(frame.top()).append("\" width=\"").append(frame.width() - frame.left() - frame.right())
                .append("\" height=\"").append(frame.height() - frame.top() - frame.bottom()).append("\"/></clipPath></defs>");
        axes(s, compact);
        s.append("<g class=\"bars\">");
        for (Night n : nights) {
            bar(s, n, compact);
        }
        s.append("</g>");
        trend(s, id, compact);
        s.append("</svg>");
    }

    /**
     * What the compact chart shows in words (its label and tooltip): the nights per colour, and the last one as its
     * bar's tooltip on the full chart says it.
     */
    private String compactTitle() {
        int breach = 0;
        int near = 0;
        for (Night n : nights) {
            String state = state(n);
            breach += "breach".equals(state) ? 1 : 0;
            near += "near".equals(state) ? 1 : 0;
        }
        return "Backup windows of " + windows.host() + " / " + windows.instance() + ", last " + nights.size()
                + (nights.size() == 1 ? " night: " : " nights: ") + (nights.size() - breach - near) + " with a safe margin, "
                + near + " under the safety margin, " + breach + " into business hours. Last: " + tooltip(nights.get(nights.size() - 1));
    }

    /**
     * The business hours band, business start and the safety margin; the full chart's hour grid, axis title and days,
     * or the compact chart's two clock times (the plot's top and business start).
     */
    private void axes(StringBuilder s, boolean compact) {
        double x0 = frame.left();
        double x1 = frame.width() - frame.right();
        // business hours: everything at or after business start
        s.append("<rect class=\"band\" x=\"").append(x0).append("\" y=\"").append(f(y(0))).append("\" width=\"")
                .append(x1 - x0).append("\" height=\"").append(f(y(bottom) - y(0))).append("\"/>");
        LocalTime businessStart = localTime(nights.get(nights.size() - 1).businessStart());
        if (compact) {
            s.append("<text x=\"").append(x0 - 4).append("\" y=\"").append(f(y(top) + 9)).append("\" text-anchor=\"end\">")
                    .append(businessStart.plusMinutes((long) top).format(CLOCK)).append("</text>");
            s.append("<text x=\"").append(x0 - 4).append("\" y=\"").append(f(y(0) + 4)).append("\" text-anchor=\"end\">")
                    .append(businessStart.format(CLOCK)).append("</text>");
        } else {
            s.append("<text class=\"band-label\" x=\"").append(x1 - 6).append("\" y=\"").append(f((y(0) + y(bottom)) / 2 + 6))
                    .append("\" text-anchor=\"end\">business hours</text>");
            s.append("<text class=\"axis-title\" x=\"4\" y=\"20\">Time of day, ").append(esc(windows.zone().getId()))
                    .append(" (hours)</text>");
            // hour labels at least 40 units apart, so they stay apart at the phone font size too
            double unitsPerHour = (frame.height() - frame.top() - frame.bottom()) / ((bottom - top) / 60);
            double step = 60 * Math.ceil(40 / unitsPerHour);
            for (double m = Math.ceil(top / step) * step; m < bottom; m += step) {
                s.append("<line class=\"grid\" x1=\"").append(x0).append("\" x2=\"").append(x1).append("\" y1=\"").append(f(y(m)))
                        .append("\" y2=\"").append(f(y(m))).append("\"/>");
                s.append("<text x=\"").append(x0 - 6).append("\" y=\"").append(f(y(m) + 4)).append("\" text-anchor=\"end\">")
                        .append(businessStart.plusMinutes((long) m).format(CLOCK)).append("</text>");
            }
        }
        s.append("<line class=\"business-start\" x1=\"").append(x0).append("\" x2=\"").append(x1).append("\" y1=\"")
                .append(f(y(0))).append("\" y2=\"").append(f(y(0))).append("\"/>");
        if (windows.safetyMarginMinutes() > 0) {
            double ys = y(-windows.safetyMarginMinutes());
            s.append("<line class=\"safety\" x1=\"").append(x0).append("\" x2=\"").append(x1).append("\" y1=\"").append(f(ys))
                    .append("\" y2=\"").append(f(ys)).append("\"/>");
        }
        if (compact) {
            return;
        }
        long days = ChronoUnit.DAYS.between(firstDay, endDay);
        long every = days > 40 ? 14 : 7;
        for (long d = 0; d <= days; d += every) {
            dayLabel(s, firstDay.plusDays(d));
        }
    }

    private void dayLabel(StringBuilder s, LocalDate day) {
        s.append("<text x=\"").append(f(x(day))).append("\" y=\"").append(frame.height() - frame.bottom() + 18).append("\" text-anchor=\"middle\">")
                .append(day.format(DAY)).append("</text>");
    }

    /** How a night is coloured: into business hours, under the safety margin, or a safe margin (predicted while it runs). */
    private String state(Night n) {
        long judged = n.judgedMarginSeconds();
        return judged < 0 ? "breach" : judged < windows.safetyMarginMinutes() * 60 ? "near" : "ok";
    }

    private void bar(StringBuilder s, Night n, boolean compact) {
        double start = Math.max(startMinutes(n), top);
        double end = Math.min(endMinutes(n), bottom);
        double width = Math.max(2, slot * 0.7);
        String state = state(n);
        s.append("<rect class=\"bar ").append(state);
        if ("DIFFERENTIAL".equals(n.kind())) {
            s.append(" diff");
        }
        if (n.stillRunning()) {
            s.append(" running");
        }
        s.append("\" x=\"").append(f(x(n.morning()) - width / 2)).append("\" y=\"").append(f(y(start)))
                .append("\" width=\"").append(f(width)).append("\" height=\"").append(f(Math.max(2, y(end) - y(start))));
        title(s, n, compact);
        if (n.running() != null && predictedEndMinutes(n) > end) {
            // from the report that saw it running to its predicted end: hatched, and a line at "now"
            double to = Math.min(predictedEndMinutes(n), bottom);
            s.append("<rect class=\"bar predicted ").append(state).append("\" x=\"").append(f(x(n.morning()) - width / 2))
                    .append("\" y=\"").append(f(y(end))).append("\" width=\"").append(f(width)).append("\" height=\"")
                    .append(f(Math.max(2, y(to) - y(end))));
            title(s, n, compact);
            s.append("<line class=\"now\" x1=\"").append(f(x(n.morning()) - width / 2 - 3)).append("\" x2=\"")
                    .append(f(x(n.morning()) + width / 2 + 3)).append("\" y1=\"").append(f(y(end))).append("\" y2=\"")
                    .append(f(y(end))).append("\"/>");
        }
        if (compact) {
            return;
        }
        // jobs that do not back up, running inside the window: a thin mark right of the bar, over the minutes they overlap
        for (StatusView.JobMark j : n.jobs()) {
            double from = Math.max(minutes(j.from(), n), top);
            double to = Math.min(minutes(j.to(), n), bottom);
            if (to <= from) {
                continue;
            }
            s.append("<rect class=\"job\" x=\"").append(f(x(n.morning()) + width / 2)).append("\" y=\"").append(f(y(from)))
                    .append("\" width=\"").append(f(Math.max(1.5, width / 3))).append("\" height=\"")
                    .append(f(Math.max(1, y(to) - y(from)))).append("\" data-job=\"").append(esc(j.job())).append("\"><title>")
                    .append(esc(j.job() + " overlaps the window " + localTime(j.from()).format(CLOCK) + " to "
                            + localTime(j.to()).format(CLOCK) + " (" + Html.duration(j.to().getEpochSecond()
                            - j.from().getEpochSecond()) + ")"))
                    .append("</title></rect>");
        }
    }

    /** Closes a bar's rect: with the night in words as its tooltip on the full chart, bare on the compact one. */
    private void title(StringBuilder s, Night n, boolean compact) {
        if (compact) {
            s.append("\"/>");
        } else {
            s.append("\"><title>").append(esc(tooltip(n))).append("</title></rect>");
        }
    }

    private static double minutes(Instant t, Night n) {
        return (t.getEpochSecond() - n.businessStart().getEpochSecond()) / 60.0;
    }

    /** The night in words; a running one as the spill alert tells it: running since, so far, predicted end. */
    static String tooltip(Night n, java.time.ZoneId zone) {
        String kind = n.kind() == null ? "" : n.kind().toLowerCase(Locale.ROOT) + " night, ";
        String night = "Night before " + n.morning().format(NIGHT) + ": ";
        StatusView.Running r = n.running();
        if (r != null) {
            return night + "running since " + n.firstStart().atZone(zone).toLocalTime().format(CLOCK) + ", "
                    + Html.duration(r.seenAt().getEpochSecond() - n.firstStart().getEpochSecond()) + " so far ("
                    + r.database() + String.format(Locale.ROOT, " %.0f %% done", r.percentComplete()) + " at "
                    + r.seenAt().atZone(zone).toLocalTime().format(CLOCK) + "), " + kind + "predicted end "
                    + r.predictedWindowEnd().atZone(zone).toLocalTime().format(CLOCK) + ", " + margin(r.predictedMarginSeconds());
        }
        return night + n.firstStart().atZone(zone).toLocalTime().format(CLOCK) + " to "
                + n.lastFinish().atZone(zone).toLocalTime().format(CLOCK) + (n.stillRunning() ? " (still running)" : "") + ", "
                + kind + margin(n.marginSeconds());
    }

    private static String margin(long seconds) {
        return seconds < 0 ? Html.duration(-seconds) + " into business hours" : "margin " + Html.duration(seconds);
    }

    private String tooltip(Night n) {
        return tooltip(n, windows.zone());
    }

    private static double predictedEndMinutes(Night n) {
        return n.running() == null ? Double.NEGATIVE_INFINITY
                : (n.running().predictedWindowEnd().getEpochSecond() - n.businessStart().getEpochSecond()) / 60.0;
    }

    /** The fitted margin (solid over the nights, dashed beyond) as window-end minutes, and where it crosses the safety margin. */
    private void trend(StringBuilder s, String id, boolean compact) {
        Trend t = windows.trend();
        if (t == null || t.latestMorning() == null) {
            return;
        }
        s.append("<g class=\"trend\" clip-path=\"url(#plot-").append(esc(id)).append(")\">");
        segment(s, t, firstDay, t.latestMorning(), "fit");
        if (endDay.isAfter(t.latestMorning())) {
            segment(s, t, t.latestMorning(), endDay, "projection");
        }
        s.append("</g>");
        if (t.forecastDate() != null && !t.forecastDate().isAfter(endDay)) {
            double x = x(t.forecastDate());
            double y = y(-windows.safetyMarginMinutes());
            s.append("<circle class=\"forecast\" cx=\"").append(f(x)).append("\" cy=\"").append(f(y)).append("\" r=\"5\"><title>")
                    .append(esc("Projected under the safety margin on the night before " + t.forecastDate().format(NIGHT)))
                    .append("</title></circle>");
            if (compact) {
                return;
            }
            // kept inside the plot at the phone font size too (it was clipped to "14 De"): left of the circle unless
            // that runs past the axis, and never above the chart's top
            boolean left = x - 8 - 80 >= frame.left();
            s.append("<text class=\"forecast-label\" x=\"").append(f(left ? x - 8 : x + 8)).append("\" y=\"")
                    .append(f(Math.max(y - 10, frame.top() + 22))).append("\" text-anchor=\"").append(left ? "end" : "start").append("\">")
                    .append(t.forecastDate().format(DAY)).append("</text>");
        }
    }

    private void segment(StringBuilder s, Trend t, LocalDate from, LocalDate to, String kind) {
        s.append("<line class=\"").append(kind).append("\" x1=\"").append(f(x(from))).append("\" y1=\"")
                .append(f(y(-margin(t, from)))).append("\" x2=\"").append(f(x(to))).append("\" y2=\"")
                .append(f(y(-margin(t, to)))).append("\"/>");
    }

    private static double margin(Trend t, LocalDate day) {
        return t.projectedMarginMinutes() + t.slopeMinutesPerDay() * ChronoUnit.DAYS.between(t.latestMorning(), day);
    }

    private static double startMinutes(Night n) {
        return (n.firstStart().getEpochSecond() - n.businessStart().getEpochSecond()) / 60.0;
    }

    private static double endMinutes(Night n) {
        return -n.marginSeconds() / 60.0;
    }

    private LocalTime localTime(Instant t) {
        return t.atZone(windows.zone()).toLocalTime();
    }

    private double x(LocalDate day) {
        return frame.left() + (ChronoUnit.DAYS.between(firstDay, day) + 0.5) * slot;
    }

    private double y(double minutes) {
        return frame.top() + (minutes - top) / (bottom - top) * (frame.height() - frame.top() - frame.bottom());
    }

    /**
     * A coordinate with one decimal, as {@code %.1f} writes it but without {@link String#format}, which was most of
     * the chart's render time.
     */
    static String f(double v) {
        long tenths = Math.round(v * 10);
        long whole = Math.abs(tenths) / 10;
        return (tenths < 0 ? "-" : "") + whole + "." + Math.abs(tenths) % 10;
    }
}
