package io.qatwatch.collector.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Dashboard;
import io.qatwatch.collector.dashboards.GrafanaDashboards.PanelQuery;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Selection;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Variable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
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

    private Influxd influxd;
    private List<Dashboard> dashboards;

    @BeforeAll
    void startInfluxdWithTheScenario(@TempDir Path dir) throws Exception {
        assumeTrue(Influxd.installed(), "influxd is not installed: run ./run-tests, which installs Debian's influxdb package");
        dashboards = GrafanaDashboards.load();
        influxd = Influxd.start(dir);
        assertThat(influxd.query(DATABASE, "CREATE DATABASE " + DATABASE).toString()).doesNotContain("error");
        influxd.write(DATABASE, DashboardScenario.lineProtocol());
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

    private Stream<DynamicTest> panelTests(Selection selection, String onlyHost) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Dashboard d : dashboards) {
            Map<String, Variable> variables = d.variables();
            for (PanelQuery q : d.queries()) {
                tests.add(DynamicTest.dynamicTest(q.toString(), () -> {
                    String influxql = selection.expand(q.query(), q.interval(), variables);
                    JsonNode result = influxd.query(DATABASE, influxql).path("results").path(0);
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
        JsonNode result = influxd.query(DATABASE, influxql).path("results").path(0);
        assertThat(result.has("error")).as("%s $%s\n%s\n-> %s", d.file(), v.name(), influxql, result).isFalse();
        List<String> values = new ArrayList<>();
        for (JsonNode s : result.path("series")) {
            for (JsonNode row : s.path("values")) {
                values.add(row.get(1).asText());
            }
        }
        return values;
    }

    static String readResource(String name) throws java.io.IOException {
        return Files.readString(Path.of("src/test/resources/dashboards", name), StandardCharsets.UTF_8);
    }
}
