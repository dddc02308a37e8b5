package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportFormatException;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON sections the store holds are read without the duplicate-key check (the collector wrote them from reports it
 * had checked); an agent's report is still refused for a duplicate key.
 */
class StoredSectionsReadTest {

    private static final Instant AT = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void aStoredSectionIsReadWithoutTheDuplicateKeyCheck() throws Exception {
        ServerInfo server = TestReports.numbered(1, 0, AT).instances().get(0).server();
        String json = ReportJson.mapper().writeValueAsString(server);
        assertThat(json).contains("\"edition\":");
        // a key twice, the later one the section's own: what the check would refuse and the read takes as the last
        String twice = "{\"edition\":\"Express Edition\"," + json.substring(1);
        assertThat(SqlValues.read(twice, ServerInfo.class)).isEqualTo(server);

        List<DatabaseInfo> databases = TestReports.numbered(1, 0, AT).instances().get(0).databases();
        String list = ReportJson.mapper().writeValueAsString(databases);
        String listTwice = "[{\"name\":\"other\"," + list.substring(2);
        assertThat(SqlValues.readList(listTwice, new TypeReference<List<DatabaseInfo>>() { })).isEqualTo(databases);
    }

    @Test
    void anAgentsReportWithADuplicateKeyIsStillRefused() throws Exception {
        AgentReport report = TestReports.numbered(1, 0, AT);
        String json = new String(ReportJson.toBytes(report), StandardCharsets.UTF_8);
        int server = json.indexOf("\"server\":{") + "\"server\":{".length();
        assertThat(server).isGreaterThan("\"server\":{".length());
        String twice = json.substring(0, server) + "\"edition\":\"Express Edition\"," + json.substring(server);
        assertThatThrownBy(() -> ReportJson.parse(twice.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ReportFormatException.class).hasMessageContaining("Duplicate field 'edition'");
    }
}
