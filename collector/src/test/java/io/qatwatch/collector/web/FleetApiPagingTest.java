package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.GroupedFleet;
import io.qatwatch.collector.testing.OnGroupedFleet;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code GET /api/v1/fleet} and {@code /api/v1/alerts} of a real collector with its alert stage: paging and filters. */
class FleetApiPagingTest extends OnGroupedFleet {

    private static final Pattern NEXT = Pattern.compile("<([^>]+)>; rel=\"next\"");

    @Test
    void withoutParametersEveryHostOfASmallFleetComesInOneAnswerWithItsGroupAndState() throws Exception {
        HttpResponse<Buffer> all = get("/api/v1/fleet");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.getHeader("Link")).as("no next page").isNull();
        JsonArray rows = all.bodyAsJsonArray();
        assertThat(hosts(rows)).containsExactlyElementsOf(GroupedFleet.all());
        JsonObject london = rows.getJsonObject(5);
        assertThat(london.getString("group")).isEqualTo("london");
        assertThat(london.getString("state")).isEqualTo("silent");
        assertThat(rows.getJsonObject(0).getString("group")).isEqualTo("frankfurt");
        assertThat(rows.getJsonObject(0).getString("state")).isNotEqualTo("silent");
    }

    @Test
    void theNextLinkWalksTheFleetInHostNameOrderOnePageAtATime() throws Exception {
        List<String> walked = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String path = "/api/v1/fleet?limit=3";
        while (path != null) {
            HttpResponse<Buffer> page = get(path);
            assertThat(page.statusCode()).isEqualTo(200);
            List<String> hosts = hosts(page.bodyAsJsonArray());
            walked.addAll(hosts);
            sizes.add(hosts.size());
            String link = page.getHeader("Link");
            if (link == null) {
                path = null;
            } else {
                Matcher m = NEXT.matcher(link);
                assertThat(m.find()).as(link).isTrue();
                path = m.group(1);
                assertThat(path).startsWith("/api/v1/fleet?limit=3&after=");
            }
        }
        assertThat(walked).containsExactlyElementsOf(GroupedFleet.all());
        assertThat(sizes).containsExactly(3, 3, 2);
    }

    @Test
    void filtersByHostPatternGroupAndStateKeepTheirCursor() throws Exception {
        assertThat(hosts(get("/api/v1/fleet?group=LONDON").bodyAsJsonArray())).containsExactlyElementsOf(GroupedFleet.LONDON);
        assertThat(hosts(get("/api/v1/fleet?state=silent").bodyAsJsonArray())).containsExactlyElementsOf(GroupedFleet.LONDON);
        assertThat(hosts(get("/api/v1/fleet?state=problem&group=frankfurt").bodyAsJsonArray()))
                .as("Frankfurt reported a minute ago; its problems are its alerts, if any")
                .doesNotContainAnyElementsOf(GroupedFleet.LONDON);
        assertThat(hosts(get("/api/v1/fleet?host=SQL-FRA-0?&after=sql-fra-03").bodyAsJsonArray()))
                .containsExactly("sql-fra-04", "sql-fra-05");
        HttpResponse<Buffer> first = get("/api/v1/fleet?state=silent&limit=2");
        assertThat(hosts(first.bodyAsJsonArray())).containsExactly("sql-lon-01", "sql-lon-02");
        assertThat(first.getHeader("Link")).isEqualTo("</api/v1/fleet?state=silent&limit=2&after=sql-lon-02>; rel=\"next\"");
    }

    @Test
    void aBadParameterIsRefusedNamingIt() throws Exception {
        for (String[] bad : new String[][] {{"limit=0", "limit"}, {"limit=5001", "limit"}, {"limit=many", "limit"},
                {"state=asleep", "state"}, {"host=a%20b", "host"}}) {
            HttpResponse<Buffer> r = get("/api/v1/fleet?" + bad[0]);
            assertThat(r.statusCode()).as(bad[0]).isEqualTo(400);
            assertThat(r.bodyAsJsonObject().getString("field")).as(bad[0]).isEqualTo(bad[1]);
        }
        assertThat(get("/api/v1/fleet?limit=5000").statusCode()).isEqualTo(200);
    }

    @Test
    void alertsAreFilteredByHostGroupAndSeverityAndCountedWhenCut() throws Exception {
        long londonAlerts = get("/api/v1/alerts").bodyAsJsonArray().stream()
                .filter(a -> ((JsonObject) a).getString("host").startsWith("sql-lon-")).count();
        assertThat(londonAlerts).as("agent-silent at least").isGreaterThanOrEqualTo(3);
        HttpResponse<Buffer> london = get("/api/v1/alerts?group=london&limit=1");
        assertThat(london.statusCode()).isEqualTo(200);
        assertThat(london.bodyAsJsonArray()).hasSize(1);
        assertThat(london.bodyAsJsonArray().getJsonObject(0).getString("host")).startsWith("sql-lon-");
        assertThat(london.getHeader("X-Total-Count")).isEqualTo(Long.toString(londonAlerts));
        assertThat(get("/api/v1/alerts?host=sql-lon-02").bodyAsJsonArray()).extracting(a -> ((JsonObject) a).getString("host"))
                .containsOnly("sql-lon-02");
        assertThat(get("/api/v1/alerts?severity=loud").statusCode()).isEqualTo(400);
    }

    private HttpResponse<Buffer> get(String path) throws Exception {
        return fleet.http.get(fleet.collector.port(), "127.0.0.1", path)
                .putHeader("Authorization", "Bearer " + fleet.reader).send().await(10, TimeUnit.SECONDS);
    }

    private static List<String> hosts(JsonArray rows) {
        return rows.stream().map(r -> ((JsonObject) r).getString("host")).toList();
    }
}
