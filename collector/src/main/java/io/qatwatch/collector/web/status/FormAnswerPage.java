package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

/** What a status page form that could not be done answers: why, and the way back to the page it came from. */
public final class FormAnswerPage {

    private FormAnswerPage() {
    }

    public static String render(String title, String message, String back, StatusPage.Chrome chrome) {
        StringBuilder html = new StringBuilder(4096);
        PageFrame.open(html, title + ": qatwatch", false, "", chrome);
        html.append("<h1 class=\"page-title\">").append(esc(title)).append("</h1><p class=\"message\" id=\"message\">")
                .append(esc(message)).append("</p><p><a href=\"").append(esc(back)).append("\">Back to the page</a></p>");
        PageFrame.close(html, java.time.Instant.now(), false);
        return html.toString();
    }
}
