package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.collector.web.status.StatusView.ActiveAlert;
import io.qatwatch.collector.web.status.StatusView.Fact;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The active alerts as cards, most severe first: what, where, since when, what people did, and why. Alerts of one
 * rule on one host share a card with the list folded (the API keeps one alert each). With an operator or admin
 * session each alert carries its forms: acknowledge, add a note, silence.
 */
final class AlertCards {

    /** Acknowledgement and silence lengths the forms offer, in minutes (the API takes any up to its limits). */
    private static final int[] FOR_MINUTES = {60, 240, 480, 1440, 4320, 10_080};

    private AlertCards() {
    }

    /** The fleet page's section: the alerts the filters select. */
    static void alerts(StringBuilder html, StatusView view, StatusPage.Chrome chrome) {
        html.append("<section id=\"alerts\"><h2>Active alerts</h2>");
        if (view.alerts().isEmpty()) {
            html.append("<p class=\"muted\">No alert is firing").append(view.paging().query().filtered()
                    ? " on the hosts these filters select" : "").append(".</p>");
        } else if (view.paging().alertsMatching() > view.alerts().size()) {
            html.append("<p class=\"muted\" id=\"alerts-shown\">The ").append(view.alerts().size()).append(" most severe of ")
                    .append(view.paging().alertsMatching()).append(" active alerts. Narrow them with a host pattern or a group "
                            + "below, or read them all from <code>/api/v1/alerts</code>.</p>");
        }
        cards(html, view.alerts(), view.renderedAt(), chrome, "/" + view.paging().query().queryString(view.paging().defaultLimit()));
        html.append("</section>");
    }

    /** The cards of {@code alerts} (most severe first), grouped by rule and host; {@code back}: this page's address. */
    static void cards(StringBuilder html, List<ActiveAlert> alerts, Instant now, StatusPage.Chrome chrome, String back) {
        Map<String, List<ActiveAlert>> groups = new LinkedHashMap<>();
        for (ActiveAlert a : alerts) {
            groups.computeIfAbsent(a.rule() + "\u0000" + a.host(), k -> new ArrayList<>()).add(a);
        }
        for (List<ActiveAlert> g : groups.values()) {
            if (g.size() == 1) {
                card(html, g.get(0), now, chrome, back);
            } else {
                group(html, g, now, chrome, back);
            }
        }
    }

    private static void card(StringBuilder html, ActiveAlert a, Instant now, StatusPage.Chrome chrome, String back) {
        html.append("<article class=\"alert ").append(esc(a.severity())).append("\" id=\"alert-").append(esc(a.id()))
                .append("\" data-rule=\"").append(esc(a.rule())).append("\"><h3><span class=\"sev\">").append(esc(a.severity()))
                .append("</span>").append(esc(a.summary())).append("</h3><p class=\"muted\">").append(whereLinks(a))
                .append(" · <span class=\"rule\">").append(esc(a.rule())).append("</span>");
        if (a.since() != null) {
            html.append(" · since ").append(esc(ago(a.since(), now)));
        }
        html.append("</p>");
        body(html, a, chrome, back);
        html.append("</article>");
    }

    /** One card for several alerts of one rule on one host: the count, what they are about, each folded below. */
    private static void group(StringBuilder html, List<ActiveAlert> g, Instant now, StatusPage.Chrome chrome, String back) {
        ActiveAlert first = g.get(0);
        List<String> about = new ArrayList<>();
        for (ActiveAlert a : g) {
            String what = a.database() != null ? a.database() : a.instance() != null ? a.instance() : a.summary();
            if (!about.contains(what)) {
                about.add(what);
            }
        }
        boolean databases = g.stream().allMatch(a -> a.database() != null);
        html.append("<article class=\"alert group ").append(esc(first.severity())).append("\" id=\"alerts-")
                .append(esc(first.rule())).append('-').append(esc(first.host() == null ? "fleet" : first.host()))
                .append("\" data-rule=\"").append(esc(first.rule())).append("\" data-alerts=\"").append(g.size())
                .append("\"><h3><span class=\"sev\">").append(esc(first.severity())).append("</span>").append(g.size())
                .append(' ').append(esc(first.rule())).append(" alerts").append(first.host() == null ? ""
                        : " on " + esc(first.host())).append(databases ? ", for " + about.size() + " databases: " : ": ")
                .append(esc(String.join(", ", about))).append("</h3><p class=\"muted\">").append(first.host() == null ? ""
                        : hostLink(first.host()) + " · ").append("<span class=\"rule\">").append(esc(first.rule()))
                .append("</span>");
        if (first.since() != null) {
            html.append(" · the first since ").append(esc(ago(g.stream().map(ActiveAlert::since).filter(java.util.Objects::nonNull)
                    .min(Instant::compareTo).orElse(first.since()), now)));
        }
        html.append("</p><p class=\"why\">").append(esc(first.why())).append("</p><details class=\"alert-list\"><summary>")
                .append("The ").append(g.size()).append(" alerts, each with its own facts").append(chrome.canAct()
                        ? " and forms" : "").append("</summary>");
        for (ActiveAlert a : g) {
            html.append("<section class=\"grouped\" id=\"alert-").append(esc(a.id())).append("\"><h4>").append(esc(a.summary()))
                    .append("</h4><p class=\"muted\">").append(whereLinks(a)).append(a.since() == null ? ""
                            : " · since " + esc(ago(a.since(), now))).append("</p>");
            body(html, a, chrome, back);
            html.append("</section>");
        }
        html.append("</details></article>");
    }

    private static void body(StringBuilder html, ActiveAlert a, StatusPage.Chrome chrome, String back) {
        if (a.life() != null) {
            html.append("<p class=\"life\"><strong>").append(esc(a.life())).append("</strong></p>");
        }
        html.append("<p class=\"why\">").append(esc(a.why())).append("</p>");
        if (!a.facts().isEmpty()) {
            html.append("<dl class=\"facts\">");
            for (Fact f : a.facts()) {
                html.append("<dt>").append(esc(f.label())).append("</dt><dd>").append(esc(f.value())).append("</dd>");
            }
            html.append("</dl>");
        }
        if (chrome.canAct()) {
            forms(html, a, chrome.csrf(), back);
        }
    }

    /** Acknowledge (expiry and note), add a note, silence (matchers prefilled from the alert): plain POST forms. */
    private static void forms(StringBuilder html, ActiveAlert a, String csrf, String back) {
        String id = esc(a.id());
        String hidden = "<input type=\"hidden\" name=\"csrf\" value=\"" + esc(csrf) + "\"><input type=\"hidden\" name=\"back\" value=\""
                + esc(back + "#alert-" + a.id()) + "\">";
        html.append("<details class=\"act\"><summary>Acknowledge, add a note or silence</summary>");
        html.append("<form class=\"act ack\" method=\"post\" action=\"/alerts/").append(id).append("/acknowledge\">").append(hidden)
                .append("<label>For <select name=\"minutes\">");
        for (int m : FOR_MINUTES) {
            if (m <= 30 * 1440) {
                html.append("<option value=\"").append(m).append("\"").append(m == 480 ? " selected" : "").append('>')
                        .append(duration(m * 60L)).append("</option>");
            }
        }
        html.append("<option value=\"\">until it resolves or gets worse</option></select></label>")
                .append("<label>Note <input name=\"note\" maxlength=\"2000\" placeholder=\"looking at it\"></label>")
                .append("<button type=\"submit\">Acknowledge</button></form>");
        html.append("<form class=\"act note\" method=\"post\" action=\"/alerts/").append(id).append("/notes\">").append(hidden)
                .append("<label>Note <textarea name=\"text\" rows=\"2\" maxlength=\"2000\" required></textarea></label>")
                .append("<button type=\"submit\">Add note</button></form>");
        html.append("<form class=\"act silence\" method=\"post\" action=\"/silences\">").append(hidden);
        matcher(html, "rule", "Rule", a.rule());
        matcher(html, "host", "Host", a.host());
        matcher(html, "instance", "Instance", a.instance());
        matcher(html, "database", "Database", a.database());
        html.append("<label>For <select name=\"minutes\">");
        for (int m : FOR_MINUTES) {
            html.append("<option value=\"").append(m).append("\"").append(m == 240 ? " selected" : "").append('>')
                    .append(duration(m * 60L)).append("</option>");
        }
        html.append("</select></label><label>Why <input name=\"comment\" maxlength=\"2000\" required placeholder=\"maintenance\">")
                .append("</label><button type=\"submit\">Silence</button></form></details>");
    }

    private static void matcher(StringBuilder html, String name, String label, String value) {
        html.append("<label>").append(label).append(" <input name=\"").append(name).append("\" value=\"").append(esc(value))
                .append("\" placeholder=\"any\"></label>");
    }
}
