package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/databases/{host}/{instance}/{database}/restore-plan} from a real collector: issue 31's scenarios as
 * the agent read them through mssql-jdbc (its golden snapshots), posted to {@code /api/v1/reports} over HTTP, stored,
 * and the plan served: across availability-group replicas, with every file, and LSNs of 25 digits exact.
 */
class RestorePlanApiTest {

    @TempDir
    Path data;

    @Test
    void thePlanNamesEveryFileAcrossReplicasAndWhereItBreaks() throws Exception {
        SqlInstanceSnapshot chains = AgentGoldens.snapshot("sql2022-log-chains");
        SqlInstanceSnapshot primary = AgentGoldens.snapshot("sql2022-chain-ag-primary");
        SqlInstanceSnapshot secondary = AgentGoldens.snapshot("sql2022-chain-ag-secondary");
        Clock clock = Clock.fixed(chains.collectedAt(), ZoneOffset.UTC);
        try (RunningCollector c = RunningCollector.start(data, clock)) {
            for (var e : java.util.Map.of("sqlchain01", chains, "sqlag01", primary, "sqlag02", secondary).entrySet()) {
                byte[] body = ReportJson.mapper().writeValueAsBytes(Jobs.report(e.getKey(), clock.instant(), e.getValue()));
                assertThat(c.postReport(c.token(e.getKey(), Kind.AGENT), body, false).statusCode()).isEqualTo(202);
            }
            String reader = c.token("dba", Kind.READ);

            JsonObject orders = json(c.get("/api/v1/databases/sqlag02/PROD/Orders/restore-plan", reader));
            assertThat(orders.getJsonArray("replicas")).containsExactlyInAnyOrder("sqlag01/PROD", "sqlag02/PROD");
            JsonObject plan = orders.getJsonObject("plan");
            assertThat(plan.getBoolean("whole")).isTrue();
            assertThat(plan.getJsonObject("full").getString("host")).isEqualTo("sqlag01");
            assertThat(plan.getJsonObject("full").getString("file")).endsWith("Orders_FULL_20261129_010000.bak");
            JsonArray logs = plan.getJsonArray("logs");
            assertThat(logs).hasSize(4);
            assertThat(logs.stream().map(l -> ((JsonObject) l).getString("host"))).containsOnly("sqlag02");
            assertThat(plan.getInteger("files")).isEqualTo(5);
            assertThat(plan.getString("latestPointInTime")).isEqualTo("2026-11-30T05:00:05Z");

            JsonObject payments = json(c.get("/api/v1/databases/sqlag01/PROD/Payments/restore-plan", reader)).getJsonObject("plan");
            assertThat(payments.getBoolean("whole")).isFalse();
            JsonObject broken = payments.getJsonObject("broken");
            assertThat(broken.getString("kind")).isEqualTo("GAP");
            assertThat(broken.getJsonObject("before").getString("host")).isEqualTo("sqlag01");
            assertThat(broken.getJsonObject("after").getString("firstLsn")).isEqualTo("32000000035000001");
            assertThat(payments.getString("latestPointInTime")).isEqualTo("2026-11-29T17:00:05Z");

            JsonObject archive = json(c.get("/api/v1/databases/sqlchain01/PROD/Archive/restore-plan", reader))
                    .getJsonObject("plan");
            assertThat(archive.getString("latestLsn")).isEqualTo("9999999999999999999999999");
            assertThat(archive.getJsonArray("logs").getJsonObject(1).getString("lastLsn")).isEqualTo("9999999999999999999999999");

            JsonObject hr = json(c.get("/api/v1/databases/sqlchain01/PROD/Hr/restore-plan", reader)).getJsonObject("plan");
            assertThat(hr.getJsonObject("broken").getString("kind")).isEqualTo("NUL");
            assertThat(hr.getJsonObject("broken").getJsonObject("via").getString("file")).isEqualTo("NUL");

            JsonArray stock = json(c.get("/api/v1/databases/sqlchain01/PROD/Stock/restore-plan", reader))
                    .getJsonArray("recoveryModelChanges");
            assertThat(stock).as("FULL -> SIMPLE -> FULL, as the backups recorded it").hasSize(2);
            assertThat(stock.getJsonObject(0).getMap()).containsEntry("from", "FULL").containsEntry("to", "SIMPLE")
                    .containsEntry("after", "2026-11-29T11:00:05Z").containsEntry("by", "2026-11-29T15:00:20Z");
            assertThat(stock.getJsonObject(1).getMap()).containsEntry("from", "SIMPLE").containsEntry("to", "FULL")
                    .containsEntry("by", "2026-11-29T21:00:20Z");

            assertThat(c.get("/api/v1/databases/sqlchain01/PROD/Nope/restore-plan", reader).statusCode()).isEqualTo(404);
            assertThat(c.get("/api/v1/databases/sqlchain01/PROD/Hr/restore-plan", null).statusCode()).isEqualTo(401);
        }
    }

    private static JsonObject json(HttpResponse<Buffer> r) {
        assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
        return r.bodyAsJsonObject();
    }
}
