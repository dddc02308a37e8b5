package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The database page's chart and sections, the grouped alert card and the forms an operator session gets (issue 32),
 * rendered from views built here; the flow in a real browser is the demo's StatusPageFlowTest.
 */
class DrillDownPagesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
    private static final StatusPage.Chrome OPERATOR = new StatusPage.Chrome(null, "oncall", "t0ken", true);
    private static final StatusPage.Chrome READER = new StatusPage.Chrome(null, "grafana", "t0ken", false);

    /** 20 nightly fulls of Sales: MS_XPRESS to disk, then from the 11th QAT_DEFLATE, then to URL from the 16th. */
    private static List<BackupRecord> sales() {
        List<BackupRecord> out = new ArrayList<>();
        for (int n = 20; n >= 1; n--) {
            Instant start = NOW.minus(Duration.ofDays(n)).minus(Duration.ofHours(7));
            boolean qat = n <= 10;
            boolean url = n <= 5;
            long seconds = qat ? 1800 : 3600;
            long size = 400L << 30;
            out.add(new BackupRecord(100 - n, "Sales", "guid-sales", "D", false, start, start.plusSeconds(seconds), true, size,
                    size / 3, qat ? "QAT_DEFLATE" : "MS_XPRESS", true, "NO_Encryption", null, null, url ? "URL" : "DISK",
                    url ? "URL" : "LOCAL"));
        }
        return out;
    }

    @Test
    void theDatabasePageChartsDurationSizeAndThroughputWithTheAlgorithmMarkedAndItsChangesAnnotated() {
        DatabaseView v = new DatabaseView(NOW, "sql01", "MSSQLSERVER", "Sales",
                List.of(new StatusView.Fact("Recovery model", "FULL")), sales(), 30, ZoneOffset.UTC, List.of(), null, List.of(),
                List.of(), null);
        String html = DatabasePage.render(v, READER);
        assertThat(html).contains("<h1 class=\"page-title\">Sales", "<a class=\"host-link\" href=\"/hosts/sql01\">sql01</a>")
                .contains(">Duration (min)</text>", ">Size (GB)</text>", ">Throughput (MB/s)</text>")
                .contains("data-algorithm=\"MS_XPRESS\"><circle", "data-algorithm=\"QAT_DEFLATE\"><path")
                .contains("MS_XPRESS \u2192 QAT_DEFLATE", "to LOCAL \u2192 URL")
                .contains("QAT_DEFLATE <span class=\"muted\">(triangle)</span>", "MS_XPRESS <span class=\"muted\">(circle)</span>")
                .contains("CPU per GB: not measured yet", "id=\"restore-estimate\"")
                .contains("<p class=\"muted\" id=\"restore-plan\">Not worked out: no replica holds a full backup with LSNs")
                .contains("None in the lookback period: no host of the fleet restored its backups.")
                .doesNotContain("<script");
        assertThat(html.split("class=\"point\"", -1)).as("20 backups in each of the 3 panels").hasSize(61);
        assertThat(BackupChart.changes(sales())).extracting(BackupChart.Change::what)
                .containsExactly("MS_XPRESS \u2192 QAT_DEFLATE", "to LOCAL \u2192 URL");
    }

    private static StatusView.ActiveAlert risk(String id, String database) {
        return new StatusView.ActiveAlert(id, "qat-restore-risk", "warning", "demo-sql-amd01", "MSSQLSERVER", database,
                "QAT_DEFLATE backups of " + database + " cannot be restored on 2 hosts", "Restoring needs the QAT driver.",
                List.of(), NOW.minusSeconds(600));
    }

    @Test
    void alertsOfOneRuleOnOneHostShareACardAndAnOperatorGetsTheFormsAReaderDoesNot() {
        List<StatusView.ActiveAlert> alerts = List.of(risk("a1", "Sales"), risk("a2", "Hr"), risk("a3", "Dw"),
                new StatusView.ActiveAlert("b1", "backup-window-breach", "critical", "demo-sql-ag02", "MSSQLSERVER", null,
                        "Last night ran into business hours", "35 min into business hours.", List.of(), NOW));
        StringBuilder operator = new StringBuilder();
        AlertCards.cards(operator, alerts, NOW, OPERATOR, "/hosts/demo-sql-amd01");
        assertThat(operator.toString())
                .contains("data-rule=\"qat-restore-risk\" data-alerts=\"3\"")
                .contains("3 qat-restore-risk alerts on demo-sql-amd01, for 3 databases: Sales, Hr, Dw")
                .contains("id=\"alert-a1\"", "id=\"alert-a2\"", "id=\"alert-a3\"", "id=\"alert-b1\"")
                .contains("<form class=\"act ack\" method=\"post\" action=\"/alerts/a1/acknowledge\"><input type=\"hidden\" "
                        + "name=\"csrf\" value=\"t0ken\"><input type=\"hidden\" name=\"back\" value=\"/hosts/demo-sql-amd01#alert-a1\">")
                .contains("action=\"/alerts/a2/notes\"", "<form class=\"act silence\" method=\"post\" action=\"/silences\">")
                .contains("<input name=\"rule\" value=\"qat-restore-risk\"", "<input name=\"database\" value=\"Hr\"");
        StringBuilder reader = new StringBuilder();
        AlertCards.cards(reader, alerts, NOW, READER, "/");
        assertThat(reader.toString()).doesNotContain("<form", "details class=\"act\"").contains("data-alerts=\"3\"");
    }

    @Test
    void anInstanceWithoutWindowsSaysWhyAndNoTrendSaysWhatItHas() {
        StatusView.InstanceWindows primary = new StatusView.InstanceWindows("demo-sql-ag01", "MSSQLSERVER", ZoneOffset.UTC, 30,
                List.of(), null, List.of(), "No nightly window here: its databases are in availability group ag-orders.");
        StringBuilder fleet = new StringBuilder();
        WindowsSection.windows(fleet, StatusFixture.of(NOW, List.of(), List.of(), List.of(primary), null));
        StringBuilder host = new StringBuilder();
        WindowsSection.chart(host, primary, 1);
        for (StringBuilder html : List.of(fleet, host)) {
            assertThat(html.toString()).contains("No nightly window here: its databases are in availability group ag-orders.")
                    .doesNotContain("Too few comparable nights").doesNotContain("<svg");
        }
        StatusView.InstanceWindows few = StatusFixture.steady();
        few = new StatusView.InstanceWindows(few.host(), few.instance(), few.zone(), 30, few.nights().subList(0, 3), null);
        assertThat(WindowsSection.trendText(few)).isEqualTo("No trend yet: a trend compares nights of one kind "
                + "(alerts.rules.backupWindowCreep.minNights, 7 by default), and the last 3 nights have 3 full and 0 differential.");
    }

    @Test
    void theHostPageListsItsAlertsResolvedInTheLastWeekWithHowLongTheyFired() {
        StatusView.HostRow row = StatusFixture.fleet().get(0);
        List<List<HostView.DatabaseRef>> databases = new ArrayList<>();
        row.instances().forEach(i -> databases.add(List.of()));
        HostView.ResolvedAlert spill = new HostView.ResolvedAlert("backup-window-spill-forecast", "warning",
                row.instances().get(0).name(), "Warehouse", "The Warehouse full is predicted to end at 07:40",
                NOW.minus(Duration.ofHours(5)), NOW.minus(Duration.ofHours(3)));
        String html = HostPage.render(new HostView(NOW, row, List.of(), databases, List.of(), List.of(spill), List.of(), null,
                List.of()), READER);
        assertThat(html).contains("<section id=\"recent-alerts\"><h2>Resolved in the last 7 days</h2>")
                .contains("<tr data-rule=\"backup-window-spill-forecast\"><td data-label=\"Resolved\"><time datetime=\"2026-11-30T05:00:00Z\">")
                .contains("The Warehouse full is predicted to end at 07:40", "<td class=\"num\" data-label=\"Fired for\">2 h 00 min</td>")
                .contains("href=\"/hosts/" + row.host() + "/" + row.instances().get(0).name() + "/Warehouse\"");
        String none = HostPage.render(new HostView(NOW, row, List.of(), databases, List.of(), List.of(), List.of(), null,
                List.of()), READER);
        assertThat(none).contains("No alert on this host resolved in the last 7 days.");
    }

    @Test
    void aSilenceListedForAnOperatorCanBeEnded() {
        HostView.SilenceRow s = new HostView.SilenceRow("s1", "qat-restore-risk", "demo-sql-amd01", null, null, null, null,
                "restores tested on qat01 only", "oncall", NOW.plusSeconds(3600));
        StringBuilder html = new StringBuilder();
        SilencesSection.silences(html, List.of(s), OPERATOR, "/");
        assertThat(html.toString()).contains("<code>rule=qat-restore-risk host=demo-sql-amd01</code>")
                .contains("<form class=\"act unsilence\" method=\"post\" action=\"/silences/s1/end\">");
        StringBuilder read = new StringBuilder();
        SilencesSection.silences(read, List.of(s), READER, "/");
        assertThat(read.toString()).doesNotContain("<form").contains("restores tested on qat01 only");
    }
}
