package io.qatwatch.collector.web.status;

/**
 * The fleet page ({@code /}) from a {@link StatusView}: server-side HTML with inline CSS and SVG, no scripts, no
 * external requests, readable from a phone to a laptop; each section is a view class of its own. Every text that
 * came from a report is escaped.
 */
public final class StatusPage {

    /**
     * What frames a page apart from its content: the configured notice ({@code statusPage.notice}), and who is signed
     * in with the session's CSRF token for its forms (both null when the page was opened without signing in);
     * {@code canAct}: the session's token may acknowledge, note and silence (an operator or admin token), so the
     * page shows those forms.
     */
    public record Chrome(String notice, String signedInAs, String csrf, boolean canAct) {
        public static final Chrome NONE = new Chrome(null, null, null, false);

        /** A page for a reader who may not act. */
        public Chrome(String notice, String signedInAs, String csrf) {
            this(notice, signedInAs, csrf, false);
        }
    }

    private StatusPage() {
    }

    /** The whole page, without notice or sign-in. */
    public static String render(StatusView view) {
        return render(view, Chrome.NONE);
    }

    /** The whole page, without silences. */
    public static String render(StatusView view, Chrome chrome) {
        return render(view, chrome, java.util.List.of());
    }

    /** The whole page, with the silences in force (each with a form to end it when the session may act). */
    public static String render(StatusView view, Chrome chrome, java.util.List<HostView.SilenceRow> silences) {
        StringBuilder html = new StringBuilder(32_768);
        PageFrame.open(html, "qatwatch status", true, PageFrame.counts(view), chrome);
        html.append("<h1 class=\"page-title\">Fleet status</h1>");
        FleetSummarySection.summary(html, view);
        AlertCards.alerts(html, view, chrome);
        SilencesSection.silences(html, silences, chrome, "/" + view.paging().query().queryString(view.paging().defaultLimit()));
        HostsTable.fleet(html, view);
        WindowsSection.windows(html, view);
        CompressionSection.compression(html, view);
        ChannelsSection.channels(html, view);
        PageFrame.close(html, view.renderedAt(), true);
        return html.toString();
    }
}
