package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.*;


/** Each chat channel's deliveries since the collector started. */
final class ChannelsSection {

    private ChannelsSection() {
    }

    /** Each chat channel's deliveries: how many went, how many attempts failed, the last error. */
    static void channels(StringBuilder html, StatusView view) {
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
}
