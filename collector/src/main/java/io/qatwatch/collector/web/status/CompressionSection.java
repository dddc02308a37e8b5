package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** "Is compression worth it?": the fleet's verdicts per method and target, then each host's databases. */
final class CompressionSection {

    private CompressionSection() {
    }

    /** "Is compression worth it?": the fleet's verdicts per method and target, then each host of the page's. */
    static void compression(StringBuilder html, StatusView view) {
        html.append("<section id=\"compression\"><h2>Is compression worth it?</h2>");
        StatusView.Compression c = view.compression();
        if (c == null) {
            html.append("<p class=\"muted empty\" id=\"no-compression\">No comparison yet: it comes with the first evaluation "
                    + "of the fleet, from the backup history the agents read from msdb.</p></section>");
            return;
        }
        html.append("<p class=\"muted\">Each database's full and differential backups of the lookback period, per "
                + "target and encryption, compared across the compression algorithms they were taken with (copy-only "
                + "tests count): median MB/s and compression ratio against MS_XPRESS. Verdicts and thresholds: "
                + "docs/alerts.md.</p>");
        if (c.fleet().isEmpty()) {
            html.append("<p class=\"muted\" id=\"compression-fleet\">No database was backed up with more than one algorithm "
                    + "to the same target yet: nothing to compare. A COPY_ONLY test backup WITH COMPRESSION (ALGORITHM = "
                    + "QAT_DEFLATE) is how to start.</p>");
        } else {
            html.append("<h3>The fleet's full backups</h3><table class=\"cards\" id=\"compression-fleet\"><thead><tr>"
                    + "<th>Algorithm</th><th>Target</th>");
            for (String v : c.fleet().get(0).verdicts().keySet()) {
                html.append("<th class=\"num\">").append(esc(verdictWords(v))).append("</th>");
            }
            html.append("</tr></thead><tbody>");
            for (StatusView.FleetVerdict f : c.fleet()) {
                html.append("<tr><td data-label=\"Algorithm\">").append(esc(f.method())).append("</td><td data-label=\"Target\">")
                        .append(esc(f.target())).append("</td>");
                f.verdicts().forEach((v, n) -> html.append("<td class=\"num\" data-label=\"").append(esc(verdictWords(v)))
                        .append("\">").append(n == 0 ? "<span class=\"muted\">0</span>" : n).append("</td>"));
                html.append("</tr>");
            }
            html.append("</tbody></table>");
        }
        html.append("<p id=\"restore-burden\">QAT_DEFLATE backups are ").append(esc(c.restoreBurden())).append('.')
                .append(" <span class=\"muted\">Restoring one needs the QAT driver and QAT enabled in SQL Server.</span></p>");
        pageNote(html, view);
        if (!c.hosts().isEmpty()) {
            html.append("<p class=\"muted\">Per host, its rows per verdict, then the rows that compare algorithms; every row, "
                    + "one algorithm only included, is on the host's page.</p>");
        }
        List<String> nothingCompared = new ArrayList<>();
        for (StatusView.HostCompression h : c.hosts()) {
            if (h.worthACard()) {
                host(html, h, c.restoreBurden(), true);
            } else {
                nothingCompared.add(h.host());
            }
        }
        if (!nothingCompared.isEmpty()) {
            html.append("<p class=\"nothing-compared\" id=\"compression-nothing-compared\">Nothing compared on ")
                    .append(nothingCompared.size()).append(nothingCompared.size() == 1 ? " host" : " hosts")
                    .append(" of this page (each database went to each target with one algorithm only): ");
            for (int i = 0; i < nothingCompared.size(); i++) {
                html.append(i == 0 ? "" : ", ").append(hostLink(nothingCompared.get(i)));
            }
            html.append(".</p>");
        }
        html.append("</section>");
    }

    /**
     * One host's verdict, its rows per verdict and its databases' rows; {@code named}: the heading names the host and
     * the rows left out are on its page (the fleet page).
     */
    static void host(StringBuilder html, StatusView.HostCompression h, String restoreBurden, boolean named) {
        boolean compared = h.verdicts().keySet().stream().anyMatch(v -> !SINGLE.equals(v));
        html.append("<article class=\"host-compression\" data-host=\"").append(esc(h.host())).append("\"><h3>")
                .append(named ? hostLink(h.host()) : "Is compression worth it here?").append("</h3>");
        if (h.summary() != null || !compared) {
            html.append("<p class=\"host-verdict\">").append(h.summary() != null ? esc(h.summary())
                    : "<span class=\"muted\">One algorithm per database and target: nothing compared" + (h.rowsInAll() > 0
                            ? " in its " + h.rowsInAll() + (h.rowsInAll() == 1 ? " row" : " rows") : "") + ".</span>").append("</p>");
        }
        if (compared) {
            counts(html, h);
        }
        if (h.qatBackups()) {
            // the fleet page says the burden once above the hosts: with every name it was a line per host
            html.append("<p class=\"muted\">Takes QAT_DEFLATE backups, ").append(named
                    ? "<a href=\"#restore-burden\">restorable on the hosts named above</a>" : esc(restoreBurden)).append(".</p>");
        }
        if (!h.rows().isEmpty()) {
            rows(html, h.host(), h.rows());
        }
        int left = h.rowsInAll() - h.rows().size();
        if (named && left > 0) {
            html.append("<p class=\"all-rows\"><a href=\"").append(esc(hostPath(h.host()))).append("#compression\">All ")
                    .append(h.rowsInAll()).append(" rows of ").append(esc(h.host())).append("</a> <span class=\"muted\">(")
                    .append(left).append(left == 1 ? " row" : " rows").append(" of one algorithm only not listed here)</span></p>");
        }
        html.append("</article>");
    }

    private static final String SINGLE = io.qatwatch.collector.compression.Verdict.SINGLE_ALGORITHM.name();

    /** The host's rows per verdict, in words and by name: "2 faster (FASTER), 31 one algorithm only (SINGLE_ALGORITHM)". */
    private static void counts(StringBuilder html, StatusView.HostCompression h) {
        if (h.verdicts().isEmpty()) {
            return;
        }
        html.append("<ul class=\"verdict-counts\" aria-label=\"Rows of ").append(esc(h.host())).append(" per verdict\">");
        h.verdicts().forEach((v, n) -> html.append("<li data-verdict=\"").append(esc(v)).append("\"><span class=\"count\">").append(n)
                .append("</span> <span class=\"tag ").append(verdictClass(v)).append("\">").append(esc(v)).append("</span> ")
                .append("<span class=\"muted\">").append(esc(verdictWords(v))).append("</span></li>"));
        html.append("</ul>");
    }

    /** The comparison rows of {@code host} as a table: per database, backup type, target and encryption. */
    static void rows(StringBuilder html, String host, java.util.List<StatusView.CompressionRow> rows) {
        html.append("<table class=\"cards\"><thead><tr><th>Database</th><th>Backups</th><th>Algorithms</th>")
                .append("<th>Verdict</th></tr></thead><tbody>");
        for (StatusView.CompressionRow r : rows) {
            html.append("<tr data-verdict=\"").append(esc(r.verdict())).append("\"><td data-label=\"Database\"><span>")
                    .append(databaseLink(host, r.instance(), r.database())).append(" <span class=\"muted\">").append(esc(r.instance()))
                    .append("</span></span></td><td data-label=\"Backups\"><span>").append(esc(r.backupType())).append(" to ")
                    .append(esc(r.target())).append(" <span class=\"muted\">encryption: ").append(esc(r.encryption()))
                    .append("</span></span></td><td data-label=\"Algorithms\"><span>");
            for (StatusView.MethodCell m : r.methods()) {
                html.append("<span class=\"instance\">").append(esc(m.method())).append(": ").append(m.backups())
                        .append(m.copyOnlyBackups() > 0 ? " (" + m.copyOnlyBackups() + " copy-only)" : "").append(", ")
                        .append(preciseDuration(m.medianSeconds())).append(", ")
                        .append(String.format(Locale.ROOT, "%.1f MB/s, %.1f %% saved", m.medianMbps(), m.savedPercent()))
                        .append("</span>");
            }
            html.append("</span></td><td data-label=\"Verdict\"><span><span class=\"tag ").append(verdictClass(r.verdict()))
                    .append("\">").append(esc(r.verdict())).append("</span>");
            if (r.alternative() != null) {
                html.append(" <span class=\"muted\">").append(esc(r.alternative())).append(" vs ").append(esc(r.baseline()))
                        .append(": ").append(esc(io.qatwatch.collector.compression.Judgement.words(r.speedGainPercent(),
                                r.sizeGainPercent(), r.cpuGainPercent()))).append("</span>");
            }
            html.append("</span></td></tr>");
        }
        html.append("</tbody></table>");
    }

    static String verdictWords(String verdict) {
        io.qatwatch.collector.compression.Verdict v = io.qatwatch.collector.compression.Verdict.parse(verdict);
        return v == null ? verdict : v.words();
    }

    static String verdictClass(String verdict) {
        return switch (verdict) {
            case "FASTER", "FASTER_AND_SMALLER", "SMALLER", "FASTER_AND_CHEAPER", "CHEAPER" -> "good";
            case "SLOWER", "COSTLIER" -> "bad";
            case "NO_GAIN", "FASTER_BUT_COSTLIER" -> "warn";
            default -> "";
        };
    }
}
