package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The collector in-process on a loopback port, driven over real HTTP. */
class CollectorIngestTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;

    private RunningCollector running;
    private Collector collector;
    private WebClient http;

    @BeforeEach
    void start() throws Exception {
        running = RunningCollector.start(data, CLOCK);
        collector = running.collector();
        http = running.http();
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
    }

    private HttpResponse<Buffer> post(String token, byte[] body, boolean gzip) throws Exception {
        return running.postReport(token, body, gzip);
    }

    private HttpResponse<Buffer> get(String path, String token) throws Exception {
        return running.get(path, token);
    }

    @Test
    void reportWithTokenIsAcceptedOnceAndWithoutTokenRefused() throws Exception {
        String token = collector.tokens().add("web01", TokenStore.Kind.AGENT, CLOCK.instant());
        byte[] report = GoldenReports.bytes(GoldenReports.COMPLETE);

        HttpResponse<Buffer> first = post(token, report, false);
        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(first.bodyAsJsonObject().getBoolean("duplicate")).isFalse();

        HttpResponse<Buffer> again = post(token, report, false);
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(again.bodyAsJsonObject().getBoolean("duplicate")).isTrue();

        assertThat(post(null, report, false).statusCode()).isEqualTo(401);
        assertThat(post(token.substring(0, token.length() - 1) + "x", report, false).statusCode()).isEqualTo(401);

        assertThat(StoreKinds.scalar(collector.database(), "SELECT COUNT(*) FROM backups")).isEqualTo(1);
    }

    @Test
    void revokedTokenIsRefusedAtOnce() throws Exception {
        String token = collector.tokens().add("web02", TokenStore.Kind.AGENT, CLOCK.instant());
        collector.tokens().revoke("web02", CLOCK.instant());
        assertThat(post(token, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(401);
    }

    @Test
    void tokenStoreHoldsNoPlainToken() throws Exception {
        String token = collector.tokens().add("web03", TokenStore.Kind.AGENT, CLOCK.instant());
        String secret = token.substring(16); // after qw_, the 12-character id and _ (the secret itself may hold _)
        StoreKinds.update(collector.database(), "PRAGMA wal_checkpoint(FULL)");
        for (Path file : Files.list(data).toList()) {
            String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            assertThat(content).as(file.toString()).doesNotContain(secret);
        }
    }

    @Test
    void gzipBodyIsAcceptedAndTheHostComesFromTheToken() throws Exception {
        String token = collector.tokens().add("sql-prod-7", TokenStore.Kind.AGENT, CLOCK.instant());
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            gz.write(GoldenReports.bytes(GoldenReports.COMPLETE));
        }
        assertThat(post(token, zipped.toByteArray(), true).statusCode()).isEqualTo(202);

        String reader = collector.tokens().add("dashboard", TokenStore.Kind.READ, CLOCK.instant());
        HttpResponse<Buffer> fleet = get("/api/v1/fleet", reader);
        assertThat(fleet.statusCode()).isEqualTo(200);
        JsonArray rows = fleet.bodyAsJsonArray();
        assertThat(rows).hasSize(1);
        JsonObject row = rows.getJsonObject(0);
        assertThat(row.getString("host")).isEqualTo("sql-prod-7");
        assertThat(row.getString("licenceVerdict")).isEqualTo("INTEL_QAT_HARDWARE");
        assertThat(row.getJsonArray("instances").getJsonObject(0).getString("acceleratorMode")).isEqualTo("HARDWARE");

        assertThat(get("/api/v1/fleet", null).statusCode()).isEqualTo(401);
        assertThat(get("/api/v1/fleet", token).statusCode()).as("an agent token cannot read").isEqualTo(403);
    }

    @Test
    void invalidReportGets400NamingTheFieldAndStoresNothing() throws Exception {
        String token = collector.tokens().add("web04", TokenStore.Kind.AGENT, CLOCK.instant());
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replace("130738401280", "-1");
        HttpResponse<Buffer> response = post(token, json.getBytes(StandardCharsets.UTF_8), false);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.bodyAsJsonObject().getString("field")).isEqualTo("instances[0].backups[0].backupSizeBytes");
        assertThat(StoreKinds.scalar(collector.database(), "SELECT COUNT(*) FROM reports")).isZero();
    }

    @Test
    void healthAndStatusPageListTheHost() throws Exception {
        assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
        String token = collector.tokens().add("web05", TokenStore.Kind.AGENT, CLOCK.instant());
        post(token, GoldenReports.bytes(GoldenReports.COMPLETE), false);
        HttpResponse<Buffer> page = get("/", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.bodyAsString()).contains("<strong><a class=\"host-link\" href=\"/hosts/web05\">web05</a></strong>").contains("INTEL_QAT_HARDWARE");
        assertThat(get("/metrics", null).bodyAsString()).contains("qatwatch_reports_accepted_total 1");
    }
}
