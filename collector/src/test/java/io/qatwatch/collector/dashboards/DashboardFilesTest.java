package io.qatwatch.collector.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Dashboard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The dashboard files parse, use only the provisioned datasource, and are documented in the README. */
class DashboardFilesTest {

    private static final String DATASOURCE_UID = "qatwatch-influxdb";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final List<Dashboard> dashboards = GrafanaDashboards.load();

    @Test
    void theFourDashboardsParseWithUniqueUids() {
        assertThat(dashboards).extracting(Dashboard::file)
                .containsExactly("agents.json", "backup-windows.json", "backups.json", "qat-licence.json");
        assertThat(dashboards).extracting(Dashboard::uid).doesNotHaveDuplicates().allMatch(u -> u.startsWith("qatwatch-"));
        for (Dashboard d : dashboards) {
            assertThat(d.json().path("schemaVersion").asInt()).as(d.file()).isEqualTo(39);
            assertThat(d.json().path("title").asText()).as(d.file()).startsWith("qatwatch: ");
        }
    }

    @Test
    void everyDatasourceReferenceIsTheProvisionedOne() {
        for (Dashboard d : dashboards) {
            List<JsonNode> references = new ArrayList<>();
            collect(d.json(), references);
            assertThat(references).as(d.file()).isNotEmpty();
            for (JsonNode ds : references) {
                boolean grafanaAnnotations = "grafana".equals(ds.path("type").asText());
                if (!grafanaAnnotations) {
                    assertThat(ds.path("type").asText()).as("%s: %s", d.file(), ds).isEqualTo("influxdb");
                    assertThat(ds.path("uid").asText()).as("%s: %s", d.file(), ds).isEqualTo(DATASOURCE_UID);
                }
            }
        }
    }

    @Test
    void everyPanelHasAPlaceAndRawInfluxqlTargets() {
        for (Dashboard d : dashboards) {
            Set<Integer> ids = new HashSet<>();
            for (JsonNode p : d.panels()) {
                String title = d.file() + " / " + p.path("title").asText();
                assertThat(ids.add(p.path("id").asInt())).as("unique id of %s", title).isTrue();
                assertThat(p.path("gridPos").path("w").asInt()).as(title).isBetween(1, 24);
                assertThat(p.path("description").asText()).as("description of %s", title).isNotBlank();
                assertThat(p.path("targets").size()).as("targets of %s", title).isPositive();
                for (JsonNode t : p.path("targets")) {
                    assertThat(t.path("rawQuery").asBoolean()).as(title).isTrue();
                    assertThat(t.path("query").asText()).as(title).startsWith("SELECT ").contains("$timeFilter");
                }
            }
        }
    }

    @Test
    void queriesUseOnlyInfluxqlThatInfluxdb3Supports() {
        // docs.influxdata.com, InfluxDB 3 "InfluxQL feature support": these are not implemented there
        Pattern unsupported = Pattern.compile("(?i)\\b(SLIMIT|SOFFSET|SHOW SERIES|CARDINALITY|INTEGRAL|SAMPLE|HOLT_WINTERS\\w*|"
                + "EXPONENTIAL_MOVING_AVERAGE|CHANDE_MOMENTUM_OSCILLATOR|KAUFMANS_\\w+|RELATIVE_STRENGTH_INDEX|TRIPLE_\\w+)\\b");
        for (Dashboard d : dashboards) {
            List<String> queries = new ArrayList<>(d.queries().stream().map(GrafanaDashboards.PanelQuery::query).toList());
            d.variables().values().forEach(v -> queries.add(v.query()));
            assertThat(queries).as(d.file()).noneMatch(q -> unsupported.matcher(q).find());
        }
    }

    @Test
    void theProvisioningPinsTheDatasourceUidAndLoadsAFolder() throws Exception {
        JsonNode datasources = YAML.readTree(GrafanaDashboards.DIR.resolve("provisioning/datasources/qatwatch-influxdb.yaml").toFile());
        assertThat(datasources.path("apiVersion").asInt()).isEqualTo(1);
        JsonNode ds = datasources.path("datasources").path(0);
        assertThat(ds.path("uid").asText()).isEqualTo(DATASOURCE_UID);
        assertThat(ds.path("type").asText()).isEqualTo("influxdb");
        assertThat(ds.path("jsonData").path("dbName").asText()).isEqualTo("qatwatch");

        JsonNode providers = YAML.readTree(GrafanaDashboards.DIR.resolve("provisioning/dashboards/qatwatch.yaml").toFile());
        JsonNode provider = providers.path("providers").path(0);
        assertThat(provider.path("type").asText()).isEqualTo("file");
        assertThat(provider.path("folder").asText()).isEqualTo("qatwatch");
        assertThat(provider.path("options").path("path").asText()).isNotBlank();
    }

    @Test
    void theComposeProvisioningPointsAtTheSameDatasourceAndThisFolder() throws Exception {
        Path compose = Path.of("..", "install", "collector");
        JsonNode ds = YAML.readTree(compose.resolve("grafana/datasource.yaml").toFile()).path("datasources").path(0);
        assertThat(ds.path("uid").asText()).isEqualTo(DATASOURCE_UID);
        assertThat(ds.path("jsonData").path("dbName").asText()).isEqualTo("qatwatch");
        String provider = YAML.readTree(compose.resolve("grafana/dashboards.yaml").toFile())
                .path("providers").path(0).path("options").path("path").asText();
        assertThat(Files.readString(compose.resolve("compose.yaml"))).contains("../../dashboards:" + provider + ":ro");
    }

    @Test
    void theReadmeSaysWhatEveryPanelAnswers() throws Exception {
        String readme = Files.readString(GrafanaDashboards.DIR.resolve("README.md"));
        for (Dashboard d : dashboards) {
            assertThat(readme).as("README section for %s", d.file()).contains(d.json().path("title").asText());
            for (JsonNode p : d.panels()) {
                String title = p.path("title").asText().replace(" ($host)", "");
                assertThat(readme).as("README line for panel %s of %s", title, d.file()).contains(title);
            }
        }
    }

    private static void collect(JsonNode node, List<JsonNode> references) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if ("datasource".equals(e.getKey())) {
                    references.add(e.getValue());
                } else {
                    collect(e.getValue(), references);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, references));
        }
    }
}
