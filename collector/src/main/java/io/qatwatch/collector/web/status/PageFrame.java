package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;

import java.time.Instant;

/** The frame of every page: head with the inline CSS, the header (counts, who is signed in), the footer. */
final class PageFrame {

    static final String CSS = """
            :root{--fg:#1d2329;--muted:#5f6b76;--line:#dde2e6;--card:#f5f7f8;--ok:#2f9e5b;--near:#d98e04;--bad:#d43d3d;\
            --band:#fbe1e1;--trend:#3b5bdb;--info:#4c7bd9}
            *{box-sizing:border-box}
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:#fff}
            header{padding:.7rem 1rem;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:baseline}
            header .brand{font-size:1.25rem;font-weight:700;color:var(--fg);text-decoration:none}
            h1.page-title{font-size:1.35rem;margin:1rem 0 .3rem}
            nav.crumbs{font-size:.9rem;margin:.8rem 0 0;color:var(--muted)}
            main,td,dd,li,p,h1,h2,h3,h4,code{overflow-wrap:anywhere}
            caption{text-align:left;font-weight:600;padding:.4rem 0 .2rem}
            details.act,details.alert-list{margin:.4rem 0 .1rem}
            details.act summary,details.alert-list summary{cursor:pointer;color:var(--trend)}
            form.act{display:flex;flex-wrap:wrap;gap:.3rem .7rem;align-items:end;margin:.4rem 0;padding:.4rem .5rem;
            border:1px solid var(--line);border-radius:4px;background:#fff;font-size:.9rem}
            form.act label{display:flex;flex-direction:column;color:var(--muted);min-width:0;max-width:100%}
            form.act input,form.act select,form.act textarea,form.act button{font:inherit;padding:.2rem .4rem;max-width:100%}
            form.unsilence{display:inline-flex;border:0;padding:0;margin:0 0 0 .5rem;background:none}
            section.grouped{border-top:1px solid var(--line);margin-top:.5rem;padding-top:.3rem}
            section.grouped h4{margin:.2rem 0;font-size:.95rem}
            ul.silences{padding-left:1.2rem}
            .chart-with-legend{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:flex-start}
            .chart-with-legend .chart{flex:1 1 32rem;min-width:0}
            ul.chart-legend{list-style:none;padding:0;margin:.2rem 0;flex-direction:column;flex:0 1 12rem}
            svg.backups{width:100%;height:auto;display:block;font-size:12px;max-width:960px}
            svg.backups text{fill:var(--muted)}
            svg.backups text.axis-title,svg.job-timeline text.axis-title,svg.windows text.axis-title{fill:var(--fg);font-weight:600}
            svg.job-timeline{width:100%;height:auto;display:block;font-size:12px;max-width:960px}
            svg.job-timeline text{fill:var(--muted)}
            svg .pat{stroke:var(--fg);stroke-width:1.2}
            svg .pat.dot{fill:var(--fg);stroke:none}
            svg .pat-bg{fill:#dfe4ea}
            svg .job-run{stroke:var(--fg);stroke-width:.8}
            svg .job-run.lane-5{fill:#6c757d}
            svg .row-rule{stroke:var(--line);stroke-width:1}
            .swatch{display:inline-block;width:.9rem;height:.8rem;border-radius:2px;margin:0 .3rem 0 0;vertical-align:-1px}
            svg.swatch{width:24px;height:12px}
            ul.chart-legend li{margin:.15rem 0;font-size:.85rem}
            svg .change{stroke:var(--fg);stroke-width:1;stroke-dasharray:4 3;opacity:.7}
            svg text.change-label{fill:var(--fg);font-size:11px}
            ul.changes{font-size:.88rem;margin:.2rem 0}
            svg{max-width:100%}
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
            padding:.05rem .4rem;border-radius:3px;color:#fff;background:#8a5a00;margin-right:.4rem;vertical-align:2px}
            .critical .sev{background:#a12828}
            .info .sev{background:#2f55b0}
            .rule{font-family:ui-monospace,Consolas,monospace;font-size:.85rem;color:var(--muted)}
            dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0 0;font-size:.9rem}
            dl.facts dt{color:var(--muted)}
            dl.facts dd{margin:0}
            table{border-collapse:collapse;width:100%;font-size:.92rem}
            th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
            th{background:var(--card);font-weight:600}
            td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
            .tag{display:inline-block;font-size:.78rem;padding:0 .35rem;border-radius:3px;background:var(--card);
            border:1px solid var(--line);max-width:100%;overflow-wrap:anywhere}
            .tag.good{border-color:var(--ok);color:#1e6b3c}
            .tag.warn{border-color:var(--near);color:#8a5a00}
            .tag.bad{border-color:var(--bad);color:#a12828}
            .instance{display:block;margin:.1rem 0}
            .chart{margin:.2rem 0 .4rem}
            .trend-text{margin:.1rem 0 .3rem}
            svg.windows{width:100%;height:auto;display:block;font-size:12px;max-width:960px}
            svg.windows.compact{max-width:320px;font-size:11px}
            .compact-windows{display:flex;flex-wrap:wrap;gap:.1rem 1.2rem;align-items:flex-start}
            .compact-windows .chart{flex:0 1 320px;min-width:0}
            .compact-windows>div+div{flex:1 1 18rem;min-width:0}
            .compact-windows p{margin:.1rem 0 .3rem}
            ul.section-legend{list-style:none;padding:0;margin:.3rem 0 .5rem}
            ul.verdict-counts{list-style:none;display:flex;flex-wrap:wrap;gap:.15rem 1rem;padding:0;margin:.2rem 0;font-size:.88rem}
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
            @media print{svg,.swatch{print-color-adjust:exact;-webkit-print-color-adjust:exact}header form,details.act,form.act,form.filters,nav.pages{display:none}
            body{font-size:11pt}a{color:inherit;text-decoration:none}svg,article,table{break-inside:avoid}
            details.alert-list>*{display:block}}
            @media (max-width:700px){
            body{font-size:14px}
            main{padding:0 .6rem 1.5rem}
            svg.windows{font-size:21px}
            svg.backups{font-size:17px}
            svg.job-timeline{font-size:21px}
            table.cards thead{display:none}
            table.cards tr{display:block;border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:.3rem .55rem}
            table.cards td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:.12rem 0;text-align:right;min-width:0}
            table.cards td>*{min-width:0}
            table.cards caption{display:block}
            table.cards td::before{content:attr(data-label);color:var(--muted);text-align:left;flex:none}
            ul.chart-legend{flex-direction:row;flex-basis:100%}
            table.cards td.num{text-align:right}
            }
            """;

    private PageFrame() {
    }

    /**
     * Opens a page: head (title, inline CSS; no timed reload: it would throw away a half-typed acknowledgement, and
     * axe-core counts it a critical accessibility failure; {@code refresh} is unused), the header with the fleet's
     * counts ({@code counts}, HTML, may be empty) and the sign-out form, the notice, and {@code <main>}.
     */
    static void open(StringBuilder html, String title, boolean refresh, String counts, StatusPage.Chrome chrome) {
        html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        html.append("<title>").append(esc(title)).append("</title><style>").append(CSS).append("</style></head><body>")
                .append("<header><a class=\"brand\" href=\"/\">qatwatch</a>").append(counts);
        if (chrome.signedInAs() != null) {
            html.append("<form class=\"signout\" method=\"post\" action=\"/logout\"><span class=\"muted\">signed in as ")
                    .append(esc(chrome.signedInAs())).append(chrome.canAct() ? "" : " (read only)")
                    .append("</span> <input type=\"hidden\" name=\"csrf\" value=\"")
                    .append(esc(chrome.csrf())).append("\"><button type=\"submit\">Sign out</button></form>");
        }
        html.append("</header><main>");
        if (chrome.notice() != null) {
            html.append("<p class=\"notice\" id=\"notice\">").append(esc(chrome.notice())).append("</p>");
        }
    }

    /** Closes a page opened by {@link #open}. */
    static void close(StringBuilder html, Instant renderedAt, boolean refresh) {
        html.append("<p class=\"muted rendered\">Rendered ").append(UTC.format(renderedAt))
                .append(refresh ? ". Reload the page for the latest (the alerts are evaluated every minute)." : ".")
                .append("</p></main></body></html>");
    }

    /** The fleet's hosts and active alerts, for the header. */
    static String counts(StatusView view) {
        long critical = view.alerts().stream().filter(a -> "critical".equals(a.severity())).count();
        int alerts = Math.max(view.alerts().size(), view.paging().alertsMatching());
        StringBuilder html = new StringBuilder();
        html.append("<span><span class=\"count\">").append(view.summary().hosts())
                .append("</span> hosts</span><span><span class=\"count").append(alerts == 0 ? "" : " bad")
                .append("\">").append(alerts).append("</span> active alerts");
        if (critical > 0) {
            html.append(" (").append(critical).append(" critical)");
        }
        return html.append("</span>").toString();
    }
}
