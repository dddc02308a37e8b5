package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a newcomer reads on the page: next steps when it is empty, what a verdict means, no alarm for a zero. */
class StatusPageFirstHourTest {

    private static String between(String html, String from, String to) {
        int start = html.indexOf(from);
        return html.substring(start, html.indexOf(to, start));
    }

    @Test
    void zeroCountsAreNotDrawnInAlarmColours() {
        String summary = between(StatusPage.render(StatusFixture.view()), "<section id=\"summary\">", "</section>");
        // the fixture: one critical, one ok, one silent host; nobody in warning or info
        assertThat(summary).contains("class=\"tag bad\" data-state=\"critical\"><span class=\"count\">1</span>")
                .contains("class=\"tag zero\" data-state=\"warning\"><span class=\"count\">0</span>")
                .contains("class=\"tag zero\" data-state=\"info\"><span class=\"count\">0</span>");
        String onlyOk = StatusPage.render(StatusFixture.of(StatusFixture.NOW, List.of(StatusFixture.fleet().get(1)),
                List.of(), List.of(), null));
        assertThat(between(onlyOk, "<section id=\"summary\">", "</section>"))
                .contains("class=\"tag zero\" data-state=\"silent\"><span class=\"count\">0</span>")
                .contains("class=\"tag zero\" data-state=\"critical\"><span class=\"count\">0</span>")
                .doesNotContain("tag bad").doesNotContain("tag warn");
        assertThat(onlyOk).contains("<span class=\"count\">0</span> active alerts").doesNotContain("count bad");
    }

    @Test
    void theLicenceVerdictExplainsItselfInATooltipAndALegend() {
        String fleet = between(StatusPage.render(StatusFixture.view()), "<section id=\"fleet\">", "</section>");
        assertThat(fleet).contains("title=\"a QAT device (physical or virtual function) was found\">INTEL_QAT_HARDWARE</span>");
        String legend = between(fleet, "<details class=\"legend-verdicts\"", "</details>");
        for (String verdict : Html.VERDICTS.keySet()) {
            assertThat(legend).contains(">" + verdict + "</span></dt><dd>");
        }
        assertThat(legend).contains("What the licence verdicts mean", "in conjunction with (a) physical Intel component products",
                "no legal advice");
    }

    @Test
    void anEmptyFleetSaysHowToEnrolAHostAndHowToAddASqlServer() {
        String empty = StatusPage.render(StatusFixture.of(Instant.parse("2026-11-30T06:30:00Z"), List.of(), List.of(), List.of(), null));
        String fleet = between(empty, "<section id=\"fleet\">", "</section>");
        assertThat(fleet).contains("No agent has reported yet. To watch a host:", "qatwatch collector token add &lt;host&gt;",
                "<code>collector.url</code>", "<code>sqlserver.instances</code>", "create-monitor-login.sql",
                "<code>qatwatch up</code>", "<code>qatwatch demo</code>");
        assertThat(empty).contains("id=\"no-windows\"", "id=\"no-compression\"", "alerts.calendars");
        String hostWithoutSql = between(StatusPage.render(StatusFixture.view()), "<tr data-host=\"&lt;script", "</tr>");
        assertThat(hostWithoutSql).contains("none reported: add one under <code>sqlserver.instances</code>");
    }

    @Test
    void theNoticeAndTheSignedInReaderWithASignOutFormFrameThePage() {
        String page = StatusPage.render(StatusFixture.view(), new StatusPage.Chrome("Demo: everything here is simulated", "grafana", "c5rf-t0ken"));
        assertThat(page).contains("<p class=\"notice\" id=\"notice\">Demo: everything here is simulated</p>")
                .contains("<form class=\"signout\" method=\"post\" action=\"/logout\"><span class=\"muted\">signed in as grafana (read only)</span>")
                .contains("<input type=\"hidden\" name=\"csrf\" value=\"c5rf-t0ken\"><button type=\"submit\">Sign out</button>");
        assertThat(StatusPage.render(StatusFixture.view())).doesNotContain("id=\"notice\"").doesNotContain("/logout");
    }

    @Test
    void algorithmDurationsUnderTenMinutesKeepTheirTenths() {
        assertThat(Html.preciseDuration(499.6)).isEqualTo("8 min 19.6 s");
        assertThat(Html.preciseDuration(238.6)).isEqualTo("3 min 58.6 s");
        assertThat(Html.preciseDuration(40)).isEqualTo("40.0 s");
        assertThat(Html.preciseDuration(19 * 60)).isEqualTo("19 min");
    }
}
