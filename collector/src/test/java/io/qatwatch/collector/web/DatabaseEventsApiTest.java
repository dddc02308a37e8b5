package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.testing.AgentGoldens;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Database events from a real collector (issue 31): the TDS scenario sql2022-differential-base-guid as the agent read
 * it through mssql-jdbc, posted over HTTP, then a report an hour later in which one database's recovery model changed, one
 * database appeared and one disappeared; the events API and the database page show them.
 */
class DatabaseEventsApiTest {

    @TempDir
    Path data;

    @Test
    void appearancesAndRecoveryModelChangesAreEventsOfTheApiAndTheDatabasePage() throws Exception {
        SqlInstanceSnapshot first = AgentGoldens.snapshot("sql2022-differential-base-guid");
        Instant later = first.collectedAt().plusSeconds(3600);
        ObjectNode next = ReportJson.mapper().valueToTree(first);
        next.put("collectedAt", later.toString());
        next.putArray("backups");
        ArrayNode dbs = (ArrayNode) next.get("databases");
        for (int i = dbs.size() - 1; i >= 0; i--) {
            ObjectNode d = (ObjectNode) dbs.get(i);
            if (d.get("name").asText().equals("Legacy")) {
                dbs.remove(i);
            } else if (d.get("name").asText().equals("Orders")) {
                d.put("recoveryModel", "FULL");
            }
        }
        dbs.addObject().put("name", "Returns").put("recoveryModel", "FULL").put("createdAt", "2026-11-30T07:01:00Z");
        SqlInstanceSnapshot second = ReportJson.mapper().treeToValue(next, SqlInstanceSnapshot.class);
        Clock clock = Clock.fixed(later.plusSeconds(60), ZoneOffset.UTC);
        try (RunningCollector c = RunningCollector.start(data, clock)) {
            String agent = c.token("sqldiff01", Kind.AGENT);
            for (SqlInstanceSnapshot s : new SqlInstanceSnapshot[] {first, second}) {
                byte[] body = ReportJson.mapper().writeValueAsBytes(Jobs.report("sqldiff01", s.collectedAt(), s));
                assertThat(c.postReport(agent, body, false).statusCode()).isEqualTo(202);
            }
            String reader = c.token("dba", Kind.READ);

            JsonArray events = json(c.get("/api/v1/instances/sqldiff01/PROD/database-events", reader)).getJsonArray("events");
            assertThat(events.stream().map(e -> ((JsonObject) e).getString("database") + " " + ((JsonObject) e).getString("kind")))
                    .containsExactly("Orders recovery-model-changed", "Returns appeared", "Legacy disappeared");
            JsonObject returns = events.getJsonObject(1);
            assertThat(returns.getString("at")).isEqualTo(later.toString());
            assertThat(returns.getString("createdAt")).isEqualTo("2026-11-30T07:01:00Z");
            assertThat(returns.getString("severity")).isEqualTo("info");

            JsonObject orders = json(c.get("/api/v1/databases/sqldiff01/PROD/Orders/events", reader));
            assertThat(orders.getJsonArray("events")).singleElement().satisfies(e -> {
                JsonObject o = (JsonObject) e;
                assertThat(o.getString("before")).isEqualTo("SIMPLE");
                assertThat(o.getString("after")).isEqualTo("FULL");
                assertThat(o.getString("summary")).isEqualTo("Recovery model of Orders changed from SIMPLE to FULL");
            });
            assertThat(json(c.get("/api/v1/instances/sqldiff01/PROD/database-events?since=" + later.plusSeconds(1), reader))
                    .getJsonArray("events")).isEmpty();
            assertThat(c.get("/api/v1/instances/sqldiff01/PROD/database-events?since=yesterday", reader).statusCode())
                    .isEqualTo(400);
            assertThat(c.get("/api/v1/instances/sqldiff01/PROD/database-events", null).statusCode()).isEqualTo(401);

            HttpResponse<Buffer> page = c.get("/hosts/sqldiff01/PROD/Orders", reader);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.bodyAsString()).contains("<section id=\"events\"><h2>Events</h2>")
                    .contains("Recovery model of Orders changed from SIMPLE to FULL");
            assertThat(c.get("/hosts/sqldiff01/PROD/Weekly", reader).bodyAsString())
                    .contains("Nothing changed in the last 30 days");
        }
    }

    private static JsonObject json(HttpResponse<Buffer> r) {
        assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
        return r.bodyAsJsonObject();
    }
}
