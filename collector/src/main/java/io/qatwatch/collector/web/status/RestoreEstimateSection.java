package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

import io.qatwatch.collector.analysis.RestoreEstimate;
import io.qatwatch.collector.analysis.RestoreEstimate.Part;

/**
 * The database page's "Restore estimate": how long the restore plan would take at this host's measured restore speed
 * (else its backup speed, said so), part by part, and for QAT_DEFLATE parts which hosts could restore them. The same
 * figures as the restore-plan API's {@code restoreEstimate}.
 */
final class RestoreEstimateSection {

    private RestoreEstimateSection() {
    }

    static void render(StringBuilder html, RestoreEstimate e) {
        if (e == null) {
            html.append("<p class=\"muted\" id=\"restore-estimate\">Not estimated: there is no restore plan (no replica holds a "
                    + "full backup with LSNs in the lookback period).</p>");
            return;
        }
        html.append("<div id=\"restore-estimate\"><p class=\"estimate\">");
        if (e.minutes() == null) {
            html.append("Not estimated: no restore or backup speed is known for every part of the plan.");
        } else {
            html.append("About <strong>").append(e.minutes()).append(" min</strong> to restore ")
                    .append(esc(RestoreEstimate.gib(e.dataBytes()))).append(" of data (")
                    .append(esc(RestoreEstimate.gib(e.bytes()))).append(" to read), ")
                    .append(RestoreEstimate.RESTORE_SPEED.equals(e.basis()) ? "at this host's measured restore speed"
                            : "partly at this host's backup speed: no restore of it was measured")
                    .append(" <span class=\"muted\">(basis ").append(esc(e.basis())).append(")</span>.");
        }
        html.append("</p><table class=\"cards\"><thead><tr><th>Part</th><th class=\"num\">Backups</th><th class=\"num\">Data</th>"
                + "<th>Algorithm</th><th>Target</th><th class=\"num\">MB/s</th><th>Basis</th><th class=\"num\">Minutes</th>"
                + "</tr></thead><tbody>");
        for (Part p : e.parts()) {
            html.append("<tr><td data-label=\"Part\">").append(esc(p.kind().toLowerCase(java.util.Locale.ROOT)))
                    .append("</td><td class=\"num\" data-label=\"Backups\">").append(p.backups())
                    .append("</td><td class=\"num\" data-label=\"Data\">").append(esc(RestoreEstimate.gib(p.dataBytes())))
                    .append("</td><td data-label=\"Algorithm\">").append(esc(p.algorithm()))
                    .append("</td><td data-label=\"Target\">").append(esc(p.target()))
                    .append("</td><td class=\"num\" data-label=\"MB/s\">").append(p.mbps() == null ? "?" : p.mbps())
                    .append("</td><td data-label=\"Basis\">").append(p.basis() == null ? "none known" : esc(p.basis())
                            + " (" + p.samples() + (p.anyTarget() ? ", any target" : "") + ")")
                    .append("</td><td class=\"num\" data-label=\"Minutes\">").append(p.minutes() == null ? "?" : p.minutes())
                    .append("</td></tr>");
            if (p.restoreBurden() != null) {
                html.append("<tr class=\"burden\"><td colspan=\"8\">QAT_DEFLATE: ").append(esc(p.restoreBurden()))
                        .append(".</td></tr>");
            }
        }
        html.append("</tbody></table><p class=\"muted\">Bytes over speed: the log backups' redo and the database's recovery "
                + "come on top.</p></div>");
    }
}
