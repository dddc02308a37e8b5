package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.collector.web.HostState;

/** The fleet page's summary: hosts per state, over the fleet and per host group, each count a link. */
final class FleetSummarySection {

    private FleetSummarySection() {
    }

    /** Hosts per state, and per host group when groups are configured; each count links to those hosts. */
    static void summary(StringBuilder html, StatusView view) {
        FleetStatus.Summary summary = view.summary();
        if (summary.hosts() == 0) {
            return;
        }
        FleetQuery all = new FleetQuery(null, view.paging().query().limit(), null, null, null);
        int defaultLimit = view.paging().defaultLimit();
        html.append("<section id=\"summary\"><h2>Fleet summary</h2><ul class=\"states\">");
        for (HostState s : HostState.values()) {
            int n = summary.count(s);
            // a zero is good news whatever the state: only counts above zero take the state's colour
            html.append("<li><a href=\"").append(esc(href(all.withState(s.label()), defaultLimit))).append("\" class=\"tag ")
                    .append(n == 0 ? "zero" : stateClass(s.label())).append("\" data-state=\"").append(s.label()).append("\"><span class=\"count\">")
                    .append(n).append("</span> ").append(s.label()).append("</a></li>");
        }
        html.append("</ul>");
        if (!summary.groups().isEmpty()) {
            html.append("<table class=\"cards groups\"><thead><tr><th>Host group</th><th class=\"num\">Hosts</th>");
            for (HostState s : HostState.values()) {
                html.append("<th class=\"num\">").append(s.label()).append("</th>");
            }
            html.append("</tr></thead><tbody>");
            for (FleetStatus.GroupCount g : summary.groups()) {
                FleetQuery inGroup = all.withGroup(g.group());
                html.append("<tr><td data-label=\"Host group\">");
                if (g.group() == null) {
                    html.append("<span class=\"muted\">no group</span>");
                } else {
                    html.append("<a href=\"").append(esc(href(inGroup, defaultLimit))).append("\">").append(esc(g.group())).append("</a>");
                }
                html.append("</td><td class=\"num\" data-label=\"Hosts\">").append(g.hosts()).append("</td>");
                for (HostState s : HostState.values()) {
                    int n = g.count(s);
                    html.append("<td class=\"num\" data-label=\"").append(s.label()).append("\">");
                    if (n > 0 && g.group() != null) {
                        html.append("<a href=\"").append(esc(href(inGroup.withState(s.label()), defaultLimit))).append("\">")
                                .append(n).append("</a>");
                    } else {
                        html.append(n);
                    }
                    html.append("</td>");
                }
                html.append("</tr>");
            }
            html.append("</tbody></table>");
        }
        html.append("</section>");
    }
}
