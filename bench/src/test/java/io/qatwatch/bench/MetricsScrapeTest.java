package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.metrics.PrometheusText.Type;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's reading of a collector's /metrics: the text the collector's own writer makes, over real HTTP. */
class MetricsScrapeTest {

    private final AtomicInteger scrapes = new AtomicInteger();
    private HttpServer server;

    @BeforeEach
    void serve() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            int n = scrapes.incrementAndGet();
            byte[] body = new PrometheusText()
                    .family("qatwatch_alert_instances", Type.GAUGE, "SQL Server instances the alert stage holds.")
                    .sample(33_334)
                    .family("qatwatch_alert_instances_restored_total", Type.COUNTER, "Restored.")
                    .sample(n)
                    .family("qatwatch_reports_rejected_total", Type.COUNTER, "Rejected, by reason.")
                    .sample(Map.of("reason", "bad_token"), 7)
                    .toString().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void readsTheFamiliesWithoutLabelsAsNumbers() throws Exception {
        Map<String, Double> m = new MetricsScrape(server.getAddress().getPort()).now();

        assertThat(m).containsEntry("qatwatch_alert_instances", 33_334.0)
                .containsEntry("qatwatch_alert_instances_restored_total", 1.0)
                .doesNotContainKey("qatwatch_reports_rejected_total");
        assertThat(m.keySet()).noneMatch(k -> k.startsWith("#") || k.contains("{"));
    }

    @Test
    void waitsUntilWhatItWaitsForShows() throws Exception {
        Map<String, Double> m = new MetricsScrape(server.getAddress().getPort())
                .until(x -> x.get("qatwatch_alert_instances_restored_total") >= 3, Duration.ofSeconds(30));

        assertThat(m.get("qatwatch_alert_instances_restored_total")).isEqualTo(3.0);
        assertThat(scrapes).hasValue(3);
    }

    @Test
    void saysWhatItLastSawWhenTheWaitRunsOut() {
        assertThatThrownBy(() -> new MetricsScrape(server.getAddress().getPort())
                .until(x -> false, Duration.ZERO))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("qatwatch_alert_instances=33334.0");
    }

    @Test
    void aCollectorsShareIsReadFromTheStagesFamilies() throws Exception {
        LargeFleetBenchmark.StageShare share = LargeFleetBenchmark.StageShare.of(
                new MetricsScrape(server.getAddress().getPort()).now());

        assertThat(share).isEqualTo(new LargeFleetBenchmark.StageShare(33_334, 1, -1));
    }
}
