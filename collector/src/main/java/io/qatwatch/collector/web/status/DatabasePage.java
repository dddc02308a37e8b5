package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The database page, {@code /hosts/{host}/{instance}/{database}}: per backup kind a chart of duration, size and
 * MB/s with the algorithm of each backup marked and its changes annotated; the compression comparison and verdict;
 * CPU per GB where measured; the restore estimate and plan (empty until the collector works them out); the last
 * restore test; the other replicas of its availability group; its active alerts.
 */
public final class DatabasePage {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);
    private static final Map<String, String> KINDS = kinds();

    private DatabasePage() {
    }

    private static Map<String, String> kinds() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("D", "Full backups");
        m.put("I", "Differential backups");
        m.put("L", "Log backups");
        return m;
    }

    public static String render(DatabaseView v, StatusPage.Chrome chrome) {
        StringBuilder html = new StringBuilder(32_768);
        String back = databasePath(v.host(), v.instance(), v.database());
        PageFrame.open(html, v.database() + " on " + v.host() + ": qatwatch", false, "", chrome);
        html.append("<nav class=\"crumbs\" aria-label=\"Breadcrumbs\"><a href=\"/\">Fleet</a> \u203a ").append(hostLink(v.host()))
                .append(" \u203a <a href=\"").append(esc(hostPath(v.host()) + "#instance-" + segment(v.instance()))).append("\">")
                .append(esc(v.instance())).append("</a> \u203a <span>").append(esc(v.database())).append("</span></nav>")
                .append("<h1 class=\"page-title\">").append(esc(v.database())).append(" <span class=\"muted\">on ")
                .append(esc(v.host())).append(" / ").append(esc(v.instance())).append("</span></h1>");
        html.append("<section id=\"facts\"><h2>Facts</h2><dl class=\"facts\">");
        for (StatusView.Fact f : v.facts()) {
            html.append("<dt>").append(esc(f.label())).append("</dt><dd>").append(esc(f.value())).append("</dd>");
        }
        html.append("</dl></section>");
        html.append("<section id=\"alerts\"><h2>Active alerts</h2>");
        if (v.alerts().isEmpty()) {
            html.append("<p class=\"muted\">No alert is firing on this database.</p>");
        }
        AlertCards.cards(html, v.alerts(), v.renderedAt(), chrome, back);
        html.append("</section>");
        DatabaseEventsSection.append(html, v.events(), v.zone(), v.lookbackDays());
        charts(html, v);
        html.append("<section id=\"compression\"><h2>Is compression worth it here?</h2>");
        if (v.compression().isEmpty()) {
            html.append("<p class=\"muted\">Nothing compared yet: its backups of the lookback period used one algorithm per kind "
                    + "and target, or the first evaluation has not run.</p>");
        } else {
            CompressionSection.rows(html, v.host(), v.compression());
        }
        html.append("</section>");
        cpu(html, v);
        html.append("<section id=\"restore\"><h2>Restore</h2><h3>Restore estimate</h3>");
        RestoreEstimateSection.render(html, v.restoreEstimate());
        html.append("<h3>Restore plan</h3>");
        restorePlan(html, v);
        html.append("<h3>Last restore test</h3><p id=\"restore-test\">");
        if (v.restoreTest() == null || v.restoreTest().restoredAt() == null) {
            html.append("None in the lookback period: no host of the fleet restored its backups.");
        } else {
            html.append(esc(WHEN.format(v.restoreTest().restoredAt().atZone(v.zone())))).append(" on ")
                    .append(esc(v.restoreTest().where())).append('.');
        }
        html.append("</p></section>");
        html.append("<section id=\"replicas\"><h2>Replicas</h2>");
        if (v.replicas().isEmpty()) {
            html.append("<p class=\"muted\">No other copy reported: it is in no availability group, or no other replica's agent reports.</p>");
        } else {
            html.append("<ul>");
            for (DatabaseView.Replica r : v.replicas()) {
                html.append("<li>").append(hostLink(r.host())).append(" / ").append(databaseLink(r.host(), r.instance(), v.database()))
                        .append(" <span class=\"muted\">").append(esc(r.instance())).append(r.role() == null ? "" : ", " + esc(r.role()))
                        .append("</span></li>");
            }
            html.append("</ul>");
        }
        html.append("</section>");
        PageFrame.close(html, v.renderedAt(), false);
        return html.toString();
    }

    /** A chart per backup kind present, its legend beside it, and its changes of algorithm or target in words. */
    private static void charts(StringBuilder html, DatabaseView v) {
        html.append("<section id=\"backups\"><h2>Backups, last ").append(v.lookbackDays()).append(" days</h2>");
        if (v.backups().isEmpty()) {
            html.append("<p class=\"muted\">No backup in the lookback period.</p>");
        }
        Instant to = v.renderedAt();
        Instant from = to.minus(Duration.ofDays(v.lookbackDays()));
        KINDS.forEach((type, title) -> {
            List<BackupRecord> of = v.backups().stream().filter(b -> type.equals(b.type())).toList();
            if (of.isEmpty()) {
                return;
            }
            html.append("<article class=\"backup-kind\" id=\"backups-").append(type).append("\"><h3>").append(title)
                    .append(" <span class=\"muted\">(").append(of.size()).append(")</span></h3><div class=\"chart-with-legend\">")
                    .append("<div class=\"chart\">").append(BackupChart.svg(of, from, to, v.zone(), title + " of " + v.database()
                            + ": duration, size and MB/s over " + v.lookbackDays() + " days")).append("</div><ul class=\"legend chart-legend\">");
            for (String a : BackupChart.algorithms(of)) {
                BackupChart.Marker m = BackupChart.Marker.of(a);
                html.append("<li><svg class=\"marker\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\" aria-hidden=\"true\">")
                        .append(m.at(6, 6)).append("/></svg> ").append(esc(a)).append(" <span class=\"muted\">(").append(m.shape)
                        .append(")</span></li>");
            }
            html.append("<li><svg class=\"marker\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\" aria-hidden=\"true\"><line x1=\"6\" "
                    + "x2=\"6\" y1=\"0\" y2=\"12\" class=\"change\"/></svg> algorithm or target changed</li></ul></div>");
            List<BackupChart.Change> changes = BackupChart.changes(of);
            if (!changes.isEmpty()) {
                html.append("<ul class=\"changes\">");
                for (BackupChart.Change c : changes) {
                    html.append("<li>").append(esc(WHEN.format(c.at().atZone(v.zone())))).append(": ").append(esc(c.what())).append("</li>");
                }
                html.append("</ul>");
            }
            if (of.stream().anyMatch(BackupChart::snapshot)) {
                html.append("<p class=\"muted\">Snapshot backups are drawn for their duration only: their size is an estimate.</p>");
            }
            html.append("</article>");
        });
        html.append("</section>");
    }

    /** The chain of backups a restore now needs, across the replicas, as {@code /api/v1/databases/.../restore-plan} has it. */
    private static void restorePlan(StringBuilder html, DatabaseView v) {
        io.qatwatch.collector.web.RestorePlanJson.Plan p = v.restorePlan();
        if (p == null) {
            html.append("<p class=\"muted\" id=\"restore-plan\">Not worked out: no replica holds a full backup with LSNs in the "
                    + "lookback period (agents before issue 31 do not report them).</p>");
            return;
        }
        html.append("<div id=\"restore-plan\"><p>").append(esc(p.head())).append("</p><dl class=\"facts\"><dt>Latest point in time")
                .append("</dt><dd>").append(p.latestPointInTime() == null ? "unknown" : esc(WHEN.format(p.latestPointInTime()
                        .atZone(v.zone())))).append("</dd><dt>Files</dt><dd>").append(p.files()).append(" (").append(bytes(p.bytes()))
                .append(p.whole() ? ")" : "), not every log since the full").append("</dd>");
        step(html, "Full", p.full(), v);
        step(html, "Differential", p.differential(), v);
        if (!p.logs().isEmpty()) {
            html.append("<dt>Logs</dt><dd>from ").append(esc(WHEN.format(p.logs().get(0).startedAt().atZone(v.zone()))))
                    .append(" to ").append(esc(WHEN.format(p.logs().get(p.logs().size() - 1).startedAt().atZone(v.zone()))))
                    .append("</dd>");
        }
        if (p.broken() != null) {
            html.append("<dt>Chain broken</dt><dd class=\"bad\">").append(esc(p.broken().kind())).append(": ")
                    .append(esc(p.broken().cause())).append("</dd>");
        }
        html.append("</dl></div>");
    }

    private static void step(StringBuilder html, String label, io.qatwatch.collector.web.RestorePlanJson.Step s, DatabaseView v) {
        if (s == null) {
            return;
        }
        html.append("<dt>").append(label).append("</dt><dd>").append(esc(WHEN.format(s.startedAt().atZone(v.zone()))))
                .append(" on ").append(hostLink(s.host())).append(" / ").append(esc(s.instance())).append(s.copyOnly() ? " (copy-only)" : "")
                .append(", ").append(bytes(s.sizeBytes())).append(s.file() == null ? "" : ", <code>" + esc(s.file()) + "</code>")
                .append("</dd>");
    }

    /** CPU seconds per GB of {@code backup_size}, per algorithm (median), from the backups whose CPU was measured. */
    private static void cpu(StringBuilder html, DatabaseView v) {
        html.append("<section id=\"cpu\"><h2>CPU per GB</h2>");
        Map<String, List<Double>> byAlgorithm = new LinkedHashMap<>();
        for (BackupRecord b : v.backups()) {
            Long ms = b.cpu() == null ? null : b.cpu().processCpuMs() != null && Boolean.TRUE.equals(b.cpu().processReliable())
                    ? b.cpu().processCpuMs() : b.cpu().requestCpuMs();
            if (ms == null || b.backupSizeBytes() <= 0 || BackupChart.snapshot(b)) {
                continue;
            }
            byAlgorithm.computeIfAbsent(BackupChart.algorithm(b), k -> new ArrayList<>())
                    .add(ms / 1000.0 / (b.backupSizeBytes() / (1024.0 * 1024 * 1024)));
        }
        if (byAlgorithm.isEmpty()) {
            html.append("<p class=\"muted\" id=\"cpu-per-gb\">CPU per GB: not measured yet. The agent samples a running backup's "
                    + "CPU; backups it saw running show here.</p></section>");
            return;
        }
        html.append("<table class=\"cards\" id=\"cpu-per-gb\"><thead><tr><th>Algorithm</th><th class=\"num\">Backups measured</th>"
                + "<th class=\"num\">Median CPU s per GB</th></tr></thead><tbody>");
        byAlgorithm.forEach((a, values) -> {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
            html.append("<tr><td data-label=\"Algorithm\">").append(esc(a)).append("</td><td class=\"num\" data-label=\"Backups measured\">")
                    .append(sorted.length).append("</td><td class=\"num\" data-label=\"Median CPU s per GB\">")
                    .append(String.format(Locale.ROOT, "%.2f", median)).append("</td></tr>");
        });
        html.append("</tbody></table><p class=\"muted\">The process's CPU where the agent could attribute it, else the request's "
                + "cpu_time (a lower bound).</p></section>");
    }
}
