package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The page rendered from the fixture view: what a DBA reads, where the bars fall, and what is escaped. */
class StatusPageTest {

    private static final Pattern BAR = Pattern.compile("<rect class=\"bar ([a-z ]+)\" x=\"[-\\d.]+\" y=\"([-\\d.]+)\" width=\"[-\\d.]+\" height=\"([-\\d.]+)\">");
    private static final Pattern BUSINESS_START = Pattern.compile("<line class=\"business-start\" x1=\"[-\\d.]+\" x2=\"[-\\d.]+\" y1=\"([-\\d.]+)\"");

    private final String html = StatusPage.render(StatusFixture.view());

    @Test
    void everyActiveAlertSaysWhatWhereAndWhy() {
        String creep = article("backup-window-creep");
        assertThat(creep).contains("class=\"alert warning\"")
                .contains("Nightly backups of sql01 / MSSQLSERVER end 9 min later every day")
                .contains("sql01 / MSSQLSERVER")
                .contains("shrank by 9.1 min per day")
                .contains("<dt>forecast</dt><dd>2026-12-05 (in 5 days)</dd>")
                .contains("since 3 h ago");
        assertThat(article("qat-fallback")).contains("class=\"alert critical\"").contains("while the host has 2 QAT devices up");
        assertThat(html).contains("<span class=\"count bad\">2</span> active alerts (1 critical)");
    }

    @Test
    void eachInstanceHasAChartOfItsThirtyNights() {
        List<String> charts = svgs();
        assertThat(charts).hasSize(2);
        for (String svg : charts) {
            assertThat(svg).contains("data-nights=\"30\"").contains("class=\"band\"").contains(">business hours</text>");
            assertThat(bars(svg)).hasSize(30);
        }
    }

    @Test
    void theBreachedNightIsRedAndReachesIntoTheBusinessHoursBand() {
        String creeping = svgs().get(0);
        double businessStartY = number(BUSINESS_START, creeping);
        List<String[]> breaches = bars(creeping).stream().filter(b -> b[0].contains("breach")).toList();
        assertThat(breaches).hasSize(1);
        String[] breach = breaches.get(0);
        assertThat(Double.parseDouble(breach[1]) + Double.parseDouble(breach[2])).isGreaterThan(businessStartY);
        for (String[] bar : bars(creeping)) {
            if (bar[0].contains("ok")) {
                assertThat(Double.parseDouble(bar[1]) + Double.parseDouble(bar[2])).isLessThan(businessStartY);
            }
        }
        assertThat(bars(creeping)).filteredOn(b -> b[0].contains("near")).isNotEmpty();
    }

    @Test
    void theCreepingInstanceShowsItsForecastAndTheSteadyOneDoesNot() {
        List<String> charts = svgs();
        assertThat(charts.get(0)).contains("class=\"projection\"").contains("<circle class=\"forecast\"").contains(">5 Dec</text>");
        assertThat(charts.get(1)).contains("class=\"fit\"").doesNotContain("class=\"projection\"").doesNotContain("<circle");
        assertThat(html).contains("The margin shrinks by 9 min per day over the last 30 differential nights")
                .contains("Projected under the 30 min safety margin on Sat 5 Dec 2026 (in 5 days).")
                .contains("The margin is steady or growing");
        assertThat(bars(charts.get(1))).filteredOn(b -> b[0].contains("running")).hasSize(1);
    }

    @Test
    void theFleetTableShowsStateQatLicenceAndLastSeen() {
        String fleet = between(html, "<section id=\"fleet\">", "</section>");
        assertThat(fleet).contains("<strong><a class=\"host-link\" href=\"/hosts/sql01\">sql01</a></strong> <span class=\"tag bad\">critical</span> <span class=\"muted\">prod</span>")
                .contains("<strong><a class=\"host-link\" href=\"/hosts/sql02\">sql02</a></strong> <span class=\"tag good\">ok</span>")
                .contains("2 devices, 2 up <span class=\"tag good\">compression ready</span>")
                .contains("QAT SOFTWARE</span> <span class=\"muted\">Hardware not found</span>")
                .contains("<span class=\"tag warn\" title=\"no QAT device and no Intel CPU, but another physical Intel part (a NIC, a chipset): the grey zone\">INTEL_COMPONENT_ONLY</span>")
                .contains("40 s ago").contains("3 days ago");
    }

    @Test
    void reportTextIsEscaped() {
        assertThat(html).doesNotContain(StatusFixture.HOSTILE_HOST).doesNotContain("<script")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    }

    @Test
    void thePageLoadsNothingFromElsewhere() {
        assertThat(html).doesNotContain("src=").doesNotContain("<link").doesNotContain("@import")
                .doesNotContainPattern("(href|url)\\(?=?\"?https?:");
    }

    @Test
    void theCompressionSectionShowsTheFleetsVerdictsTheRestoreBurdenAndEachHostsDatabases() {
        String section = html.substring(html.indexOf("<section id=\"compression\">"));
        assertThat(between(section, "<table class=\"cards\" id=\"compression-fleet\">", "</table>"))
                .contains("<td data-label=\"Algorithm\">QAT_DEFLATE (HARDWARE)</td><td data-label=\"Target\">UNC</td>")
                .contains("<td class=\"num\" data-label=\"faster\">1</td>");
        assertThat(section).contains("<p id=\"restore-burden\">QAT_DEFLATE backups are restorable on 1 of 3 probed hosts: sql01.");
        String sql01 = between(section, "<article class=\"host-compression\" data-host=\"sql01\">", "</article>");
        assertThat(sql01).contains("<p class=\"host-verdict\">QAT_DEFLATE (HARDWARE): faster to the share for 1 of 1 database</p>")
                .contains("Takes QAT_DEFLATE backups, restorable on 1 of 3 probed hosts: sql01.")
                .contains("<tr data-verdict=\"FASTER\">").contains("<a class=\"database-link\" href=\"/hosts/sql01/MSSQLSERVER/Sales\">Sales</a> <span class=\"muted\">MSSQLSERVER</span>")
                .contains("full to UNC").contains("QAT_DEFLATE (HARDWARE): 6 (6 copy-only), 1 h 30 min, 412.3 MB/s, 65.0 % saved")
                .contains("<span class=\"tag good\">FASTER</span>")
                .contains("QAT_DEFLATE (HARDWARE) vs MS_XPRESS: speed gain +109.2 % (faster), size gain +2.8 % (smaller)");
        String sql02 = between(section, "<article class=\"host-compression\" data-host=\"sql02\">", "</article>");
        assertThat(sql02).contains("One algorithm per database and target: nothing compared.").contains("encryption: TDE")
                .contains("SINGLE_ALGORITHM").doesNotContain("Takes QAT_DEFLATE backups");
    }

    @Test
    void anEmptyCollectorSaysWhatToDoNext() {
        String empty = StatusPage.render(StatusFixture.of(Instant.parse("2026-11-30T06:30:00Z"), List.of(), List.of(), List.of(), null));
        assertThat(empty).contains("No alert is firing.").contains("No agent has reported yet.")
                .contains("qatwatch collector token add &lt;host&gt;").contains("No nightly backup window yet")
                .contains("No comparison yet")
                .doesNotContain("<svg");
    }

    @Test
    void durationsAndSizesReadLikeADbaWouldSayThem() {
        assertThat(Html.duration(45)).isEqualTo("45 s");
        assertThat(Html.duration(12 * 60)).isEqualTo("12 min");
        assertThat(Html.duration(2 * 3600 + 5 * 60)).isEqualTo("2 h 05 min");
        assertThat(Html.bytes(1536)).isEqualTo("1.5 KB");
        assertThat(Html.bytes(900)).isEqualTo("900 B");
    }

    private String article(String rule) {
        int at = html.indexOf("data-rule=\"" + rule + "\"");
        assertThat(at).as("alert %s on the page", rule).isPositive();
        return html.substring(html.lastIndexOf("<article", at), html.indexOf("</article>", at));
    }

    private List<String> svgs() {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<svg.*?</svg>", Pattern.DOTALL).matcher(html);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** Per bar: its classes, top y and height. */
    private static List<String[]> bars(String svg) {
        List<String[]> out = new ArrayList<>();
        Matcher m = BAR.matcher(svg);
        while (m.find()) {
            out.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
        return out;
    }

    private static double number(Pattern p, String s) {
        Matcher m = p.matcher(s);
        assertThat(m.find()).as(p.pattern()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static String between(String s, String from, String to) {
        int a = s.indexOf(from);
        assertThat(a).as(from).isNotNegative();
        return s.substring(a, s.indexOf(to, a));
    }

    @Test
    void anAgentThatLostReportsSaysSoInItsRowAndOneThatLostNoneSaysNothing() {
        StatusView.HostRow lossy = new StatusView.HostRow("sql09", "ok", null, List.of(), "GenuineIntel", null, null, List.of(),
                StatusFixture.NOW.minusSeconds(30), new StatusView.AgentLosses(36, 4, 0));
        String page = StatusPage.render(StatusFixture.of(StatusFixture.NOW, List.of(lossy), List.of(), List.of(), null));
        assertThat(page).contains("<span class=\"tag bad\"").contains(">lost 36 reports</span>")
                .contains(">dropped 4</span>").doesNotContain(">corrupt ");
        assertThat(html).as("the fixture's agents lost nothing").doesNotContain(">lost ").doesNotContain(">dropped ");
    }
}
