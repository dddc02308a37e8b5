package io.qatwatch.collector.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Dashboard;
import io.qatwatch.collector.dashboards.GrafanaDashboards.PanelQuery;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Selection;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Variable;
import io.qatwatch.collector.testing.Influxd;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every panel query and every template variable query of every dashboard, interpolated the way Grafana
 * does it, runs against a real influxd holding the points of the dashboard scenario, without an error and
 * with data; with one host picked, only that host's data comes back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardQueriesTest {

    private static final String DATABASE = "qatwatch";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Influxd influxd;
    private List<Dashboard> dashboards;

    @BeforeAll
    void startInfluxdWithTheScenario(@TempDir Path dir) throws Exception {
        assumeTrue(Influxd.installed(), "influxd is not installed: run ./run-tests, which installs Debian's influxdb package");
        dashboards = GrafanaDashboards.load();
        influxd = new Influxd(dir).start();
        assertThat(influxd.query(null, "CREATE DATABASE " + DATABASE)).doesNotContain("error");
        HttpResponse<String> written = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(influxd.url() + "/write?precision=ns&db=" + DATABASE))
                        .POST(HttpRequest.BodyPublishers.ofString(DashboardScenario.lineProtocol())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(written.statusCode()).as("influxd /write: %s", written.body()).isEqualTo(204);
    }

    private JsonNode query(String influxql) throws Exception {
        return JSON.readTree(influxd.query(DATABASE, influxql)).path("results").path(0);
    }

    @AfterAll
    void stopInfluxd() throws Exception {
        if (influxd != null) {
            influxd.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyPanelReturnsDataForTheWholeFleet() {
        return panelTests(DashboardScenario.wholeFleet(), null);
    }

    @TestFactory
    Stream<DynamicTest> everyPanelReturnsOnlyThePickedHost() {
        return panelTests(DashboardScenario.oneDatabase(), DashboardScenario.PICKED_HOST);
    }

    @TestFactory
    Stream<DynamicTest> everyVariableListsValues() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Dashboard d : dashboards) {
            Map<String, Variable> variables = d.variables();
            for (Variable v : variables.values()) {
                if (!"query".equals(v.type())) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(d.file() + " $" + v.name(), () -> {
                    List<String> all = values(d, v, DashboardScenario.wholeFleet());
                    assertThat(all).as("$%s with everything selected", v.name()).isNotEmpty();
                    List<String> narrowed = values(d, v, DashboardScenario.oneDatabase());
                    assertThat(narrowed).as("$%s under the picked group/host/instance", v.name()).isNotEmpty();
                    assertThat(all).containsAll(narrowed);
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> theHostVariableFollowsTheGroup() {
        return dashboards.stream().map(d -> DynamicTest.dynamicTest(d.file(), () -> {
            Variable host = d.variables().get("host");
            List<String> prod = values(d, host, new Selection(DashboardScenario.FROM, DashboardScenario.TO,
                    Map.of("group", List.of(DashboardScenario.PICKED_GROUP))));
            assertThat(prod).contains(DashboardScenario.PICKED_HOST).doesNotContain(DashboardScenario.UNGROUPED_HOST);
            assertThat(values(d, host, DashboardScenario.wholeFleet())).contains(DashboardScenario.UNGROUPED_HOST);
        }));
    }

    @Test
    void theLicencePanelCountsEachHostUnderItsVerdict() throws Exception {
        JsonNode series = panelResult("qat-licence.json", "Hosts by licence verdict", DashboardScenario.wholeFleet());
        Map<String, Integer> counts = new TreeMap<>();
        for (JsonNode s : series) {
            counts.put(s.path("tags").path("licence_verdict").asText(), s.path("values").path(0).path(1).asInt());
        }
        assertThat(counts).isEqualTo(Map.of("INTEL_QAT_HARDWARE", 1, "INTEL_COMPONENT_ONLY", 1, "INTEL_CPU", 1));
    }

    @Test
    void theAlertPanelSeesTheLatestStateOfEachAlertSoAResolvedOneIsNotFiring() throws Exception {
        JsonNode series = panelResult("backup-windows.json", "Backup window alerts", DashboardScenario.wholeFleet());
        Map<String, Integer> active = new TreeMap<>();
        for (JsonNode s : series) {
            active.put(s.path("tags").path("host").asText() + " " + s.path("tags").path("rule").asText(),
                    onlyRow(s, "active", "one row per alert").asInt());
        }
        assertThat(active).isEqualTo(Map.of("sql01 backup-window-creep", 1, "sql02 backup-window-breach", 0,
                "sql03 backup-window-spill-forecast", 1));
    }

    @Test
    void theVerdictPanelShowsTheLatestVerdictOfEachComparison() throws Exception {
        JsonNode series = panelResult("qat-licence.json", "Is QAT worth it? Compression verdicts per database",
                DashboardScenario.wholeFleet());
        Map<String, String> verdicts = new TreeMap<>();
        for (JsonNode s : series) {
            JsonNode t = s.path("tags");
            verdicts.put(t.path("host").asText() + " " + t.path("instance").asText() + " " + t.path("database").asText()
                    + " " + t.path("target").asText() + " " + t.path("algorithm").asText() + " vs " + t.path("baseline").asText(),
                    onlyRow(s, "verdict", "one row per comparison").asText());
        }
        assertThat(verdicts).as("sql01 switched Sales to QAT_DEFLATE, whose MB/s fell as the database grew")
                .containsEntry("sql01 MSSQLSERVER Sales UNC QAT_DEFLATE vs MS_XPRESS", "SLOWER")
                .containsEntry("sql01 MSSQLSERVER HR LOCAL MS_XPRESS vs MS_XPRESS", "SINGLE_ALGORITHM")
                .containsEntry("sql02 MSSQLSERVER Sales UNC QAT_DEFLATE vs QAT_DEFLATE (SOFTWARE)", "SINGLE_ALGORITHM");
    }

    @Test
    void theCpuPanelShowsQatHardwareAtAFractionOfMsXpressAndSoftwareModeAbove() throws Exception {
        JsonNode series = panelResult("backups.json", "CPU per GB by algorithm", DashboardScenario.wholeFleet());
        Map<String, Double> cpu = new TreeMap<>();
        for (JsonNode s : series) {
            double sum = 0;
            int n = 0;
            for (JsonNode row : s.path("values")) {
                if (!row.get(1).isNull()) {
                    sum += row.get(1).asDouble();
                    n++;
                }
            }
            cpu.put(s.path("tags").path("host").asText() + " " + s.path("tags").path("algorithm").asText(), sum / n);
        }
        assertThat(cpu).as("only Sales had CPU observed").containsOnlyKeys("sql01 MS_XPRESS", "sql01 QAT_DEFLATE",
                "sql02 QAT_DEFLATE", "sql03 MS_XPRESS");
        assertThat(cpu.get("sql01 QAT_DEFLATE") / cpu.get("sql01 MS_XPRESS")).as("Intel's 43 %").isCloseTo(0.43, within(0.01));
        assertThat(cpu.get("sql02 QAT_DEFLATE")).as("software mode").isGreaterThan(cpu.get("sql03 MS_XPRESS"));
    }

    @Test
    void theRestorePanelShowsTheMatchedRestoresSpeedByAlgorithmAndNothingForTheUnmatched() throws Exception {
        JsonNode series = panelResult("backups.json", "Restore MiB/s by algorithm and target", DashboardScenario.wholeFleet());
        Map<String, Double> mbps = new TreeMap<>();
        for (JsonNode s : series) {
            JsonNode t = s.path("tags");
            double max = 0;
            for (JsonNode row : s.path("values")) {
                max = Math.max(max, row.get(1).asDouble());
            }
            mbps.put(t.path("host").asText() + " " + t.path("algorithm").asText() + " " + t.path("target").asText(), max);
        }
        assertThat(mbps).as("sql01 restored MS_XPRESS fulls before its switch to QAT_DEFLATE; the RESTORE LOGs never matched")
                .containsOnlyKeys("sql01 MS_XPRESS UNC", "sql01 QAT_DEFLATE UNC", "sql02 QAT_DEFLATE UNC", "sql03 MS_XPRESS UNC");
        assertThat(mbps.get("sql01 QAT_DEFLATE UNC")).isCloseTo(800, within(1.0));
        assertThat(mbps.get("sql02 QAT_DEFLATE UNC")).as("software mode").isCloseTo(350, within(1.0));
        assertThat(mbps.get("sql03 MS_XPRESS UNC")).isCloseTo(500, within(1.0));
    }

    /** The value of {@code column} in a series that must hold exactly one row. */
    private static JsonNode onlyRow(JsonNode series, String column, String why) {
        assertThat(series.path("values").size()).as(why).isEqualTo(1);
        JsonNode columns = series.path("columns");
        for (int i = 0; i < columns.size(); i++) {
            if (column.equals(columns.get(i).asText())) {
                return series.path("values").path(0).get(i);
            }
        }
        throw new AssertionError("no column " + column + " in " + series);
    }

    private JsonNode panelResult(String file, String panel, Selection selection) throws Exception {
        Dashboard d = dashboards.stream().filter(x -> x.file().equals(file)).findFirst().orElseThrow();
        PanelQuery q = d.queries().stream().filter(x -> x.panel().equals(panel)).findFirst().orElseThrow();
        JsonNode result = query(selection.expand(q.query(), q.interval(), d.variables()));
        assertThat(result.has("error")).as("%s -> %s", q, result).isFalse();
        return result.path("series");
    }

    private Stream<DynamicTest> panelTests(Selection selection, String onlyHost) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Dashboard d : dashboards) {
            Map<String, Variable> variables = d.variables();
            for (PanelQuery q : d.queries()) {
                tests.add(DynamicTest.dynamicTest(q.toString(), () -> {
                    String influxql = selection.expand(q.query(), q.interval(), variables);
                    JsonNode result = query(influxql);
                    assertThat(result.has("error")).as("%s\n%s\n-> %s", q, influxql, result).isFalse();
                    JsonNode series = result.path("series");
                    assertThat(series.size()).as("series of %s\n%s", q, influxql).isPositive();
                    for (JsonNode s : series) {
                        assertThat(s.path("values").size()).as("rows of %s", q).isPositive();
                        if (onlyHost != null) {
                            assertThat(hostsIn(s)).as("hosts in %s", q).allMatch(onlyHost::equals);
                        }
                    }
                }));
            }
        }
        return tests.stream();
    }

    /** The host tag of a series, or the host column of its rows. */
    private static List<String> hostsIn(JsonNode series) {
        List<String> hosts = new ArrayList<>();
        if (series.path("tags").has("host")) {
            hosts.add(series.path("tags").path("host").asText());
        }
        JsonNode columns = series.path("columns");
        for (int i = 0; i < columns.size(); i++) {
            if ("host".equals(columns.get(i).asText())) {
                for (JsonNode row : series.path("values")) {
                    hosts.add(row.get(i).asText());
                }
            }
        }
        return hosts;
    }

    private List<String> values(Dashboard d, Variable v, Selection selection) throws Exception {
        String influxql = selection.expand(v.query(), "1h", d.variables());
        JsonNode result = query(influxql);
        assertThat(result.has("error")).as("%s $%s\n%s\n-> %s", d.file(), v.name(), influxql, result).isFalse();
        List<String> values = new ArrayList<>();
        for (JsonNode s : result.path("series")) {
            for (JsonNode row : s.path("values")) {
                values.add(row.get(1).asText());
            }
        }
        return values;
    }
}
