package io.qatwatch.agent.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class NameMapTest {

    private static AgentReport report() {
        HostFacts host = new HostFacts("sql01.corp.example.com", null, null, null, null, null);
        ServerInfo server = new ServerInfo("16.0.4135.4", 16, "Enterprise", 3, "SQL01", "SQL01\\PROD", true);
        List<DatabaseInfo> databases = List.of(
                new DatabaseInfo("master", null, "SIMPLE", "NONE", null, null, null),
                new DatabaseInfo("Sales", null, "FULL", "NONE", "AG-East", "PRIMARY", true),
                new DatabaseInfo("SalesDW", null, "FULL", "NONE", null, null, null));
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("PROD", Instant.EPOCH, server, null, null, databases,
                null, null, null, null);
        return new AgentReport(1, "id", Instant.EPOCH, null, host, null, null, List.of(instance), List.of());
    }

    @Test
    void namesAreReplacedAsWholeWordsTheSameWayEverywhereIgnoringCase() {
        NameMap names = NameMap.of(report(), "CORP\\svc-qatwatch");

        assertThat(names.apply("\\\\nas01\\backup\\SQL01_Sales_FULL_20261130.bak"))
                .isEqualTo("\\\\nas01\\backup\\anon-host-2_anon-db-1_FULL_20261130.bak");
        assertThat(names.apply("sql01\\prod")).isEqualTo(names.apply("SQL01\\PROD")).isEqualTo("anon-host-2\\ANON_INSTANCE_1");
        assertThat(names.apply("SalesDW and Sales and Salesforce")).isEqualTo("anon-db-2 and anon-db-1 and Salesforce");
        assertThat(names.apply("ag AG-East")).isEqualTo("ag anon-ag-1");
        assertThat(names.apply("sql01.corp.example.com")).isEqualTo("anon-host-1");
        assertThat(names.apply("login CORP\\svc-qatwatch")).isEqualTo("login anon-login-1");
        assertThat(names.replacements()).containsEntry("Sales", "anon-db-1").doesNotContainKey("master");
    }

    @Test
    void systemDatabasesAndTheDefaultInstanceAreKept() {
        NameMap names = NameMap.of(report(), null);

        assertThat(names.apply("BACKUP DATABASE master, msdb ON MSSQLSERVER")).isEqualTo("BACKUP DATABASE master, msdb ON MSSQLSERVER");
    }
}
