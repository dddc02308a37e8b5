package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qatwatch demo} started as the command starts it, then checked from outside: through the API with the read
 * token it prints, through the chat webhook, and in a real headless Chromium, every element the demo promises is there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path tmp;

    private Demo demo;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws Exception {
        demo = Demo.start(tmp.resolve("demo"), 0, Clock.systemUTC(), new PrintStream(printed, true, StandardCharsets.UTF_8));
        demo.evaluateNow();
    }

    @AfterAll
    void stop() throws Exception {
        if (demo != null) {
            demo.close();
        }
    }

    private String api(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(demo.statusPage() + path.substring(1)))
                .header("Authorization", "Bearer " + demo.readToken()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
        return r.body();
    }

    private Map<String, List<String>> rulesByHost() throws Exception {
        JsonArray alerts = new JsonArray(api("/api/v1/alerts"));
        return alerts.stream().map(JsonObject.class::cast).collect(Collectors.groupingBy(a -> a.getString("host"),
                Collectors.mapping(a -> a.getString("rule"), Collectors.toList())));
    }

    @Test
    void theAlertsApiHasTheCreepTheBreachTheSpillAndTheLicenceRisk() throws Exception {
        Map<String, List<String>> rules = rulesByHost();
        assertThat(rules.get("demo-sql-qat01")).as("%s", rules).contains("backup-window-creep").doesNotContain("backup-window-breach");
        assertThat(rules.get("demo-sql-ag02")).as("%s", rules).contains("backup-window-breach");
        assertThat(rules.get("demo-sql-amd01")).as("%s", rules).contains("backup-window-spill-forecast", "licence-risk");
        assertThat(rules.values().stream().flatMap(List::stream)).doesNotContain("backup-missing", "agent-silent");
    }

    @Test
    void theCpuTheAgentsMeasuredMakesQatHardwareCheaperAndQatSoftwareCostlier() throws Exception {
        Map<String, JsonObject> rows = new JsonArray(api("/api/v1/compression")).stream().map(JsonObject.class::cast)
                .collect(Collectors.toMap(r -> r.getString("host") + " " + r.getString("database") + " " + r.getString("target"),
                        r -> r));
        JsonObject archive = rows.get("demo-sql-qat01 Archive UNC");
        assertThat(archive.getString("verdict")).as("%s", archive).isEqualTo("CHEAPER");
        assertThat(archive.getDouble("cpuGainPercent")).as("Intel's 43 %% of the CPU").isCloseTo(57.0, within(0.5));
        JsonObject reports = rows.get("demo-sql-amd01 Reports LOCAL");
        assertThat(reports.getString("verdict")).as("%s", reports).isEqualTo("COSTLIER");
        assertThat(reports.getDouble("cpuGainPercent")).isCloseTo(-60.0, within(0.5));
        JsonObject salesDwQat = rows.get("demo-sql-qat01 SalesDW LOCAL").getJsonArray("algorithms").stream()
                .map(JsonObject.class::cast).filter(a -> "QAT_DEFLATE".equals(a.getString("algorithm"))).findFirst().orElseThrow();
        assertThat(salesDwQat.getInteger("restores")).as("the restore check the agent saw run: %s", salesDwQat).isEqualTo(1);
        assertThat(rulesByHost().get("demo-sql-amd01")).as("the software mode's cost, said").contains("qat-no-gain");
        assertThat(rulesByHost().get("demo-sql-qat01")).as("a CPU gain is a gain").doesNotContain("qat-no-gain");
    }

    @Test
    void theSimulatedServersAnswerEveryQueryTheAgentAsks() throws Exception {
        assertThat(demo.failedProbes()).as("a query the simulation does not answer (a new .sql file?)").isEmpty();
    }

    @Test
    void theCreepHasAForecastAndItsDriverInTheWindowsApi() throws Exception {
        JsonObject windows = new JsonObject(api("/api/v1/instances/demo-sql-qat01/PROD/windows"));
        String text = windows.encode();
        assertThat(text).contains("Sales").contains("forecast");
        JsonArray alerts = new JsonArray(api("/api/v1/alerts?host=demo-sql-qat01"));
        JsonObject creep = alerts.stream().map(JsonObject.class::cast)
                .filter(a -> a.getString("rule").equals("backup-window-creep")).findFirst().orElseThrow();
        assertThat(creep.encode()).contains("Sales").containsPattern("(?i)forecast");
    }

    @Test
    void theFleetApiHasTheQatHardwareHostTheSoftwareModeAmdHostAndTheAvailabilityGroup() throws Exception {
        Map<String, JsonObject> hosts = new JsonArray(api("/api/v1/fleet")).stream().map(JsonObject.class::cast)
                .collect(Collectors.toMap(h -> h.getString("host"), h -> h));
        assertThat(hosts).containsOnlyKeys("demo-sql-qat01", "demo-sql-amd01", "demo-sql-ag01", "demo-sql-ag02");
        JsonObject qat = hosts.get("demo-sql-qat01");
        assertThat(qat.getString("licenceVerdict")).isEqualTo("INTEL_QAT_HARDWARE");
        assertThat(qat.getInteger("qatDevices")).isEqualTo(2);
        assertThat(qat.getJsonArray("instances").getJsonObject(0).getString("acceleratorMode")).isEqualTo("HARDWARE");
        JsonObject amd = hosts.get("demo-sql-amd01");
        assertThat(amd.getString("cpuVendor")).isEqualTo("AuthenticAMD");
        assertThat(amd.getString("licenceVerdict")).isEqualTo("INTEL_COMPONENT_ONLY");
        assertThat(amd.getJsonArray("instances").getJsonObject(0).getString("acceleratorMode")).isEqualTo("SOFTWARE");
        assertThat(hosts.get("demo-sql-ag01").getJsonArray("instances").getJsonObject(0).getJsonArray("availabilityGroups"))
                .containsExactly("ag-orders PRIMARY");
        assertThat(hosts.get("demo-sql-ag02").getJsonArray("instances").getJsonObject(0).getJsonArray("availabilityGroups"))
                .containsExactly("ag-orders SECONDARY");
    }

    @Test
    void theAlertsReachTheLocalWebhookWhichPrintsThem() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (demo.webhook().received().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        List<String> rules = new ArrayList<>();
        demo.webhook().received().forEach(m -> m.getJsonArray("alerts").forEach(a -> rules.add(((JsonObject) a).getString("rule"))));
        assertThat(rules).contains("backup-window-creep", "backup-window-breach", "backup-window-spill-forecast");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("demo chat      critical backup-window-breach on demo-sql-ag02/PROD");
        assertThat(demo.welcome()).contains("read token    " + demo.readToken(), demo.statusPage(), "Everything in it is simulated",
                "chat          alerts are posted to http://127.0.0.1:");
    }

    /**
     * One delivery is one message, however many alerts it groups (docs/alerts.md: alerts with the same groupBy labels
     * travel in one message): the chat prints one {@code [FIRING n]} or {@code [RESOLVED]} head line per message, and
     * their count is what /metrics says the channel accepted. At least one message groups several alerts, so a line
     * per alert would not agree.
     */
    @Test
    void theChatPrintsOneHeadLinePerDeliveryAndMetricsCountTheSame() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long heads = -1;
        long delivered = -2;
        while (System.nanoTime() < deadline) {
            delivered = sentToDemoChat();
            heads = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("demo chat  [")).count();
            if (heads > 0 && heads == delivered && heads == demo.webhook().received().size()) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(heads).as("head lines printed vs qatwatch_notifications_sent_total").isEqualTo(delivered).isPositive();
        assertThat(demo.webhook().received()).anySatisfy(m -> assertThat(m.getJsonArray("alerts").size()).isGreaterThan(1));
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("demo chat")).toList();
        long alertLines = lines.stream().filter(l -> l.startsWith("demo chat      ")).count();
        long alertsSent = demo.webhook().received().stream().mapToLong(m -> m.getJsonArray("alerts").size()).sum();
        assertThat(alertLines).as("one indented line per alert under its message").isEqualTo(alertsSent);
        assertThat(lines).filteredOn(l -> l.contains("[FIRING")).allSatisfy(l -> assertThat(l).matches("demo chat  \\[FIRING \\d+(, resolved \\d+)?\\] .+"));
    }

    private long sentToDemoChat() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(demo.statusPage() + "metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.body().lines().filter(l -> l.startsWith("qatwatch_notifications_sent_total{channel=\"demo-chat\"}"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void inChromiumThePageShowsEveryElementAndSaysItIsADemo() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed: run ./run-tests, which installs Debian's chromium package");
        String dom = chromium(demo.statusPage());
        assertThat(dom).contains("id=\"notice\">" + Demo.NOTICE + "</p>");
        assertThat(dom).contains("data-rule=\"backup-window-creep\"", "data-rule=\"backup-window-breach\"",
                "data-rule=\"backup-window-spill-forecast\"", "data-rule=\"licence-risk\"");
        assertThat(dom).contains(">INTEL_QAT_HARDWARE</span>", ">INTEL_COMPONENT_ONLY</span>", "QAT HARDWARE", "QAT SOFTWARE",
                "AG ag-orders SECONDARY", "AG ag-orders PRIMARY");
        assertThat(dom).contains("<svg class=\"windows compact\"", "<circle class=\"forecast\"");
        String compression = dom.substring(dom.indexOf("<section id=\"compression\">"));
        assertThat(compression).containsPattern("data-host=\"demo-sql-qat01\">.*?SalesDW</a> <span class=\"muted\">PROD</span>"
                        + ".*?MS_XPRESS: \\d+, 8 min 19\\.6 s.*?QAT_DEFLATE \\(HARDWARE\\): \\d+, 3 min 58\\.6 s.*?>FASTER</span>")
                .containsPattern("Archive</a> <span class=\"muted\">PROD</span>.*?MS_XPRESS: \\d+ \\(3 copy-only\\), 19 min.*?"
                        + "QAT_DEFLATE \\(HARDWARE\\): \\d+ \\(3 copy-only\\), 18 min.*?>CHEAPER</span>");
        assertThat(dom.substring(dom.indexOf("<table class=\"cards\" id=\"compression-fleet\">")).split("</table>")[0])
                .as("the fleet table counts the CPU verdicts, in words").contains(">as fast, cheaper in CPU</th>",
                        ">no gain, costlier in CPU</th>", "data-label=\"as fast, cheaper in CPU\">1</td>",
                        "data-label=\"no gain, costlier in CPU\">1</td>");
        assertThat(dom).doesNotContain("<script");
    }

    private String chromium(String url) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(tmp.resolve("chromium-profile"));
        List<String> command = List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,4000", "--dump-dom", url);
        Path log = tmp.resolve("chromium.log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished within 60 s").isTrue();
        assertThat(p.exitValue()).as("chromium exit; stderr: %s", Files.readString(log)).isZero();
        return out;
    }
}
