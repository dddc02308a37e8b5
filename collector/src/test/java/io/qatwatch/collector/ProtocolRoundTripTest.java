package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import org.junit.jupiter.api.Test;

/** The collector reads the golden report the agent's side writes, and writes it back unchanged. */
class ProtocolRoundTripTest {

    @Test
    void goldenReportRoundTrips() throws Exception {
        byte[] golden = GoldenReports.bytes(GoldenReports.COMPLETE);
        var tree = ReportJson.mapper().readTree(ReportJson.toBytes(ReportJson.parse(golden)));
        assertThat(tree).isEqualTo(ReportJson.mapper().readTree(golden));
    }
}
