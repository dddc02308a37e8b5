package io.qatwatch.collector.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.metrics.PrometheusText.Type;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void writesHelpTypeAndSamplesWithEscapedLabels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("rule", "backup-missing");
        labels.put("note", "a \"quoted\" \\ value");

        String text = new PrometheusText()
                .family("qatwatch_alerts_active", Type.GAUGE, "Active alerts.\nBy rule.").sample(labels, 3)
                .family("qatwatch_latency_seconds", Type.HISTOGRAM, "Latency.").sample("_sum", Map.of(), 0.25)
                .toString();

        assertThat(text).isEqualTo("""
                # HELP qatwatch_alerts_active Active alerts.\\nBy rule.
                # TYPE qatwatch_alerts_active gauge
                qatwatch_alerts_active{rule="backup-missing",note="a \\"quoted\\" \\\\ value"} 3
                # HELP qatwatch_latency_seconds Latency.
                # TYPE qatwatch_latency_seconds histogram
                qatwatch_latency_seconds_sum 0.25
                """);
    }

    @Test
    void refusesWhatPromtoolWouldFlag() {
        assertThatThrownBy(() -> new PrometheusText().family("qatwatch_reports", Type.COUNTER, "x"))
                .hasMessageContaining("counters, and only counters, end in _total");
        assertThatThrownBy(() -> new PrometheusText().family("qatwatch_spool_total", Type.GAUGE, "x"))
                .hasMessageContaining("end in _total");
        assertThatThrownBy(() -> new PrometheusText().family("qatwatch_up", Type.GAUGE, null))
                .hasMessageContaining("needs a help text");
        assertThatThrownBy(() -> new PrometheusText().family("qatwatch_up", Type.GAUGE, "x").family("qatwatch_up", Type.GAUGE, "x"))
                .hasMessageContaining("declared twice");
    }
}
