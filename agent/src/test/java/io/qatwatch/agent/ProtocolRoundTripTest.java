package io.qatwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import org.junit.jupiter.api.Test;

/** The agent writes the golden report exactly as the collector reads it. */
class ProtocolRoundTripTest {

    @Test
    void goldenReportRoundTrips() throws Exception {
        byte[] golden = GoldenReports.bytes(GoldenReports.COMPLETE);
        var tree = ReportJson.mapper().readTree(ReportJson.toBytes(ReportJson.parse(golden)));
        assertThat(tree).isEqualTo(ReportJson.mapper().readTree(golden));
    }
}
