package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.HostState;
import io.qatwatch.collector.web.status.StatusView.HostRow;
import io.qatwatch.collector.web.status.StatusView.SqlInstanceRow;
import java.util.List;

/** The fleet page's hosts: the filter form, one page of hosts, paging links and the licence legend. */
final class HostsTable {

    private HostsTable() {
    }

    static void fleet(StringBuilder html, StatusView view) {
        html.append("<section id=\"fleet\"><h2>Hosts</h2>");
        if (view.summary().hosts() == 0) {
            html.append("<div class=\"empty\" id=\"no-hosts\"><p>No agent has reported yet. To watch a host:</p><ol>")
                    .append("<li>on this collector, enroll it: <code>qatwatch collector token add &lt;host&gt;</code> prints its token</li>")
                    .append("<li>on the host, install the agent, put the token in its token file and this collector's URL in ")
                    .append("<code>agent.yaml</code> (<code>collector.url</code>, <code>collector.tokenFile</code>), then start it")
                    .append(" (docs/install.md, \"Enrolling agents\")</li>")
                    .append("<li>to see its SQL Server too, add the instance under <code>sqlserver.instances</code> in ")
                    .append("<code>agent.yaml</code>, with a login made by <code>install/sql/create-monitor-login.sql</code> (")
                    .append(UP_SQL).append(")</li></ol>")
                    .append("<p class=\"muted\">On one machine, <code>qatwatch up</code> does all of this for itself; ")
                    .append("<code>qatwatch demo</code> shows a simulated fleet.</p></div></section>");
            return;
        }
        filters(html, view.paging());
        if (view.fleet().isEmpty()) {
            html.append("<p class=\"muted\">No host ").append(view.paging().query().after() == null ? "" : "after "
                    + esc(view.paging().query().after()) + " ").append("matches these filters.</p>");
            pages(html, view.paging());
            html.append("</section>");
            return;
        }
        html.append("<table class=\"cards\"><thead><tr><th>Host</th><th>SQL Server instances</th><th>QAT</th>")
                .append("<th>Licence verdict</th><th>Last seen</th></tr></thead><tbody>");
        for (HostRow row : view.fleet()) {
            html.append("<tr data-host=\"").append(esc(row.host())).append("\"><td data-label=\"Host\"><span><strong>")
                    .append(hostLink(row.host())).append("</strong>");
            if (row.state() != null) {
                html.append(" <span class=\"tag ").append(stateClass(row.state())).append("\">").append(esc(row.state()))
                        .append("</span>");
            }
            if (row.group() != null) {
                html.append(" <span class=\"muted\">").append(esc(row.group())).append("</span>");
            }
            for (String tag : row.tags()) {
                html.append(" <a class=\"tag host-tag\" href=\"").append(esc(href(view.paging().query().first().withTag(tag),
                        view.paging().defaultLimit()))).append("\">").append(esc(tag)).append("</a>");
            }
            if (row.cpuVendor() != null) {
                html.append("<br><span class=\"muted\">").append(esc(row.cpuVendor())).append("</span>");
            }
            html.append("</span></td><td data-label=\"SQL Server\"><span>");
            if (row.instances().isEmpty()) {
                html.append("<span class=\"muted\">none reported: add one under <code>sqlserver.instances</code> in its "
                        + "<code>agent.yaml</code> (" + UP_SQL + ")</span>");
            }
            for (SqlInstanceRow i : row.instances()) {
                html.append("<span class=\"instance\"><a href=\"").append(esc(hostPath(row.host()) + "#instance-" + segment(i.name())))
                        .append("\">").append(esc(i.name())).append("</a>");
                if (i.productVersion() != null) {
                    html.append(" <span class=\"muted\">").append(esc(i.productVersion())).append("</span>");
                }
                if (i.acceleratorMode() != null) {
                    html.append(" <span class=\"tag ").append(modeClass(i.acceleratorMode())).append("\" title=\"")
                            .append(esc(i.acceleratorReason())).append("\">QAT ").append(esc(i.acceleratorMode())).append("</span>");
                    if (i.acceleratorReason() != null && !"HARDWARE".equals(i.acceleratorMode())) {
                        html.append(" <span class=\"muted\">").append(esc(i.acceleratorReason())).append("</span>");
                    }
                }
                for (String ag : i.availabilityGroups()) {
                    html.append(" <span class=\"tag ag\" title=\"availability group and this replica's role\">AG ")
                            .append(esc(ag)).append("</span>");
                }
                qatTimeline(html, i);
                html.append("</span>");
            }
            html.append("</span></td><td data-label=\"QAT\">").append(qat(row)).append("</td><td data-label=\"Licence\">")
                    .append(licence(row.licenceVerdict())).append("</td><td data-label=\"Last seen\" title=\"")
                    .append(row.lastSeen() == null ? "" : UTC.format(row.lastSeen())).append("\">")
                    .append(row.lastSeen() == null ? "never" : esc(ago(row.lastSeen(), view.renderedAt())));
            losses(html, row.losses());
            html.append("</td></tr>");
        }
        html.append("</tbody></table>");
        pages(html, view.paging());
        licenceLegend(html);
        html.append("</section>");
    }

    /** The instance's QAT changes of the last 30 days, when there were any: "when → mode (reason), versions". */
    static void qatTimeline(StringBuilder html, SqlInstanceRow i) {
        if (i.qatTimeline().size() < 2) {
            return;
        }
        html.append("<details class=\"qat-timeline\"><summary>QAT, last 30 days: ").append(i.qatTimeline().size() - 1)
                .append(i.qatTimeline().size() == 2 ? " change" : " changes").append("</summary><ol>");
        for (var p : i.qatTimeline()) {
            html.append("<li><time datetime=\"").append(p.at()).append("\">").append(esc(UTC.format(p.at())))
                    .append("</time> ").append(p.mode() == null ? "no QAT row" : "<span class=\"tag " + modeClass(p.mode())
                            + "\">" + esc(p.mode()) + "</span> " + esc(p.reason() == null ? "" : p.reason()))
                    .append(p.libraryVersion() == null && p.driverVersion() == null ? ""
                            : " <span class=\"muted\">library " + esc(String.valueOf(p.libraryVersion())) + ", driver "
                                    + esc(String.valueOf(p.driverVersion())) + (Boolean.TRUE.equals(p.hardwareDetected())
                                    ? ", hardware detected" : ", no hardware") + "</span>")
                    .append("</li>");
        }
        html.append("</ol></details>");
    }

    /** What each licence verdict means; the Intel driver licence's clause is quoted, no legal advice given. */
    static void licenceLegend(StringBuilder html) {
        html.append("<details class=\"legend-verdicts\" id=\"licence-verdicts\"><summary>What the licence verdicts mean</summary><dl class=\"facts\">");
        VERDICTS.forEach((verdict, meaning) -> html.append("<dt>").append(licence(verdict)).append("</dt><dd>")
                .append(esc(meaning)).append("</dd>"));
        html.append("</dl><p class=\"muted\">The Intel QAT driver licence permits use \"in conjunction with (a) physical Intel component "
                + "products, and (b) virtual ('emulated') devices designed to appear as Intel component products to a Guest "
                + "operating system\". qatwatch reports the facts and the clause; it gives no legal advice.</p></details>");
    }

    /** A plain GET form (no script): host pattern, group, tag and state; the page size is kept. */
    static void filters(StringBuilder html, StatusView.Paging paging) {
        FleetQuery q = paging.query();
        html.append("<form class=\"filters\" method=\"get\"><label>Host pattern<input name=\"host\" placeholder=\"sql-fra-*\" value=\"")
                .append(esc(q.host())).append("\"></label><label>Group<input name=\"group\" value=\"").append(esc(q.group()))
                .append("\"></label><label>Tag<input name=\"tag\" placeholder=\"env=prod\" value=\"").append(esc(q.tag()))
                .append("\"></label><label>State<select name=\"state\"><option value=\"\">any</option>");
        List<String> states = new java.util.ArrayList<>(HostState.labels());
        states.add(FleetQuery.PROBLEM);
        for (String s : states) {
            html.append("<option").append(s.equals(q.state()) ? " selected" : "").append('>').append(s).append("</option>");
        }
        html.append("</select></label>");
        if (q.limit() != paging.defaultLimit()) {
            html.append("<input type=\"hidden\" name=\"limit\" value=\"").append(q.limit()).append("\">");
        }
        html.append("<button type=\"submit\">Show</button></form>");
    }

    /** Forward paging by cursor: the first page, and the next one while there is more. */
    static void pages(StringBuilder html, StatusView.Paging paging) {
        FleetQuery q = paging.query();
        if (q.after() == null && paging.next() == null) {
            return;
        }
        html.append("<nav class=\"pages\">");
        if (q.after() != null) {
            html.append("<a rel=\"first\" href=\"").append(esc(href(q.first(), paging.defaultLimit()))).append("\">First page</a>");
        }
        if (paging.next() != null) {
            html.append("<a rel=\"next\" href=\"").append(esc(href(paging.next(), paging.defaultLimit())))
                    .append("\">Next ").append(q.limit()).append(" hosts after ").append(esc(paging.next().after())).append("</a>");
        }
        html.append("</nav>");
    }
}
