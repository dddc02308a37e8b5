package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compression row's gains on the status page (issue 30): speed and size, and the CPU gain where the agent's polls
 * observed it, in the words and signs of the API's {@code gains} and of chat.
 */
class CompressionRowsTextTest {

    private static String row(Double cpuGainPercent) {
        StringBuilder html = new StringBuilder();
        CompressionSection.rows(html, "sql01", List.of(new StatusView.CompressionRow("MSSQLSERVER", "Sales", "full", "LOCAL",
                "none", "CHEAPER", "QAT_DEFLATE (HARDWARE)", "MS_XPRESS", -0.2, 0.0, cpuGainPercent, List.of(
                        new StatusView.MethodCell("MS_XPRESS", 3, 0, 1000, 204.8, 60.0, null),
                        new StatusView.MethodCell("QAT_DEFLATE (HARDWARE)", 3, 0, 1002, 204.4, 60.0, "CHEAPER")))));
        return html.toString();
    }

    @Test
    void theSameSpeedForSeventyOnePercentLessCpuSaysSo() {
        assertThat(row(71.0)).contains("QAT_DEFLATE (HARDWARE) vs MS_XPRESS: speed gain -0.2 % (slower), size gain 0.0 %, "
                + "CPU gain +71.0 % (less CPU)");
        assertThat(row(-40.0)).contains("CPU gain -40.0 % (more CPU)");
        assertThat(row(null)).as("CPU not observed: no CPU words").contains("size gain 0.0 %</span>").doesNotContain("CPU gain");
    }
}
