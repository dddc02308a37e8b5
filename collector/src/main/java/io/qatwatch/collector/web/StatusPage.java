package io.qatwatch.collector.web;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Renders the status page: server-side HTML, no scripts, no external requests. */
public final class StatusPage {

    private StatusPage() {
    }

    public static String render(List<FleetRow> fleet, Instant now) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>qatwatch</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:1rem;color:#222}")
                .append("table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;")
                .append("border-bottom:1px solid #ddd}th{background:#f4f4f4}.muted{color:#777}")
                .append("@media(max-width:600px){td,th{font-size:.85rem;padding:.2rem}}")
                .append("</style></head><body><h1>qatwatch</h1>");
        html.append("<h2>Fleet</h2>");
        if (fleet.isEmpty()) {
            html.append("<p class=\"muted\">No agent has reported yet. Enroll one with "
                    + "<code>qatwatch collector token add &lt;host&gt;</code>.</p>");
        } else {
            html.append("<table id=\"fleet\"><thead><tr><th>Host</th><th>CPU</th><th>QAT</th><th>Licence</th>")
                    .append("<th>SQL Server instances</th><th>Last seen</th></tr></thead><tbody>");
            for (FleetRow row : fleet) {
                html.append("<tr><td>").append(esc(row.host())).append("</td><td>")
                        .append(esc(row.facts() == null || row.facts().cpu() == null ? "?" : row.facts().cpu().vendor()))
                        .append("</td><td>").append(esc(qat(row))).append("</td><td>")
                        .append(esc(row.licence() == null ? "?" : row.licence().verdict().name()))
                        .append("</td><td>").append(esc(instances(row.instances()))).append("</td><td>")
                        .append(esc(ago(row.lastSeen(), now))).append("</td></tr>");
            }
            html.append("</tbody></table>");
        }
        html.append("<p class=\"muted\">Rendered ").append(esc(now.toString())).append("</p></body></html>");
        return html.toString();
    }

    private static String qat(FleetRow row) {
        if (row.qat() == null) {
            return "?";
        }
        if (row.qat().devices().isEmpty()) {
            return "none";
        }
        return row.qat().devices().size() + " device(s), " + (row.qat().compressionReady() ? "compression ready" : "not ready");
    }

    private static String instances(List<SqlInstanceSnapshot> instances) {
        if (instances.isEmpty()) {
            return "-";
        }
        StringBuilder s = new StringBuilder();
        for (SqlInstanceSnapshot i : instances) {
            if (!s.isEmpty()) {
                s.append(", ");
            }
            s.append(i.name());
            if (i.server() != null && i.server().productVersion() != null) {
                s.append(" (").append(i.server().productVersion()).append(')');
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
