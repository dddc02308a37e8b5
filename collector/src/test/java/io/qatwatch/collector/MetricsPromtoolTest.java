package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} of a collector with every optional part on (the InfluxDB sink, the alert stage with a
 * channel) after one report, checked by Prometheus's own {@code promtool check metrics} (Debian's prometheus
 * package; ./run-tests installs it): every family has HELP and TYPE, counters end in _total, units are in names.
 */
class MetricsPromtoolTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void promtoolFindsNoProblemWithEveryPartOn() throws Exception {
        assumeThat(available("promtool")).as("promtool (Debian package prometheus) is installed").isTrue();
        // nothing listens on the sink's port: its gauges appear all the same, with the writes failing
        Path config = Files.writeString(dir.resolve("collector.yaml"), """
                influx:
                  url: http://127.0.0.1:9
                  org: qatwatch
                  bucket: qatwatch
                alerts:
                  channels:
                    - type: webhook
                      url: http://127.0.0.1:9/alerts
                """);

        String metrics;
        try (RunningCollector collector = RunningCollector.withAlertStage(ConfigLoader.load(config), dir.resolve("data"), CLOCK)) {
            String token = collector.token("sql01", TokenStore.Kind.AGENT);
            assertThat(collector.postReport(token, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(202);
            collector.evaluate();
            metrics = collector.get("/metrics", null).bodyAsString();
        }
        Path scraped = Files.writeString(dir.resolve("metrics.txt"), metrics);

        Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectInput(scraped.toFile())
                .redirectErrorStream(true).start();
        String problems = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(problems).as(metrics).isEmpty();
        assertThat(promtool.exitValue()).isZero();
        // what was checked: ingest, the sink, the fleet, the agents' outboxes, the JVM and the process
        assertThat(metrics).contains("qatwatch_reports_accepted_total 1\n", "qatwatch_influx_up ",
                "qatwatch_hosts{state=\"silent\"} 0\n", "qatwatch_agents_silent 0\n", "# TYPE qatwatch_alerts_active gauge\n",
                "qatwatch_agent_outbox_reports ", "jvm_memory_used_bytes{area=\"heap\"} ", "jvm_gc_collection_seconds_count{gc=",
                "jvm_threads_current ", "process_cpu_seconds_total ", "process_open_fds ");
        assertThat(metrics).containsPattern("qatwatch_alerts_active\\{rule=\"[a-z-]+\",severity=\"[a-z]+\"} [1-9]");
        // the alert stage's own figures: the evaluation asked for above (and perhaps the stage's first) over the one instance
        assertThat(metrics).containsPattern("qatwatch_alert_evaluations_total [1-9]")
                .containsPattern("qatwatch_alert_evaluation_last_duration_seconds [0-9.E-]+\n")
                .contains("qatwatch_alert_instances 1\n", "qatwatch_alert_instances_rebuilt_total 1\n",
                        "qatwatch_alert_instances_restored_total 0\n", "qatwatch_alert_stage_held_back_seconds_total ");
    }

    private static boolean available(String program) throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "command -v " + program).start().waitFor() == 0;
    }
}
