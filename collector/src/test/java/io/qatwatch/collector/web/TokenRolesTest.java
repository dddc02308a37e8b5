package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The four token roles over real HTTP: who may read, who may post reports, who may manage tokens. */
class TokenRolesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;

    @Test
    void everyPeoplesRoleReadsOnlyAnAgentPostsReportsOnlyAnAdminManagesTokens() throws Exception {
        try (RunningCollector c = RunningCollector.start(data, CLOCK)) {
            String agent = c.token("sql01", Kind.AGENT);
            String reader = c.token("grafana", Kind.READ);
            String operator = c.token("oncall", Kind.OPERATOR);
            String admin = c.token("lead", Kind.ADMIN);

            for (String token : List.of(reader, operator, admin)) {
                assertThat(c.get("/api/v1/fleet", token).statusCode()).isEqualTo(200);
            }
            assertThat(c.get("/api/v1/fleet", agent).statusCode()).as("an agent token reads nothing").isEqualTo(403);
            assertThat(c.get("/api/v1/fleet", "qw_aaaaaaaaaaaa_" + "x".repeat(43)).statusCode()).isEqualTo(401);

            byte[] report = ReportJson.toBytes(TestReports.numbered(1, 0, CLOCK.instant()));
            assertThat(c.postReport(agent, report, false).statusCode()).isEqualTo(202);
            var byAdmin = c.postReport(admin, report, false);
            assertThat(byAdmin.statusCode()).as("reports need an agent token").isEqualTo(403);
            assertThat(byAdmin.bodyAsJsonObject().getString("error")).isEqualTo("this is an admin token; reports need an agent token");

            for (String token : List.of(reader, operator, agent)) {
                assertThat(c.get("/api/v1/tokens", token).statusCode()).isEqualTo(403);
            }
            JsonArray listed = c.get("/api/v1/tokens", admin).bodyAsJsonArray();
            assertThat(listed.stream().map(o -> ((JsonObject) o).getString("name") + ":" + ((JsonObject) o).getString("kind")))
                    .containsExactly("grafana:read", "lead:admin", "oncall:operator", "sql01:agent");
            assertThat(listed.encode()).doesNotContain(reader.substring(16));

            var issued = c.request(HttpMethod.POST, "/api/v1/tokens", admin)
                    .sendJsonObject(new JsonObject().put("name", "sql02").put("kind", "agent")).await(10, TimeUnit.SECONDS);
            assertThat(issued.statusCode()).isEqualTo(201);
            String sql02 = issued.bodyAsJsonObject().getString("token");
            assertThat(c.postReport(sql02, ReportJson.toBytes(TestReports.numbered(2, 0, CLOCK.instant())), false)
                    .statusCode()).as("the issued token works").isEqualTo(202);
            var badKind = c.request(HttpMethod.POST, "/api/v1/tokens", admin)
                    .sendJsonObject(new JsonObject().put("name", "x").put("kind", "root")).await(10, TimeUnit.SECONDS);
            assertThat(badKind.statusCode()).isEqualTo(400);
            assertThat(badKind.bodyAsJsonObject().getString("field")).isEqualTo("kind");
            assertThat(c.request(HttpMethod.POST, "/api/v1/tokens", operator)
                    .sendJsonObject(new JsonObject().put("name", "x").put("kind", "admin")).await(10, TimeUnit.SECONDS)
                    .statusCode()).as("an operator cannot make itself admin").isEqualTo(403);

            assertThat(c.request(HttpMethod.DELETE, "/api/v1/tokens/grafana", admin).send().await(10, TimeUnit.SECONDS)
                    .statusCode()).isEqualTo(204);
            assertThat(c.get("/api/v1/fleet", reader).statusCode()).as("revoked at once").isEqualTo(401);
            assertThat(c.request(HttpMethod.DELETE, "/api/v1/tokens/grafana", admin).send().await(10, TimeUnit.SECONDS)
                    .statusCode()).isEqualTo(404);
        }
    }
}
