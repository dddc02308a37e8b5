package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An instance's accelerator timeline in the API and on the status page, from reports posted over HTTP. */
class AcceleratorTimelineHttpTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;

    @Test
    void theTimelineListsEachChangeOfTheQatRowOldestFirst() throws Exception {
        try (RunningCollector c = RunningCollector.start(data, CLOCK)) {
            String agent = c.token("sql01", Kind.AGENT);
            String reader = c.token("grafana", Kind.READ);
            AcceleratorStatus hw = new AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", true, "1.9.0", "2.5.0");
            AcceleratorStatus sw = new AcceleratorStatus("QAT", "SOFTWARE", "SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND", false,
                    "1.9.0", "2.5.0");
            int n = 0;
            for (String at : new String[] {"2026-12-01T01:50:00Z", "2026-12-01T01:55:00Z", "2026-12-01T02:00:00Z",
                "2026-12-01T06:30:00Z"}) {
                AcceleratorStatus qat = at.startsWith("2026-12-01T02") ? sw : hw;
                assertThat(c.postReport(agent, ReportJson.toBytes(TestReports.accelerator(++n, Instant.parse(at), qat, null)),
                        false).statusCode()).isEqualTo(202);
            }

            JsonObject api = c.get("/api/v1/instances/sql01/MSSQLSERVER/accelerator", reader).bodyAsJsonObject();
            assertThat(api.getString("since")).isEqualTo("2026-11-01T08:00:00Z");
            JsonArray timeline = api.getJsonArray("timeline");
            assertThat(timeline.stream().map(o -> ((JsonObject) o).getString("at") + " " + ((JsonObject) o).getString("mode")))
                    .containsExactly("2026-12-01T01:50:00Z HARDWARE", "2026-12-01T02:00:00Z SOFTWARE", "2026-12-01T06:30:00Z HARDWARE");
            assertThat(timeline.getJsonObject(1).getString("reason")).isEqualTo("SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND");
            assertThat(timeline.getJsonObject(1).getBoolean("hardwareDetected")).isFalse();
            assertThat(c.get("/api/v1/instances/sql01/NOPE/accelerator", reader).statusCode()).isEqualTo(404);
            assertThat(c.get("/api/v1/instances/sql01/MSSQLSERVER/accelerator", null).statusCode()).isEqualTo(401);

            String page = c.get("/", reader).bodyAsString();
            assertThat(page).contains("QAT, last 30 days: 2 changes")
                    .contains("<time datetime=\"2026-12-01T02:00:00Z\">2026-12-01 02:00 UTC</time> <span class=\"tag")
                    .contains("SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND");
        }
    }
}
