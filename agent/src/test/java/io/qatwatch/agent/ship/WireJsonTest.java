package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The agent's own writer sends what the wire format's mapper would have sent, to the byte. */
class WireJsonTest {

    @Test
    void theGoldenReportIsWrittenByteForByteAsTheWireFormatsMapperWritesIt() {
        AgentReport golden = GoldenReports.complete();

        assertThat(new String(WireJson.report(golden), StandardCharsets.UTF_8))
                .isEqualTo(new String(ReportJson.toBytes(golden), StandardCharsets.UTF_8));
    }

    @Test
    void instantsOfEveryPrecisionAreWrittenAsTheWireFormatWritesThem() {
        AgentReport golden = GoldenReports.complete();
        for (String at : new String[] {"2026-11-30T06:15:00Z", "2026-11-30T06:15:00.100Z", "2026-11-30T06:15:00.000001Z",
                "2026-11-30T06:15:00.123456789Z", "1970-01-01T00:00:00Z"}) {
            AgentReport report = new AgentReport(golden.schemaVersion(), golden.reportId(), Instant.parse(at),
                    golden.agent(), golden.host(), golden.qat(), golden.licence(), golden.instances(), golden.probes());

            String written = new String(WireJson.report(report), StandardCharsets.UTF_8);

            assertThat(written).as(at).isEqualTo(new String(ReportJson.toBytes(report), StandardCharsets.UTF_8))
                    .contains("\"createdAt\":\"" + at + "\"");
            assertThat(ReportJson.parse(WireJson.report(report)).createdAt()).isEqualTo(Instant.parse(at));
        }
    }

    @Test
    void aCollectorsAnswerIsReadAsATree() throws Exception {
        assertThat(WireJson.tree("{\"reportId\":\"r1\",\"duplicate\":true}").get("duplicate").asBoolean()).isTrue();
    }
}
