package io.qatwatch.collector.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Dashboard;
import io.qatwatch.collector.dashboards.GrafanaDashboards.PanelQuery;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Selection;
import io.qatwatch.collector.influx.InfluxConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Influxd;
import io.qatwatch.collector.testing.RunningCollector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet fixture {@code fleets/weekly-fulls-nightly-diffs}: one instance with a weekly full on Sunday night and
 * differentials on the weekday nights, both creeping. Its agent report goes through a collector with its alert
 * stage writing to a real influxd, and the backup-window dashboard's own queries read back a trend of each kind
 * of night and both creep alerts (one per kind: same host, instance, rule and severity). The panels' answers are
 * compared with the golden file next to the fixture; regenerate it on purpose with
 * {@code -Dqatwatch.regenerateGolden=true} and review the diff.
 */
class FullAndDifferentialNightsTest {

    static final Path FLEET = Path.of("src/test/resources/fleets/weekly-fulls-nightly-diffs");
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC);
    static final List<String> PANELS = List.of("Creep slope over time", "Creep forecast", "Backup window alerts");
    static final boolean REGENERATE = Boolean.getBoolean("qatwatch.regenerateGolden");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void bothKindsOfNightKeepTheirTrendAndTheirCreepAlertOnTheDashboard() throws Exception {
        assertThat(Influxd.installed()).as("influxd from Debian's influxdb package (./run-tests installs it)").isTrue();
        Dashboard dashboard = GrafanaDashboards.load().stream().filter(d -> d.file().equals("backup-windows.json"))
                .findFirst().orElseThrow();
        try (Influxd influxd = new Influxd(dir.resolve("influxd")).start()) {
            assertThat(influxd.query(null, "CREATE DATABASE qatwatch")).doesNotContain("error");
            InfluxConfig influx = new InfluxConfig(influxd.url(), "v1", null, null, null, "qatwatch", null, null, null,
                    5000, 100, 16L * 1024 * 1024, 1, 5);
            try (RunningCollector collector = RunningCollector.withAlertStage(CollectorConfig.defaults().withInflux(influx),
                    dir.resolve("collector"), CLOCK)) {
                String token = collector.token("sql05", TokenStore.Kind.AGENT);
                assertThat(collector.postReport(token, Files.readAllBytes(FLEET.resolve("sql05.json")), false).statusCode())
                        .isEqualTo(202);
                collector.evaluate();

                Map<String, JsonNode> panels = awaitPanels(influxd, dashboard);
                assertThat(tagValues(panels.get("Creep slope over time"), "kind")).containsExactly("differential", "full");
                assertThat(tagValues(panels.get("Creep forecast"), "kind")).containsExactly("differential", "full");
                JsonNode alerts = panels.get("Backup window alerts");
                assertThat(tagValues(alerts, "rule")).containsOnly("backup-window-creep");
                assertThat(tagValues(alerts, "subject")).containsExactly("differential", "full");
                assertThat(tagValues(alerts, "alert_id")).doesNotHaveDuplicates().hasSize(2);
                assertThat(column(alerts, "active")).containsOnly("1");
                compareWithGolden(panels);
            }
        }
    }

    /** The panels' answers once both trends and both alerts are in influxd (the sink writes in the background). */
    private Map<String, JsonNode> awaitPanels(Influxd influxd, Dashboard dashboard) throws Exception {
        Selection everything = new Selection(CLOCK.instant().minus(Duration.ofDays(30)), CLOCK.instant().plus(Duration.ofDays(1)),
                Map.of());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<String, JsonNode> panels = new TreeMap<>();
        while (true) {
            for (String title : PANELS) {
                PanelQuery q = dashboard.queries().stream().filter(x -> x.panel().equals(title)).findFirst().orElseThrow();
                JsonNode result = JSON.readTree(influxd.query("qatwatch",
                        everything.expand(q.query(), q.interval(), dashboard.variables()))).path("results").path(0);
                assertThat(result.has("error")).as("%s -> %s", q, result).isFalse();
                panels.put(title, result.path("series"));
            }
            if (panels.values().stream().allMatch(s -> s.size() >= 2) || System.nanoTime() > deadline) {
                return panels;
            }
            Thread.sleep(100);
        }
    }

    /** The value of {@code tag} in each series, sorted. */
    private static List<String> tagValues(JsonNode series, String tag) {
        List<String> values = new ArrayList<>();
        series.forEach(s -> values.add(s.path("tags").path(tag).asText()));
        return values.stream().sorted().toList();
    }

    /** Every row's value of {@code name}, as text. */
    private static List<String> column(JsonNode series, String name) {
        List<String> values = new ArrayList<>();
        for (JsonNode s : series) {
            int at = -1;
            for (int i = 0; i < s.path("columns").size(); i++) {
                at = name.equals(s.path("columns").get(i).asText()) ? i : at;
            }
            for (JsonNode row : s.path("values")) {
                values.add(row.path(at).asText());
            }
        }
        return values;
    }

    /** The panels' series sorted by their tags, pretty-printed, against {@code dashboards.golden.json}. */
    private static void compareWithGolden(Map<String, JsonNode> panels) throws Exception {
        ObjectNode answers = JSON.createObjectNode();
        panels.forEach((title, series) -> {
            List<JsonNode> sorted = new ArrayList<>();
            series.forEach(sorted::add);
            sorted.sort((a, b) -> a.path("tags").toString().compareTo(b.path("tags").toString()));
            ArrayNode array = answers.putArray(title);
            sorted.forEach(array::add);
        });
        String actual = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(answers) + "\n";
        Path golden = FLEET.resolve("dashboards.golden.json");
        if (REGENERATE || !Files.exists(golden)) {
            Files.writeString(golden, actual);
            assertThat(REGENERATE).as("golden file %s was missing and has been written; review and commit it", golden)
                    .isTrue();
        }
        assertThat(actual).as("panels differ from %s (regenerate with -Dqatwatch.regenerateGolden=true)", golden)
                .isEqualTo(Files.readString(golden));
    }
}
