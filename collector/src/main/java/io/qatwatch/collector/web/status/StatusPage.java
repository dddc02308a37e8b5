package io.qatwatch.collector.web.status;

import io.qatwatch.collector.web.status.StatusView.ActiveAlert;
import io.qatwatch.collector.web.status.StatusView.Fact;
import io.qatwatch.collector.web.status.StatusView.HostRow;
import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.SqlInstanceRow;
import io.qatwatch.collector.web.status.StatusView.Trend;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.collector.web.HostState;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders the status page from a {@link StatusView}: server-side HTML with inline CSS and SVG, no scripts,
 * no external requests, readable from a phone to a laptop. Every text that came from a report is escaped.
 */
public final class StatusPage {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);
    /** Verdicts in the grey zone of the Intel driver licence ("for use with Intel component products"). */
    private static final Set<String> GREY_VERDICTS = Set.of("INTEL_COMPONENT_ONLY", "INTEL_EMULATED_DEVICE_ONLY", "UNKNOWN");

    private static final String CSS = """
            :root{--fg:#1d2329;--muted:#5f6b76;--line:#dde2e6;--card:#f5f7f8;--ok:#2f9e5b;--near:#d98e04;--bad:#d43d3d;\
            --band:#fbe1e1;--trend:#3b5bdb;--info:#4c7bd9}
            *{box-sizing:border-box}
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:#fff}
            header{padding:.7rem 1rem;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:baseline}
            header h1{font-size:1.25rem;margin:0}
            main{max-width:1100px;margin:0 auto;padding:0 1rem 2rem}
            h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
            h3{font-size:1rem;margin:1.2rem 0 .2rem}
            .muted{color:var(--muted)}
            .count{font-weight:600}
            .count.bad{color:var(--bad)}
            .alert{border-left:5px solid var(--near);background:var(--card);padding:.55rem .8rem;margin:.6rem 0;border-radius:4px}
            .alert.critical{border-color:var(--bad)}
            .alert.info{border-color:var(--info)}
            .alert h3{margin:0 0 .2rem;font-size:1rem}
            .alert p{margin:.2rem 0}
            .alert p.why{white-space:pre-line}
            .sev{display:inline-block;font-size:.72rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em;
            padding:.05rem .4rem;border-radius:3px;color:#fff;background:var(--near);margin-right:.4rem;vertical-align:2px}
            .critical .sev{background:var(--bad)}
            .info .sev{background:var(--info)}
            .rule{font-family:ui-monospace,Consolas,monospace;font-size:.85rem;color:var(--muted)}
            dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0 0;font-size:.9rem}
            dl.facts dt{color:var(--muted)}
            dl.facts dd{margin:0}
            table{border-collapse:collapse;width:100%;font-size:.92rem}
            th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
            th{background:var(--card);font-weight:600}
            td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
            .tag{display:inline-block;font-size:.78rem;padding:0 .35rem;border-radius:3px;background:var(--card);
            border:1px solid var(--line);white-space:nowrap}
            .tag.good{border-color:var(--ok);color:#1e6b3c}
            .tag.warn{border-color:var(--near);color:#8a5a00}
            .tag.bad{border-color:var(--bad);color:#a12828}
            .instance{display:block;margin:.1rem 0}
            .chart{margin:.2rem 0 .4rem}
            .trend-text{margin:.1rem 0 .3rem}
            svg.windows{width:100%;height:auto;display:block;font-size:12px;max-width:960px}
            svg.windows text{fill:var(--muted)}
            svg .band{fill:var(--band)}
            svg .band-label{fill:var(--bad)}
            svg .grid{stroke:var(--line);stroke-width:1}
            svg .business-start{stroke:var(--bad);stroke-width:1.5}
            svg .safety{stroke:var(--near);stroke-width:1.2;stroke-dasharray:5 4}
            svg .bar.ok{fill:var(--ok)}
            svg .bar.near{fill:var(--near)}
            svg .bar.breach{fill:var(--bad)}
            svg .bar.diff{opacity:.55}
            svg .bar.running{stroke:var(--fg);stroke-dasharray:3 2}
            svg .bar.predicted{fill-opacity:.35;stroke-width:1.2;stroke-dasharray:4 3}
            svg .bar.predicted.ok{stroke:var(--ok)}
            svg .bar.predicted.near{stroke:var(--near)}
            svg .bar.predicted.breach{stroke:var(--bad)}
            svg .now{stroke:var(--fg);stroke-width:2}
            svg .job{fill:var(--fg);opacity:.6}
            svg .trend line{stroke:var(--trend);stroke-width:2.2}
            svg .trend .projection{stroke-dasharray:7 5}
            svg .forecast{fill:#fff;stroke:var(--trend);stroke-width:2.5}
            svg text.forecast-label{fill:var(--trend);font-weight:600}
            .legend{display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.82rem;color:var(--muted);margin:.2rem 0 0}
            .legend i{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
            .legend .line{height:.2rem;vertical-align:3px}
            .best{font-weight:600}
            a{color:var(--trend)}
            ul.states{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;padding:0;margin:.3rem 0}
            form.filters{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:end;margin:.4rem 0 .6rem;font-size:.9rem}
            form.filters label{display:flex;flex-direction:column;color:var(--muted)}
            form.filters input,form.filters select,form.filters button{font:inherit;padding:.2rem .4rem}
            nav.pages{display:flex;gap:1.2rem;margin:.6rem 0}
            p.notice{padding:.45rem .7rem;border-radius:4px;background:#e7edfb;border-left:4px solid var(--info);margin:.8rem 0 0}
            form.signout{margin-left:auto;font-size:.9rem}
            form.signout button{font:inherit;padding:.1rem .5rem}
            .tag.zero{color:var(--muted)}
            .empty ol{margin:.3rem 0;padding-left:1.4rem}
            details.legend-verdicts{margin:.8rem 0;font-size:.9rem}
            details.legend-verdicts summary{cursor:pointer;color:var(--muted)}
            @media (max-width:700px){
            body{font-size:14px}
            main{padding:0 .6rem 1.5rem}
            svg.windows{font-size:21px}
            table.cards thead{display:none}
            table.cards tr{display:block;border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:.3rem .55rem}
            table.cards td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:.12rem 0;text-align:right}
            table.cards td::before{content:attr(data-label);color:var(--muted);text-align:left}
            table.cards td.num{text-align:right}
            }
            """;

    /** How {@code qatwatch up} is given its SQL Server: the same hint wherever the page says none is watched. */
    static final String UP_SQL = "on a machine started with <code>qatwatch up</code>: run it again with <code>--sql "
            + "jdbc:sqlserver://HOST:1433 --sql-user USER --sql-password-file FILE</code>";

    /** What every verdict means, for the tag's tooltip and the legend under the hosts (DESIGN.md, Contract 1). */
    static final Map<String, String> VERDICTS = verdicts();

    private static Map<String, String> verdicts() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("INTEL_QAT_HARDWARE", "a QAT device (physical or virtual function) was found");
        m.put("INTEL_CPU", "no QAT device; the CPU is Intel's");
        m.put("INTEL_COMPONENT_ONLY", "no QAT device and no Intel CPU, but another physical Intel part (a NIC, a chipset): the grey zone");
        m.put("INTEL_EMULATED_DEVICE_ONLY", "only Intel devices that a hypervisor emulates (clause (b) below names such devices)");
        m.put("NO_INTEL_COMPONENT", "no Intel component was found");
        m.put("UNKNOWN", "the probe could not read the CPU or the PCI devices (see the host's failed probes)");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * What frames the page apart from the fleet: the configured notice ({@code statusPage.notice}), and who is signed
     * in with the CSRF token of the sign-out form (both null when the page was opened without signing in).
     */
    public record Chrome(String notice, String signedInAs, String csrf) {
        public static final Chrome NONE = new Chrome(null, null, null);
    }

    private StatusPage() {
    }

    /** The whole page, without notice or sign-in. */
    public static String render(StatusView view) {
        return render(view, Chrome.NONE);
    }

    /** The whole page. */
    public static String render(StatusView view, Chrome chrome) {
        StringBuilder html = new StringBuilder(32_768);
        html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<meta http-equiv=\"refresh\" content=\"60\">")
                .append("<title>qatwatch status</title><style>").append(CSS).append("</style></head><body>");
        header(html, view, chrome);
        html.append("<main>");
        if (chrome.notice() != null) {
            html.append("<p class=\"notice\" id=\"notice\">").append(esc(chrome.notice())).append("</p>");
        }
        summary(html, view);
        alerts(html, view);
        fleet(html, view);
        windows(html, view);
        compression(html, view);
        channels(html, view);
        html.append("<p class=\"muted\">Rendered ").append(UTC.format(view.renderedAt()))
                .append(". The page refreshes every minute.</p></main></body></html>");
        return html.toString();
    }

    private static void header(StringBuilder html, StatusView view, Chrome chrome) {
        long critical = view.alerts().stream().filter(a -> "critical".equals(a.severity())).count();
        int alerts = Math.max(view.alerts().size(), view.paging().alertsMatching());
        html.append("<header><h1>qatwatch</h1><span><span class=\"count\">").append(view.summary().hosts())
                .append("</span> hosts</span><span><span class=\"count").append(alerts == 0 ? "" : " bad")
                .append("\">").append(alerts).append("</span> active alerts");
        if (critical > 0) {
            html.append(" (").append(critical).append(" critical)");
        }
        html.append("</span>");
        if (chrome.signedInAs() != null) {
            html.append("<form class=\"signout\" method=\"post\" action=\"/logout\"><span class=\"muted\">signed in as ")
                    .append(esc(chrome.signedInAs())).append("</span> <input type=\"hidden\" name=\"csrf\" value=\"")
                    .append(esc(chrome.csrf())).append("\"><button type=\"submit\">Sign out</button></form>");
        }
        html.append("</header>");
    }

    /** Hosts per state, and per host group when groups are configured; each count links to those hosts. */
    private static void summary(StringBuilder html, StatusView view) {
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

    private static String href(FleetQuery q, int defaultLimit) {
        String query = q.queryString(defaultLimit);
        return query.isEmpty() ? "?" : query;
    }

    private static String stateClass(String state) {
        return switch (state) {
            case "silent", "critical" -> "bad";
            case "warning" -> "warn";
            case "ok" -> "good";
            default -> "";
        };
    }

    private static void alerts(StringBuilder html, StatusView view) {
        html.append("<section id=\"alerts\"><h2>Active alerts</h2>");
        if (view.alerts().isEmpty()) {
            html.append("<p class=\"muted\">No alert is firing").append(view.paging().query().filtered()
                    ? " on the hosts these filters select" : "").append(".</p>");
        } else if (view.paging().alertsMatching() > view.alerts().size()) {
            html.append("<p class=\"muted\" id=\"alerts-shown\">The ").append(view.alerts().size()).append(" most severe of ")
                    .append(view.paging().alertsMatching()).append(" active alerts. Narrow them with a host pattern or a group "
                            + "below, or read them all from <code>/api/v1/alerts</code>.</p>");
        }
        for (ActiveAlert a : view.alerts()) {
            html.append("<article class=\"alert ").append(esc(a.severity())).append("\" id=\"alert-").append(esc(a.id()))
                    .append("\" data-rule=\"").append(esc(a.rule())).append("\"><h3><span class=\"sev\">").append(esc(a.severity()))
                    .append("</span>").append(esc(a.summary())).append("</h3><p class=\"muted\">").append(esc(where(a)))
                    .append(" · <span class=\"rule\">").append(esc(a.rule())).append("</span>");
            if (a.since() != null) {
                html.append(" · since ").append(esc(ago(a.since(), view.renderedAt())));
            }
            html.append("</p>");
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
            html.append("</article>");
        }
        html.append("</section>");
    }

    private static void windows(StringBuilder html, StatusView view) {
        html.append("<section id=\"windows\"><h2>Backup windows</h2>");
        pageNote(html, view);
        if (view.windows().isEmpty()) {
            html.append("<p class=\"muted empty\" id=\"no-windows\">No nightly backup window yet: windows appear once an instance has reported "
                    + "full or differential backups between business days. An agent watches a SQL Server when its "
                    + "<code>agent.yaml</code> lists it under <code>sqlserver.instances</code> (" + UP_SQL + "); business hours are the "
                    + "<code>alerts.calendars</code> of the collector's config (docs/alerts.md).</p>");
        }
        int i = 0;
        for (InstanceWindows w : view.windows()) {
            i++;
            html.append("<article class=\"instance-windows\" id=\"windows-").append(i).append("\"><h3>").append(esc(w.host()))
                    .append(" / ").append(esc(w.instance())).append("</h3>");
            html.append("<p class=\"trend-text\">").append(esc(trendText(w))).append("</p>");
            if (w.nights().isEmpty()) {
                html.append("<p class=\"muted\">No night yet.</p>");
            } else {
                html.append("<div class=\"chart\">").append(WindowChart.svg(w, Integer.toString(i))).append("</div>");
            }
            if (!w.restoreTests().isEmpty()) {
                html.append("<p class=\"restore-tests\">Last restore test: ");
                int k = 0;
                for (StatusView.RestoreTest t : w.restoreTests()) {
                    html.append(k++ == 0 ? "" : "; ").append("<span data-database=\"").append(esc(t.database())).append("\">")
                            .append(esc(t.database())).append(" ").append(t.restoredAt() == null ? "none in the lookback period"
                                    : esc(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
                                            .format(t.restoredAt().atZone(w.zone())) + " on " + t.where()))
                            .append("</span>");
                }
                html.append("</p>");
            }
            html.append("</article>");
        }
        if (!view.windows().isEmpty()) {
            html.append("<p class=\"legend\"><span><i style=\"background:var(--ok)\"></i>window, safe margin</span>")
                    .append("<span><i style=\"background:var(--near)\"></i>under the safety margin</span>")
                    .append("<span><i style=\"background:var(--bad)\"></i>ran into business hours</span>")
                    .append("<span><i style=\"background:var(--band)\"></i>business hours</span>")
                    .append("<span><i class=\"line\" style=\"background:var(--near)\"></i>safety margin</span>")
                    .append("<span><i class=\"line\" style=\"background:var(--trend)\"></i>trend of the window end, dashed: forecast</span>")
                    .append("<span>paler bars: differential nights</span>")
                    .append("<span><i style=\"background:var(--bad);opacity:.35;outline:1px dashed var(--bad)\"></i>a backup still "
                            + "running: solid up to the last report (the black tick), pale to its predicted end</span>")
                    .append("<span><i style=\"background:var(--fg);opacity:.6\"></i>other SQL Server Agent jobs running in the window</span></p>");
        }
        html.append("</section>");
    }

    static String trendText(InstanceWindows w) {
        Trend t = w.trend();
        if (t == null) {
            return "Too few comparable nights for a trend yet.";
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

    private static void fleet(StringBuilder html, StatusView view) {
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
                    .append(esc(row.host())).append("</strong>");
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
                html.append("<span class=\"instance\">").append(esc(i.name()));
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

    /** What each licence verdict means; the Intel driver licence's clause is quoted, no legal advice given. */
    /** The instance's QAT changes of the last 30 days, when there were any: "when → mode (reason), versions". */
    private static void qatTimeline(StringBuilder html, SqlInstanceRow i) {
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

    /** Each chat channel's deliveries: how many went, how many attempts failed, the last error. */
    private static void channels(StringBuilder html, StatusView view) {
        if (view.channels().isEmpty()) {
            return;
        }
        html.append("<section id=\"channels\"><h2>Chat channels</h2><table><thead><tr><th>Channel</th><th>Delivered</th>"
                + "<th>Failed attempts</th><th>Last failure</th></tr></thead><tbody>");
        for (var c : view.channels()) {
            html.append("<tr data-channel=\"").append(esc(c.name())).append("\"><td data-label=\"Channel\">").append(esc(c.name()))
                    .append(c.failing() ? " <span class=\"tag bad\">failing</span>" : "")
                    .append("</td><td data-label=\"Delivered\">").append(c.delivered())
                    .append("</td><td data-label=\"Failed attempts\">").append(c.failed() == 0 ? "0"
                            : "<span class=\"count bad\">" + c.failed() + "</span>")
                    .append("</td><td data-label=\"Last failure\">")
                    .append(c.lastFailedAt() == null ? "none" : esc(UTC.format(c.lastFailedAt())) + " <span class=\"muted\">"
                            + esc(c.lastError()) + "</span>")
                    .append("</td></tr>");
        }
        html.append("</tbody></table><p class=\"muted\">Since the collector started; <code>/metrics</code> counts the same "
                + "(<code>qatwatch_notifications_failed_total</code>).</p></section>");
    }

    private static void licenceLegend(StringBuilder html) {
        html.append("<details class=\"legend-verdicts\" id=\"licence-verdicts\"><summary>What the licence verdicts mean</summary><dl class=\"facts\">");
        VERDICTS.forEach((verdict, meaning) -> html.append("<dt>").append(licence(verdict)).append("</dt><dd>")
                .append(esc(meaning)).append("</dd>"));
        html.append("</dl><p class=\"muted\">The Intel QAT driver licence permits use \"in conjunction with (a) physical Intel component "
                + "products, and (b) virtual ('emulated') devices designed to appear as Intel component products to a Guest "
                + "operating system\". qatwatch reports the facts and the clause; it gives no legal advice.</p></details>");
    }

    /** A plain GET form (no script): host pattern, group, tag and state; the page size is kept. */
    private static void filters(StringBuilder html, StatusView.Paging paging) {
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
    private static void pages(StringBuilder html, StatusView.Paging paging) {
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

    /** An agent that lost reports says so: what it could not write (a full disk), dropped or found torn. */
    private static void losses(StringBuilder html, StatusView.AgentLosses losses) {
        if (losses == null) {
            return;
        }
        if (losses.lost() > 0) {
            html.append(" <span class=\"tag bad\" title=\"reports the agent made but could not write to its disk (a full "
                    + "disk, an I/O error), so never sent; a total since its outbox was created\">lost ")
                    .append(losses.lost()).append(losses.lost() == 1 ? " report" : " reports").append("</span>");
        }
        if (losses.dropped() > 0) {
            html.append(" <span class=\"tag warn\" title=\"reports dropped, oldest first, from the agent's full outbox "
                    + "while it could not deliver (outbox.maxBytes)\">dropped ").append(losses.dropped()).append("</span>");
        }
        if (losses.corrupt() > 0) {
            html.append(" <span class=\"tag warn\" title=\"torn or corrupt outbox records cut out after a crash\">corrupt ")
                    .append(losses.corrupt()).append("</span>");
        }
    }

    private static String qat(HostRow row) {
        if (row.qat() == null) {
            return "<span class=\"muted\">unknown</span>";
        }
        if (row.qat().devices() == 0) {
            return "<span class=\"muted\">no device</span>";
        }
        String devices = row.qat().devices() + (row.qat().devices() == 1 ? " device" : " devices") + ", " + row.qat().devicesUp() + " up";
        return "<span>" + devices + " <span class=\"tag " + (row.qat().compressionReady() ? "good\">compression ready" : "bad\">not ready")
                + "</span></span>";
    }

    private static String licence(String verdict) {
        if (verdict == null) {
            return "<span class=\"muted\">unknown</span>";
        }
        String kind = "INTEL_QAT_HARDWARE".equals(verdict) || "INTEL_CPU".equals(verdict) ? "good"
                : GREY_VERDICTS.contains(verdict) ? "warn" : "";
        String meaning = VERDICTS.get(verdict);
        return "<span class=\"tag " + kind + "\"" + (meaning == null ? "" : " title=\"" + esc(meaning) + "\"") + ">"
                + esc(verdict) + "</span>";
    }

    private static String modeClass(String mode) {
        return switch (mode) {
            case "HARDWARE" -> "good";
            case "SOFTWARE" -> "warn";
            default -> "";
        };
    }

    /** "Is compression worth it?": the fleet's verdicts per method and target, then each host of the page's. */
    private static void compression(StringBuilder html, StatusView view) {
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
        for (StatusView.HostCompression h : c.hosts()) {
            html.append("<article class=\"host-compression\" data-host=\"").append(esc(h.host())).append("\"><h3>")
                    .append(esc(h.host())).append("</h3><p class=\"host-verdict\">")
                    .append(h.summary() == null ? "<span class=\"muted\">One algorithm per database and target: nothing compared.</span>"
                            : esc(h.summary())).append("</p>");
            if (h.qatBackups()) {
                html.append("<p class=\"muted\">Takes QAT_DEFLATE backups, ").append(esc(c.restoreBurden())).append(".</p>");
            }
            html.append("<table class=\"cards\"><thead><tr><th>Database</th><th>Backups</th><th>Algorithms</th>")
                    .append("<th>Verdict</th></tr></thead><tbody>");
            for (StatusView.CompressionRow r : h.rows()) {
                html.append("<tr data-verdict=\"").append(esc(r.verdict())).append("\"><td data-label=\"Database\"><span>")
                        .append(esc(r.database())).append(" <span class=\"muted\">").append(esc(r.instance()))
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
                                    r.sizeGainPercent()))).append("</span>");
                }
                html.append("</span></td></tr>");
            }
            html.append("</tbody></table></article>");
        }
        html.append("</section>");
    }

    private static String verdictWords(String verdict) {
        io.qatwatch.collector.compression.Verdict v = io.qatwatch.collector.compression.Verdict.parse(verdict);
        return v == null ? verdict : v.words();
    }

    private static String verdictClass(String verdict) {
        return switch (verdict) {
            case "FASTER", "FASTER_AND_SMALLER", "SMALLER" -> "good";
            case "SLOWER" -> "bad";
            case "NO_GAIN" -> "warn";
            default -> "";
        };
    }

    /** Charts and compression rows follow the host table's page: say so when it is not the whole fleet. */
    private static void pageNote(StringBuilder html, StatusView view) {
        if (view.fleet().size() < view.summary().hosts()) {
            html.append("<p class=\"muted page-note\">For the ").append(view.fleet().size())
                    .append(view.fleet().size() == 1 ? " host" : " hosts").append(" listed above.</p>");
        }
    }

    private static String where(ActiveAlert a) {
        StringBuilder s = new StringBuilder();
        for (String part : new String[] {a.host(), a.instance(), a.database()}) {
            if (part != null && !part.isBlank()) {
                s.append(s.isEmpty() ? "" : " / ").append(part);
            }
        }
        return s.toString();
    }

    static String ago(Instant then, Instant now) {
        long seconds = Math.max(0, Duration.between(then, now).getSeconds());
        if (seconds < 120) {
            return seconds + " s ago";
        }
        if (seconds < 7200) {
            return seconds / 60 + " min ago";
        }
        if (seconds < 172_800) {
            return seconds / 3600 + " h ago";
        }
        return seconds / 86_400 + " days ago";
    }

    /** Under ten minutes to a tenth of a second ("8 min 19.6 s", "40.0 s"): algorithms are compared there; above, as {@link #duration}. */
    static String preciseDuration(double seconds) {
        if (seconds >= 600) {
            return duration(Math.round(seconds));
        }
        long minutes = (long) (seconds / 60);
        String rest = String.format(Locale.ROOT, "%.1f s", seconds - minutes * 60);
        return minutes == 0 ? rest : minutes + " min " + rest;
    }

    /** "2 h 05 min", "12 min", "40 s". */
    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = Math.round(seconds / 60.0);
        return minutes < 60 ? minutes + " min" : String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
    }

    private static String minutes(double minutes) {
        String d = duration(Math.round(Math.abs(minutes) * 60));
        return minutes < 0 ? "\u2212" + d : d;
    }

    static String bytes(long bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB", "PB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** HTML-escapes text from reports: host, instance and database names come from the field. */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
