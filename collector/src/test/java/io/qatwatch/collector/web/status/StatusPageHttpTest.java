package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status page as the collector serves it on {@code GET /}, after a real report over HTTP. */
class StatusPageHttpTest {

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

    @Test
    void beforeAnyReportThePageSaysHowToEnrollAnAgent() throws Exception {
        HttpResponse<Buffer> page = get();
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.getHeader("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(page.bodyAsString()).contains("No agent has reported yet.")
                .contains("<span class=\"count\">0</span> hosts").contains("No alert is firing.");
    }

    @Test
    void afterAReportTheFleetTableShowsWhatItSaid() throws Exception {
        String token = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
        HttpResponse<Buffer> accepted = http.post(collector.port(), "127.0.0.1", "/api/v1/reports")
                .putHeader("Authorization", "Bearer " + token).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(GoldenReports.bytes(GoldenReports.COMPLETE))).await(10, TimeUnit.SECONDS);
        assertThat(accepted.statusCode()).isEqualTo(202);

        String page = get().bodyAsString();
        String fleet = page.substring(page.indexOf("<section id=\"fleet\">"), page.indexOf("</section>", page.indexOf("<section id=\"fleet\">")));
        assertThat(fleet).contains("<strong><a class=\"host-link\" href=\"/hosts/sql01\">sql01</a></strong>").contains("GenuineIntel")
                .contains("<a href=\"/hosts/sql01#instance-MSSQLSERVER\">MSSQLSERVER</a> <span class=\"muted\">16.0.4135.4</span>")
                .contains("QAT HARDWARE")
                .contains("1 device, 1 up <span class=\"tag good\">compression ready</span>")
                .contains("<span class=\"tag good\" title=\"a QAT device (physical or virtual function) was found\">INTEL_QAT_HARDWARE</span>");
        assertThat(page.substring(page.indexOf("<section id=\"compression\">")))
                .as("without the alert stage there is no evaluation to compare from").contains("No comparison yet");
        assertThat(page).contains("<span class=\"count\">1</span> hosts").doesNotContain("src=").doesNotContain("<script");
    }

    private HttpResponse<Buffer> get() throws Exception {
        return http.get(collector.port(), "127.0.0.1", "/").send().await(10, TimeUnit.SECONDS);
    }
}
