package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.collector.web.status.StatusView.HostRow;
import io.qatwatch.collector.web.status.StatusView.SqlInstanceRow;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The host page, {@code /hosts/{host}}: its facts (CPU, QAT devices and software, the licence verdict with its
 * clause), its active alerts, the silences that touch it, and per SQL Server instance its accelerator timeline,
 * nightly windows chart, the other jobs running in the windows, and its databases (each linking to its page).
 */
public final class HostPage {

    private HostPage() {
    }

    public static String render(HostView v, StatusPage.Chrome chrome) {
        HostRow row = v.row();
        StringBuilder html = new StringBuilder(16_384);
        PageFrame.open(html, row.host() + ": qatwatch", true, "", chrome);
        html.append("<nav class=\"crumbs\" aria-label=\"Breadcrumbs\"><a href=\"/\">Fleet</a> \u203a <span>")
                .append(esc(row.host())).append("</span></nav><h1 class=\"page-title\">").append(esc(row.host()));
        if (row.state() != null) {
            html.append(" <span class=\"tag ").append(stateClass(row.state())).append("\">").append(esc(row.state())).append("</span>");
        }
        html.append("</h1>");
        facts(html, v);
        html.append("<section id=\"alerts\"><h2>Active alerts</h2>");
        if (v.alerts().isEmpty()) {
            html.append("<p class=\"muted\">No alert is firing on this host.</p>");
        }
        AlertCards.cards(html, v.alerts(), v.renderedAt(), chrome, hostPath(row.host()));
        html.append("</section>");
        resolved(html, v);
        SilencesSection.silences(html, v.silences(), chrome, hostPath(row.host()));
        int chart = 0;
        for (int k = 0; k < row.instances().size(); k++) {
            SqlInstanceRow i = row.instances().get(k);
            html.append("<section class=\"instance\" id=\"instance-").append(esc(segment(i.name()))).append("\"><h2>Instance ")
                    .append(esc(i.name())).append("</h2><p>").append(i.productVersion() == null ? "" : "SQL Server "
                            + esc(i.productVersion()) + " ");
            if (i.acceleratorMode() != null) {
                html.append("<span class=\"tag ").append(modeClass(i.acceleratorMode())).append("\">QAT ").append(esc(i.acceleratorMode()))
                        .append("</span> <span class=\"muted\">").append(esc(i.acceleratorReason())).append("</span>");
            }
            for (String ag : i.availabilityGroups()) {
                html.append(" <span class=\"tag ag\">AG ").append(esc(ag)).append("</span>");
            }
            html.append("</p>");
            HostsTable.qatTimeline(html, i);
            for (StatusView.InstanceWindows w : v.windows()) {
                if (w.instance().equalsIgnoreCase(i.name())) {
                    WindowsSection.chart(html, w, ++chart);
                    timeline(html, w, chart);
                    jobs(html, w);
                }
            }
            databases(html, row.host(), i.name(), v.databases().get(k));
            html.append("</section>");
        }
        if (row.instances().isEmpty()) {
            html.append("<p class=\"muted\">No SQL Server instance reported: add one under <code>sqlserver.instances</code> in its "
                    + "<code>agent.yaml</code> (").append(UP_SQL).append(").</p>");
        }
        if (v.compression() != null) {
            html.append("<section id=\"compression\"><h2>Compression</h2>");
            CompressionSection.host(html, v.compression(), "see the fleet page for the restore burden", false);
            html.append("</section>");
        }
        PageFrame.close(html, v.renderedAt(), true);
        return html.toString();
    }

    private static void facts(StringBuilder html, HostView v) {
        HostRow row = v.row();
        html.append("<section id=\"facts\"><h2>Facts</h2><dl class=\"facts\">");
        fact(html, "Last report", row.lastSeen() == null ? "never" : esc(ago(row.lastSeen(), v.renderedAt())) + " ("
                + esc(UTC.format(row.lastSeen())) + ")");
        if (row.group() != null) {
            fact(html, "Host group", esc(row.group()));
        }
        if (!row.tags().isEmpty()) {
            fact(html, "Tags", esc(String.join(", ", row.tags())));
        }
        fact(html, "QAT", qat(row));
        String meaning = row.licenceVerdict() == null ? null : VERDICTS.get(row.licenceVerdict());
        fact(html, "Licence verdict", licence(row.licenceVerdict()) + (meaning == null ? "" : " " + esc(meaning)));
        for (StatusView.Fact f : v.facts()) {
            fact(html, esc(f.label()), esc(f.value()));
        }
        html.append("</dl>");
        StringBuilder losses = new StringBuilder();
        Html.losses(losses, row.losses());
        if (!losses.isEmpty()) {
            html.append("<p>The agent lost reports:").append(losses).append("</p>");
        }
        html.append("<p class=\"muted\">The Intel QAT driver licence permits use \"in conjunction with (a) physical Intel component "
                + "products, and (b) virtual ('emulated') devices designed to appear as Intel component products to a Guest "
                + "operating system\". qatwatch reports the facts and the clause; it gives no legal advice.</p></section>");
    }

    /** The alerts that resolved in the last week (as long as the alert pipeline keeps them), last resolved first. */
    private static void resolved(StringBuilder html, HostView v) {
        html.append("<section id=\"recent-alerts\"><h2>Resolved in the last ").append(KEEP_RESOLVED_DAYS).append(" days</h2>");
        if (v.resolved().isEmpty()) {
            html.append("<p class=\"muted\">No alert on this host resolved in the last ").append(KEEP_RESOLVED_DAYS)
                    .append(" days.</p></section>");
            return;
        }
        html.append("<table class=\"cards resolved\"><caption>Alerts that fired and resolved, last resolved first</caption><thead><tr>"
                + "<th>Resolved</th><th>Severity</th><th>Rule</th><th>Where</th><th>Summary</th><th class=\"num\">Fired for</th>"
                + "</tr></thead><tbody>");
        for (HostView.ResolvedAlert a : v.resolved()) {
            String where = a.instance() == null ? "host" : a.database() == null ? esc(a.instance())
                    : esc(a.instance()) + " / " + databaseLink(v.row().host(), a.instance(), a.database());
            html.append("<tr data-rule=\"").append(esc(a.rule())).append("\"><td data-label=\"Resolved\"><time datetime=\"")
                    .append(a.resolvedAt()).append("\">").append(esc(ago(a.resolvedAt(), v.renderedAt()))).append("</time></td>")
                    .append("<td data-label=\"Severity\">").append(esc(a.severity())).append("</td><td data-label=\"Rule\"><span class=\"rule\">")
                    .append(esc(a.rule())).append("</span></td><td data-label=\"Where\">").append(where)
                    .append("</td><td data-label=\"Summary\">").append(esc(a.summary())).append("</td><td class=\"num\" data-label=\"Fired for\">")
                    .append(duration(Math.max(0, a.resolvedAt().getEpochSecond() - a.since().getEpochSecond()))).append("</td></tr>");
        }
        html.append("</tbody></table></section>");
    }

    /** How long the alert pipeline keeps a resolved alert, in days: the lookback of the resolved list. */
    static final long KEEP_RESOLVED_DAYS = io.qatwatch.collector.dispatch.AlertService.KEEP_RESOLVED.toDays();

    private static void fact(StringBuilder html, String label, String valueHtml) {
        html.append("<dt>").append(label).append("</dt><dd>").append(valueHtml).append("</dd>");
    }

    /**
     * The job timeline of the last nights (backups and each other job, a bar per job per night), its legend beside it,
     * and the same as a table for a screen reader or a print without colour.
     */
    private static void timeline(StringBuilder html, StatusView.InstanceWindows w, int chart) {
        String svg = JobTimeline.svg(w, Integer.toString(chart));
        if (svg == null) {
            return;
        }
        List<StatusView.Night> nights = JobTimeline.shown(w);
        List<String> lanes = JobTimeline.jobLanes(nights);
        String id = "jobs-" + chart;
        html.append("<article class=\"job-timeline\" id=\"").append(id).append("\"><h3>Job timeline of ").append(esc(w.instance()))
                .append("</h3><p class=\"trend-text\">").append(lanes.isEmpty()
                        ? "No other SQL Server Agent job ran inside these windows: the bars are the backups alone."
                        : "Each night's backups (top lane) and the other SQL Server Agent jobs that ran inside the window, "
                                + "one lane each, for as long as they overlapped it.")
                .append("</p><div class=\"chart-with-legend\"><div class=\"chart\">").append(svg)
                .append("</div><ul class=\"legend chart-legend\" aria-label=\"Lanes of the job timeline\">")
                .append("<li><i class=\"swatch\" style=\"background:var(--ok)\"></i>lane 1: backups, first start to last finish</li>")
                .append("<li><i class=\"swatch\" style=\"background:var(--near)\"></i>lane 1, under the safety margin</li>")
                .append("<li><i class=\"swatch\" style=\"background:var(--bad)\"></i>lane 1, into business hours; pale: a "
                        + "backup still running, to its predicted end</li>");
        for (int k = 0; k < lanes.size(); k++) {
            String pattern = JobTimeline.PATTERNS[k];
            html.append("<li><svg class=\"swatch\" width=\"24\" height=\"12\" aria-hidden=\"true\"><rect class=\"job-run lane-")
                    .append(k + 1).append("\" width=\"24\" height=\"12\"").append("solid".equals(pattern) ? ""
                            : " fill=\"url(#jt-" + chart + "-" + pattern + ")\"").append("/></svg> lane ").append(k + 2).append(": ")
                    .append(esc(lanes.get(k))).append(" <span class=\"muted\">(").append(pattern).append(")</span></li>");
        }
        html.append("<li><i class=\"swatch\" style=\"background:var(--band)\"></i>business hours</li></ul></div>");
        html.append("<details class=\"job-table\"><summary>The timeline as a table</summary><table class=\"cards\"><caption>Backups and "
                + "other jobs of ").append(esc(w.instance())).append(" in the last ").append(nights.size())
                .append(nights.size() == 1 ? " night" : " nights").append(" (").append(esc(w.zone().getId()))
                .append(")</caption><thead><tr><th>Night before</th><th>Backups</th>");
        for (String lane : lanes) {
            html.append("<th>").append(esc(lane)).append("</th>");
        }
        html.append("</tr></thead><tbody>");
        java.time.format.DateTimeFormatter clock = java.time.format.DateTimeFormatter.ofPattern("HH:mm", java.util.Locale.ROOT);
        for (int r = nights.size() - 1; r >= 0; r--) {
            StatusView.Night n = nights.get(r);
            html.append("<tr><td data-label=\"Night before\">").append(n.morning().format(Html.DAY)).append("</td><td data-label=\"Backups\">")
                    .append(esc(WindowChart.tooltip(n, w.zone()).replaceFirst("^Night before [^:]*: ", ""))).append("</td>");
            for (String lane : lanes) {
                StringBuilder runs = new StringBuilder();
                for (StatusView.JobMark j : n.jobs()) {
                    if (lanes.get(JobTimeline.laneOf(lanes, j.job())).equals(lane)) {
                        runs.append(runs.isEmpty() ? "" : "; ").append(lane.equals(JobTimeline.OTHER_JOBS) ? j.job() + " " : "")
                                .append(j.from().atZone(w.zone()).format(clock)).append("\u2013").append(j.to().atZone(w.zone()).format(clock))
                                .append(" (").append(Html.duration(j.to().getEpochSecond() - j.from().getEpochSecond())).append(')');
                    }
                }
                html.append("<td data-label=\"").append(esc(lane)).append("\">").append(runs.isEmpty() ? "<span class=\"muted\">none</span>"
                        : esc(runs.toString())).append("</td>");
            }
            html.append("</tr>");
        }
        html.append("</tbody></table></details></article>");
    }

    /** The other SQL Server Agent jobs that ran in the windows: per job, on how many nights and for how long in all. */
    private static void jobs(StringBuilder html, StatusView.InstanceWindows w) {
        Map<String, long[]> byJob = new TreeMap<>();
        for (StatusView.Night n : w.nights()) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (StatusView.JobMark j : n.jobs()) {
                long[] t = byJob.computeIfAbsent(j.job(), k -> new long[2]);
                if (seen.add(j.job())) {
                    t[0]++;
                }
                t[1] += j.to().getEpochSecond() - j.from().getEpochSecond();
            }
        }
        if (byJob.isEmpty()) {
            return;
        }
        html.append("<table class=\"cards jobs\"><caption>Other SQL Server Agent jobs running in the windows</caption><thead><tr>"
                + "<th>Job</th><th class=\"num\">Nights</th><th class=\"num\">Time in the windows</th></tr></thead><tbody>");
        byJob.forEach((job, t) -> html.append("<tr><td data-label=\"Job\">").append(esc(job)).append("</td><td class=\"num\" "
                + "data-label=\"Nights\">").append(t[0]).append("</td><td class=\"num\" data-label=\"Time in the windows\">")
                .append(duration(t[1])).append("</td></tr>"));
        html.append("</tbody></table>");
    }

    private static void databases(StringBuilder html, String host, String instance, List<HostView.DatabaseRef> dbs) {
        if (dbs.isEmpty()) {
            return;
        }
        html.append("<table class=\"cards databases\"><caption>Databases of ").append(esc(instance))
                .append("</caption><thead><tr><th>Database</th><th>Recovery model</th><th>Availability group</th></tr></thead><tbody>");
        for (HostView.DatabaseRef d : dbs) {
            html.append("<tr><td data-label=\"Database\">").append(databaseLink(host, instance, d.name()))
                    .append("</td><td data-label=\"Recovery model\">").append(esc(d.recoveryModel() == null ? "unknown" : d.recoveryModel()))
                    .append("</td><td data-label=\"Availability group\">").append(d.availabilityGroup() == null
                            ? "<span class=\"muted\">none</span>" : esc(d.availabilityGroup() + (d.role() == null ? "" : " " + d.role())))
                    .append("</td></tr>");
        }
        html.append("</tbody></table>");
    }
}
