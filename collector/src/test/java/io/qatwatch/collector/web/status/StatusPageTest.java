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

    private static final Pattern BAR = Pattern.compile("<rect class=\"bar ([a-z ]+)\" x=\"[-\\d.]+\" y=\"([-\\d.]+)\" width=\"[-\\d.]+\" height=\"([-\\d.]+)\"/?>");
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
    void eachInstanceHasACompactChartOfItsThirtyNightsOnTheFleetPageAndAFullOneOnItsHostPage() {
        List<String> compact = svgs();
        assertThat(compact).hasSize(2);
        for (String svg : compact) {
            assertThat(svg).startsWith("<svg class=\"windows compact\"").contains("data-nights=\"30\"").contains("class=\"band\"")
                    .doesNotContain("<title>Night before").doesNotContain(">business hours</text>");
            assertThat(bars(svg)).hasSize(30);
        }
        assertThat(compact.get(0)).contains("<title>Backup windows of sql01 / MSSQLSERVER, last 30 nights: ")
                .contains(" under the safety margin, 1 into business hours. Last: Night before ");
        assertThat(compact.get(1)).as("its last night still runs: the title says so, as the full chart's tooltip does")
                .containsPattern("<title>Backup windows of sql02 / MSSQLSERVER, last 30 nights: [^<]* Last: Night before [^<]*"
                        + "\\(still running\\)");
        assertThat(html).contains("<a href=\"/hosts/sql01#instance-MSSQLSERVER\">Full chart of sql01 / MSSQLSERVER</a>")
                .contains("<ul class=\"legend section-legend\" aria-label=\"Legend of the backup windows charts below\">");
        for (String svg : fullCharts()) {
            assertThat(svg).startsWith("<svg class=\"windows\"").contains("data-nights=\"30\"").contains("class=\"band\"")
                    .contains(">business hours</text>");
            assertThat(bars(svg)).hasSize(30);
            assertThat(svg.split("<title>Night before ", -1)).as("a tooltip per night").hasSizeGreaterThan(30);
        }
    }

    @Test
    void theBreachedNightIsRedAndReachesIntoTheBusinessHoursBand() {
        for (String creeping : List.of(svgs().get(0), fullCharts().get(0))) {
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
    }

    @Test
    void theCreepingInstanceShowsItsForecastAndTheSteadyOneDoesNot() {
        List<String> compact = svgs();
        List<String> full = fullCharts();
        for (List<String> charts : List.of(compact, full)) {
            assertThat(charts.get(0)).contains("class=\"projection\"").contains("<circle class=\"forecast\"");
            assertThat(charts.get(1)).contains("class=\"fit\"").doesNotContain("class=\"projection\"").doesNotContain("<circle");
            assertThat(bars(charts.get(1))).filteredOn(b -> b[0].contains("running")).hasSize(1);
        }
        assertThat(full.get(0)).contains(">5 Dec</text>");
        assertThat(html).contains("The margin shrinks by 9 min per day over the last 30 differential nights")
                .contains("Projected under the 30 min safety margin on Sat 5 Dec 2026 (in 5 days).")
                .contains("The margin is steady or growing");
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
                .contains("<li data-verdict=\"FASTER\"><span class=\"count\">1</span> <span class=\"tag good\">FASTER</span> "
                        + "<span class=\"muted\">faster</span></li>")
                .contains("Takes QAT_DEFLATE backups, <a href=\"#restore-burden\">restorable on the hosts named above</a>.")
                .contains("<tr data-verdict=\"FASTER\">").contains("<a class=\"database-link\" href=\"/hosts/sql01/MSSQLSERVER/Sales\">Sales</a> <span class=\"muted\">MSSQLSERVER</span>")
                .contains("full to UNC").contains("QAT_DEFLATE (HARDWARE): 6 (6 copy-only), 1 h 30 min, 412.3 MB/s, 65.0 % saved")
                .contains("<span class=\"tag good\">FASTER</span>")
                .contains("QAT_DEFLATE (HARDWARE) vs MS_XPRESS: speed gain +109.2 % (faster), size gain +2.8 % (smaller)")
                .doesNotContain("class=\"all-rows\"");
        assertThat(section).as("a host that compared nothing and takes no QAT_DEFLATE backup is named in one line")
                .doesNotContain("data-host=\"sql02\"")
                .contains("<p class=\"nothing-compared\" id=\"compression-nothing-compared\">Nothing compared on 1 host of this "
                        + "page (each database went to each target with one algorithm only): "
                        + "<a class=\"host-link\" href=\"/hosts/sql02\">sql02</a>.</p>");
        StringBuilder hostPage = new StringBuilder();
        CompressionSection.host(hostPage, new StatusView.HostCompression("sql02", null, false, List.of(StatusFixture.hr())),
                "restorable on 1 of 3", false);
        assertThat(hostPage.toString()).as("sql02's page has its row").contains("One algorithm per database and target: nothing "
                + "compared in its 1 row.").contains("encryption: TDE").contains("SINGLE_ALGORITHM").doesNotContain("Takes QAT_DEFLATE backups");
    }

    /**
     * At 20 databases a host had some 33 rows of one algorithm only, which compare nothing: the fleet page counts them
     * and lists the rows that compare, and links to the host's page for all of them.
     */
    @Test
    void theFleetPageListsOnlyTheRowsThatCompareAndCountsTheRest() {
        StatusView.HostCompression sql01 = StatusFixture.view().compression().hosts().get(0);
        StatusView.CompressionRow single = StatusFixture.hr();
        StatusView.HostCompression mixed = new StatusView.HostCompression("sql01", sql01.summary(), false,
                sql01.rows(), StatusView.HostCompression.verdictCounts(List.of(sql01.rows().get(0), single, single)));
        String page = StatusPage.render(StatusFixture.of(StatusFixture.NOW, StatusFixture.fleet(), List.of(), List.of(),
                new StatusView.Compression(List.of(), "restorable on 0 of 3 probed hosts", List.of(mixed))));
        String card = between(page, "<article class=\"host-compression\" data-host=\"sql01\">", "</article>");
        assertThat(card).contains("<li data-verdict=\"SINGLE_ALGORITHM\"><span class=\"count\">2</span>")
                .contains("<p class=\"all-rows\"><a href=\"/hosts/sql01#compression\">All 3 rows of sql01</a> <span class=\"muted\">"
                        + "(2 rows of one algorithm only not listed here)</span></p>");
        assertThat(card.split("<tr data-verdict=", -1)).as("the one row that compares").hasSize(2);
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

    /** The fleet page's charts. */
    private List<String> svgs() {
        return svgs(html);
    }

    /** The host page's charts of the fixture's instances. */
    private static List<String> fullCharts() {
        StringBuilder host = new StringBuilder();
        int i = 0;
        for (StatusView.InstanceWindows w : StatusFixture.view().windows()) {
            WindowsSection.chart(host, w, ++i);
        }
        return svgs(host.toString());
    }

    private static List<String> svgs(String html) {
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
