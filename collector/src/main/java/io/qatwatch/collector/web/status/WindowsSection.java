package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.Trend;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * One chart per instance of its recent nightly backup windows with the trend in words: compact on the fleet page (one
 * legend for the section, the restore tests counted, a link to the host page's full chart), full on the host page.
 */
final class WindowsSection {

    private WindowsSection() {
    }

    static void windows(StringBuilder html, StatusView view) {
        html.append("<section id=\"windows\"><h2>Backup windows</h2>");
        pageNote(html, view);
        if (view.windows().isEmpty()) {
            html.append("<p class=\"muted empty\" id=\"no-windows\">No nightly backup window yet: windows appear once an instance has reported "
                    + "full or differential backups between business days. An agent watches a SQL Server when its "
                    + "<code>agent.yaml</code> lists it under <code>sqlserver.instances</code> (" + UP_SQL + "); business hours are the "
                    + "<code>alerts.calendars</code> of the collector's config (docs/alerts.md).</p>");
        }
        if (view.windows().stream().anyMatch(w -> !w.nights().isEmpty())) {
            html.append("<p class=\"muted\">Each chart: the last 30 nights, a bar per night from the first backup's start to "
                    + "the last one's finish, time running downward to business start (the clock times at the left, in the "
                    + "instance's calendar zone). The host's page has the full chart with a tooltip per night, and its job "
                    + "timeline.</p>");
            legend(html, view.windows().stream().anyMatch(w -> w.nights().stream().anyMatch(n -> n.running() != null)), false,
                    "legend section-legend", "Legend of the backup windows charts below");
        }
        int i = 0;
        for (InstanceWindows w : view.windows()) {
            compact(html, w, ++i);
        }
        html.append("</section>");
    }

    /** The fleet page's chart of one instance: compact, its trend in words beside it, and where the full one is. */
    private static void compact(StringBuilder html, InstanceWindows w, int i) {
        html.append("<article class=\"instance-windows\" id=\"windows-").append(i).append("\"><h3>").append(hostLink(w.host()))
                .append(" / ").append(esc(w.instance())).append("</h3>");
        if (w.nights().isEmpty()) {
            html.append("<p class=\"muted no-window\">").append(esc(w.noWindow() == null ? "No night yet." : w.noWindow()))
                    .append("</p></article>");
            return;
        }
        html.append("<div class=\"compact-windows\"><div class=\"chart\">");
        WindowChart.svg(html, w, Integer.toString(i), true);
        html.append("</div><div><p class=\"trend-text\">").append(esc(trendText(w))).append("</p>");
        if (!w.restoreTests().isEmpty()) {
            List<StatusView.RestoreTest> tested = w.restoreTests().stream().filter(t -> t.restoredAt() != null).toList();
            html.append("<p class=\"restore-tests\">Restore tests in the lookback period: ").append(tested.size()).append(" of ")
                    .append(w.restoreTests().size()).append(w.restoreTests().size() == 1 ? " database" : " databases");
            tested.stream().max(java.util.Comparator.comparing(StatusView.RestoreTest::restoredAt)).ifPresent(t -> html
                    .append(", the latest ").append(esc(t.database())).append(' ').append(esc(restoredAt(t, w))));
            html.append(".</p>");
        }
        html.append("<p class=\"full-chart\"><a href=\"").append(esc(hostPath(w.host()) + "#instance-" + segment(w.instance())))
                .append("\">Full chart of ").append(esc(w.host())).append(" / ").append(esc(w.instance())).append("</a></p></div></div>")
                .append("</article>");
    }

    private static String restoredAt(StatusView.RestoreTest t, InstanceWindows w) {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT).format(t.restoredAt().atZone(w.zone())) + " on "
                + t.where();
    }

    /**
     * One instance's full chart (the host page's) with its trend in words, its legend and its databases' last restore
     * tests; {@code i} makes its ids unique on the page.
     */
    static void chart(StringBuilder html, InstanceWindows w, int i) {
        html.append("<article class=\"instance-windows\" id=\"windows-").append(i).append("\"><h3>Backup windows of ")
                .append(esc(w.instance())).append("</h3>");
        if (w.nights().isEmpty()) {
            html.append("<p class=\"muted no-window\">").append(esc(w.noWindow() == null ? "No night yet." : w.noWindow()))
                    .append("</p>");
        } else {
            html.append("<p class=\"trend-text\">").append(esc(trendText(w))).append("</p>");
            html.append("<div class=\"chart-with-legend\"><div class=\"chart\">");
            WindowChart.svg(html, w, Integer.toString(i), false);
            html.append("</div>");
            legend(html, w.nights().stream().anyMatch(n -> n.running() != null), w.nights().stream().anyMatch(n -> !n.jobs().isEmpty()),
                    "legend chart-legend", "Legend of the backup windows chart");
            html.append("</div>");
        }
        if (!w.restoreTests().isEmpty()) {
            html.append("<p class=\"restore-tests\">Last restore test: ");
            int k = 0;
            for (StatusView.RestoreTest t : w.restoreTests()) {
                html.append(k++ == 0 ? "" : "; ").append("<span data-database=\"").append(esc(t.database())).append("\">")
                        .append(esc(t.database())).append(" ").append(t.restoredAt() == null ? "none in the lookback period"
                                : esc(restoredAt(t, w)))
                        .append("</span>");
            }
            html.append("</p>");
        }
        html.append("</article>");
    }

    /**
     * What the chart's colours, lines and marks mean, beside it ({@code chart-legend}) or once above a section's charts;
     * the running backup and the jobs only when the charts have them.
     */
    static void legend(StringBuilder html, boolean running, boolean jobs, String classes, String label) {
        html.append("<ul class=\"").append(classes).append("\" aria-label=\"").append(esc(label)).append("\">")
                .append("<li><i class=\"swatch\" style=\"background:var(--ok)\"></i>window, safe margin</li>")
                .append("<li><i class=\"swatch\" style=\"background:var(--near)\"></i>under the safety margin</li>")
                .append("<li><i class=\"swatch\" style=\"background:var(--bad)\"></i>ran into business hours</li>")
                .append("<li><i class=\"swatch\" style=\"background:var(--band)\"></i>business hours</li>")
                .append("<li><i class=\"swatch line\" style=\"background:var(--near)\"></i>safety margin (dashed)</li>")
                .append("<li><i class=\"swatch line\" style=\"background:var(--trend)\"></i>trend of the window end; dashed: forecast</li>")
                .append("<li>paler bars: differential nights</li>");
        if (running) {
            html.append("<li><i class=\"swatch\" style=\"background:var(--bad);opacity:.35;outline:1px dashed var(--bad)\"></i>a backup "
                    + "still running: solid up to the last report (the black tick), pale to its predicted end</li>");
        }
        if (jobs) {
            html.append("<li><i class=\"swatch\" style=\"background:var(--fg);opacity:.6\"></i>other SQL Server Agent jobs running "
                    + "in the window</li>");
        }
        html.append("</ul>");
    }

    static String trendText(InstanceWindows w) {
        Trend t = w.trend();
        if (t == null) {
            long full = w.nights().stream().filter(n -> "FULL".equals(n.kind())).count();
            long diff = w.nights().stream().filter(n -> "DIFFERENTIAL".equals(n.kind())).count();
            return "No trend yet: a trend compares nights of one kind (alerts.rules.backupWindowCreep.minNights, 7 by "
                    + "default), and the last " + w.nights().size() + (w.nights().size() == 1 ? " night has " : " nights have ")
                    + full + " full and " + diff + " differential.";
        }
        String kind = t.kind() == null ? "" : t.kind().toLowerCase(Locale.ROOT) + " ";
        double slope = t.slopeMinutesPerDay();
        StringBuilder s = new StringBuilder();
        if (slope < 0) {
            s.append("The margin shrinks by ").append(minutes(-slope)).append(" per day over the last ").append(t.nights())
                    .append(' ').append(kind).append("nights");
        } else {
            s.append("The margin is steady or growing (").append(minutes(slope)).append(" per day) over the last ")
                    .append(t.nights()).append(' ').append(kind).append("nights");
        }
        s.append("; trend margin now ").append(minutes(t.projectedMarginMinutes())).append('.');
        if (t.forecastDate() != null) {
            s.append(" Projected under the ").append(minutes(w.safetyMarginMinutes())).append(" safety margin on ")
                    .append(t.forecastDate().format(DAY));
            if (t.daysUntilForecast() != null) {
                s.append(" (in ").append(t.daysUntilForecast()).append(t.daysUntilForecast() == 1 ? " day)" : " days)");
            }
            s.append('.');
        }
        return s.toString();
    }
}
