package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.SelfSignedCertificate;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read API's seams, the rate limit and HTTPS, over real HTTP on loopback. */
class CollectorApiTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);
    private static final Instant BASE = Instant.parse("2026-11-29T00:00:00Z");

    @TempDir
    Path data;

    private RunningCollector running;
    private Collector collector;

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
    }

    private HttpResponse<Buffer> get(WebClient http, String path, String token) throws Exception {
        var request = http.get(collector.port(), "127.0.0.1", path);
        if (token != null) {
            request.putHeader("Authorization", "Bearer " + token);
        }
        return request.send().await(10, TimeUnit.SECONDS);
    }

    @Test
    void alertsAndWindowsAnswer503UntilWiredAndNeedAReadToken() throws Exception {
        running = RunningCollector.start(data, CLOCK);
        collector = running.collector();
        WebClient http = running.http();
        String reader = collector.tokens().add("grafana", TokenStore.Kind.READ, CLOCK.instant());
        assertThat(get(http, "/api/v1/alerts", null).statusCode()).isEqualTo(401);
        HttpResponse<Buffer> alerts = get(http, "/api/v1/alerts", reader);
        assertThat(alerts.statusCode()).isEqualTo(503);
        assertThat(alerts.bodyAsJsonObject().getString("error")).isEqualTo("not configured");
        assertThat(get(http, "/api/v1/instances/sql01/PROD/windows", reader).statusCode()).isEqualTo(503);
    }

    @Test
    void wiredViewsAreServedAsJson() throws Exception {
        AlertsView alerts = () -> List.of(new AlertsView.ActiveAlert("a1", "backup-window-creep", "warning", "sql01",
                "PROD", null, "margin shrinks 3 min/day", "14 nights", Instant.parse("2026-11-29T08:00:00Z")));
        WindowsView windows = (host, instance, now) -> "sql01".equals(host)
                ? Map.of("host", host, "instance", instance, "evaluatedAt", now) : null;
        running = RunningCollector.start(CollectorConfig.defaults(), data, CLOCK,
                new Collector.Stages(host -> null, alerts, windows, accepted -> { }));
        collector = running.collector();
        WebClient http = running.http();
        String reader = collector.tokens().add("grafana", TokenStore.Kind.READ, CLOCK.instant());

        JsonArray active = get(http, "/api/v1/alerts", reader).bodyAsJsonArray();
        assertThat(active.getJsonObject(0).getString("rule")).isEqualTo("backup-window-creep");
        assertThat(active.getJsonObject(0).getString("since")).isEqualTo("2026-11-29T08:00:00Z");

        var found = get(http, "/api/v1/instances/sql01/PROD/windows", reader);
        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(found.bodyAsJsonObject().getString("evaluatedAt")).isEqualTo("2026-11-30T07:00:00Z");
        assertThat(get(http, "/api/v1/instances/sql99/PROD/windows", reader).statusCode()).isEqualTo(404);
        assertThat(get(http, "/api/v1/instances/sql01/PR%20OD/windows", reader).statusCode()).isEqualTo(400);
    }

    @Test
    void anAgentOverItsRateGets429WithRetryAfter() throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", 0)
                .withIngest(new IngestConfig(8L * 1024 * 1024, 2));
        running = RunningCollector.start(config, data, CLOCK);
        collector = running.collector();
        WebClient http = running.http();
        String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
        String other = collector.tokens().add("sql02", TokenStore.Kind.AGENT, CLOCK.instant());
        int[] statuses = new int[3];
        for (int n = 0; n < 3; n++) {
            statuses[n] = post(http, token, n + 1).statusCode();
        }
        assertThat(statuses).containsExactly(202, 202, 429);
        HttpResponse<Buffer> limited = post(http, token, 4);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(Integer.parseInt(limited.getHeader("Retry-After"))).isBetween(1, 60);
        assertThat(post(http, other, 5).statusCode()).as("the limit is per agent").isEqualTo(202);
    }

    private HttpResponse<Buffer> post(WebClient http, String token, int n) throws Exception {
        return http.post(collector.port(), "127.0.0.1", "/api/v1/reports")
                .putHeader("Authorization", "Bearer " + token).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(ReportJson.toBytes(TestReports.numbered(n, 1, BASE))))
                .await(10, TimeUnit.SECONDS);
    }

    @Test
    void httpsWithAPemCertificateAndKey() throws Exception {
        SelfSignedCertificate pem = SelfSignedCertificate.in(data);
        Path cert = pem.cert();
        Path key = pem.key();
        CollectorConfig base = CollectorConfig.defaults().withListen("127.0.0.1", 0);
        CollectorConfig config = base.withTls(new TlsConfig(cert, key));
        running = RunningCollector.start(config, data, CLOCK);
        collector = running.collector();

        WebClient https = WebClient.create(running.vertx(), new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertPath(cert.toString())).setVerifyHost(true));
        assertThat(https.get(collector.port(), "127.0.0.1", "/healthz").send().await(10, TimeUnit.SECONDS).statusCode())
                .isEqualTo(200);
        WebClient plain = running.http();
        int plainStatus = plain.get(collector.port(), "127.0.0.1", "/healthz").send()
                .transform(r -> Future.succeededFuture(r.succeeded() ? r.result().statusCode() : -1))
                .await(10, TimeUnit.SECONDS);
        assertThat(plainStatus).as("plain HTTP is not served on the HTTPS port").isNotEqualTo(200);
    }
}
