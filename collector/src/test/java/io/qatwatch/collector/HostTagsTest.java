package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.Loopback;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.testing.MovableClock;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host tags from the agents' reports, end to end: a host group matching a tag, channels routed by group and by tag,
 * a silence by tag, and the fleet API and status page filtered by tag.
 */
class HostTagsTest {

    /** Just after the golden report; the test moves it half an hour on, and every host's agent is silent then. */
    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-30T06:16:00Z"));

    @TempDir
    Path data;

    private final Vertx vertx = Vertx.vertx();
    private final Loopback chat = new Loopback();

    @AfterEach
    void stop() throws Exception {
        chat.stop().await(10, TimeUnit.SECONDS);
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void tagsPutHostsInGroupsRouteTheirAlertsToTheRightChannelAndFilterTheFleet() throws Exception {
        int port = chat.start(vertx).await(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + port;
        AlertsConfig alerts = new AlertsConfig(null, null,
                List.of(new HostGroupConfig("frankfurt", "default", null, null, List.of("site=fra"))), null, null, null,
                List.of(ChannelConfig.webhook("webhook", base + "/frankfurt-dbas").routedTo(List.of("frankfurt"), List.of()),
                        new ChannelConfig("webhook", "finance", base + "/finance", null, null, null, null, null, null, null,
                                null, null, null, null, null, null, null).routedTo(List.of(), List.of("team=fin*")),
                        new ChannelConfig("webhook", "everyone", base + "/everyone", null, null, null, null, null, null, null,
                                null, null, null, null, null, null, null)));
        CollectorConfig config = CollectorConfig.defaults().withAlerts(alerts);
        try (RunningCollector c = RunningCollector.withAlertStage(config, data, clock)) {
            String reader = c.token("grafana", Kind.READ);
            String operator = c.token("oncall", Kind.OPERATOR);
            Map<String, Map<String, String>> tags = Map.of(
                    "sql-a", Map.of("site", "fra", "env", "prod"),
                    "sql-b", Map.of("site", "ny", "team", "finance"),
                    "sql-c", Map.of("site", "ny", "env", "test"));
            for (var host : new TreeSet<>(tags.keySet())) {
                var report = TestReports.tagged(GoldenReports.complete(), "report-" + host + "-0000-4000-8000-000000000000",
                        tags.get(host));
                assertThat(c.postReport(c.token(host, Kind.AGENT), ReportJson.toBytes(report), false).statusCode()).isEqualTo(202);
            }
            var silence = c.request(HttpMethod.POST, "/api/v1/silences", operator).sendJsonObject(new JsonObject()
                    .put("tag", "env=test").put("rule", "agent-silent").put("comment", "test hosts sleep").put("minutes", 60))
                    .await(10, TimeUnit.SECONDS);
            assertThat(silence.statusCode()).as(silence.bodyAsString()).isEqualTo(201);
            clock.advance(java.time.Duration.ofMinutes(30));
            c.evaluate();
            // the evaluation hands its messages to the channels; wait for their deliveries, not for the evaluation
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && !(hostsHeardAt("/frankfurt-dbas").contains("sql-a")
                    && hostsHeardAt("/finance").contains("sql-b") && hostsHeardAt("/everyone").containsAll(Set.of("sql-a", "sql-b")))) {
                Thread.sleep(50);
            }

            assertThat(hostsHeardAt("/frankfurt-dbas")).containsExactly("sql-a");
            assertThat(hostsHeardAt("/finance")).containsExactly("sql-b");
            assertThat(hostsHeardAt("/everyone")).containsExactly("sql-a", "sql-b");
            assertThat(rulesHeardAt("/everyone", "sql-c")).as("the silence by tag mutes sql-c's agent-silent").isEmpty();
            assertThat(rulesHeardAt("/everyone", "sql-b")).containsExactly("agent-silent");

            JsonArray fleet = c.get("/api/v1/fleet", reader).bodyAsJsonArray();
            assertThat(fleet.getJsonObject(0).getJsonObject("tags").getMap()).isEqualTo(Map.of("site", "fra", "env", "prod"));
            assertThat(fleet.getJsonObject(0).getString("group")).as("the group matched by tag").isEqualTo("frankfurt");
            assertThat(hosts(c.get("/api/v1/fleet?tag=site%3Dny", reader).bodyAsJsonArray())).containsExactly("sql-b", "sql-c");
            assertThat(hosts(c.get("/api/v1/fleet?tag=team", reader).bodyAsJsonArray())).containsExactly("sql-b");
            assertThat(hosts(c.get("/api/v1/fleet?group=frankfurt", reader).bodyAsJsonArray())).containsExactly("sql-a");
            assertThat(c.get("/api/v1/fleet?tag=bad%2Ctag", reader).statusCode()).isEqualTo(400);
            assertThat(c.get("/api/v1/alerts?tag=env%3Dtest", reader).bodyAsJsonArray().stream()
                    .map(a -> ((JsonObject) a).getString("host")).distinct()).containsExactly("sql-c");

            String page = c.get("/?tag=site%3Dny", reader).bodyAsString();
            assertThat(page).contains("data-host=\"sql-b\"").contains("data-host=\"sql-c\"").doesNotContain("data-host=\"sql-a\"")
                    .contains("class=\"tag host-tag\" href=\"?tag=team%3Dfinance\">team=finance</a>");
        }
    }

    private Set<String> hostsHeardAt(String path) {
        Set<String> hosts = new TreeSet<>();
        chat.received.stream().filter(r -> r.path().equals(path)).forEach(r -> r.body().getJsonArray("alerts")
                .forEach(a -> hosts.add(((JsonObject) a).getString("host"))));
        return hosts;
    }

    private Set<String> rulesHeardAt(String path, String host) {
        Set<String> rules = new TreeSet<>();
        chat.received.stream().filter(r -> r.path().equals(path)).forEach(r -> r.body().getJsonArray("alerts").stream()
                .map(a -> (JsonObject) a).filter(a -> host.equals(a.getString("host"))).forEach(a -> rules.add(a.getString("rule"))));
        return rules;
    }

    private static List<String> hosts(JsonArray rows) {
        return rows.stream().map(r -> ((JsonObject) r).getString("host")).toList();
    }
}
