package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every answer says about itself: no sniffing, a content security policy on HTML, JSON named exactly. */
class ResponseHeadersTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;
    private RunningCollector running;

    @BeforeEach
    void start() throws Exception {
        running = RunningCollector.start(data, CLOCK);
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
    }

    @Test
    void aBadStatusPageFilterIsPlainTextThatNoBrowserSniffsIntoHtml() throws Exception {
        HttpResponse<Buffer> bad = running.get("/?limit=%3Cscript%3Ealert(1)%3C/script%3E", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.getHeader("Content-Type")).startsWith("text/plain");
        assertThat(bad.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @Test
    void theStatusPageCarriesAContentSecurityPolicyThatAllowsNoScriptAndNoOtherOrigin() throws Exception {
        HttpResponse<Buffer> page = running.get("/", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.getHeader("Content-Type")).startsWith("text/html");
        String csp = page.getHeader("Content-Security-Policy");
        assertThat(csp).contains("default-src 'none'").contains("frame-ancestors 'none'").doesNotContain("script-src");
        assertThat(page.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.bodyAsString()).doesNotContain("<script");
    }

    @Test
    void jsonAnswersAndErrorsAreNotSniffedEither() throws Exception {
        assertThat(running.get("/healthz", null).getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(running.get("/api/v1/fleet", null).getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(running.get("/nothing", null).getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @Test
    void jsonWithAUtf8CharsetOrInAnotherCaseIsJson() throws Exception {
        String token = running.token("sql01", TokenStore.Kind.AGENT);
        for (String type : new String[] {"application/json; charset=utf-8", "Application/JSON", "application/json;charset=\"UTF-8\""}) {
            String body = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                    .replace("5f0c2a1e-8b7d-4c36-9a51-0d2e6f4b7c19", "report-" + Integer.toHexString(type.hashCode()));
            HttpResponse<Buffer> answer = running.request(HttpMethod.POST, "/api/v1/reports", token)
                    .putHeader("Content-Type", type).sendBuffer(Buffer.buffer(body)).await(10, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).as(type + ": " + answer.bodyAsString()).isEqualTo(202);
        }
    }
}
