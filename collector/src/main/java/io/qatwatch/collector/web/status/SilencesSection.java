package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import java.util.List;

/** The silences in force with their matchers and expiry; with an operator or admin session, a form to end each. */
final class SilencesSection {

    private SilencesSection() {
    }

    /** Nothing when {@code silences} is empty; {@code back}: the page's address, where the form returns. */
    static void silences(StringBuilder html, List<HostView.SilenceRow> silences, StatusPage.Chrome chrome, String back) {
        if (silences.isEmpty()) {
            return;
        }
        html.append("<section id=\"silences\"><h2>Silences in force</h2><ul class=\"silences\">");
        for (HostView.SilenceRow s : silences) {
            html.append("<li id=\"silence-").append(esc(s.id())).append("\"><code>").append(esc(s.matchers())).append("</code> until ")
                    .append(esc(UTC.format(s.endsAt()))).append(" <span class=\"muted\">by ").append(esc(s.createdBy()))
                    .append(": ").append(esc(s.comment())).append("</span>");
            if (chrome.canAct()) {
                html.append("<form class=\"act unsilence\" method=\"post\" action=\"/silences/").append(esc(s.id()))
                        .append("/end\"><input type=\"hidden\" name=\"csrf\" value=\"").append(esc(chrome.csrf()))
                        .append("\"><input type=\"hidden\" name=\"back\" value=\"").append(esc(back))
                        .append("\"><button type=\"submit\">End silence</button></form>");
            }
            html.append("</li>");
        }
        html.append("</ul></section>");
    }
}
