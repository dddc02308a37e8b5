package io.qatwatch.collector.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the agent read from its TDS scenarios through mssql-jdbc: its golden snapshots
 * (agent/src/test/resources/sqlserver/golden), so the collector's tests judge what the agent really sends.
 */
public final class AgentGoldens {

    private AgentGoldens() {
    }

    public static SqlInstanceSnapshot snapshot(String scenario) throws Exception {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("agent/src/test/resources/sqlserver/golden"))) {
            p = p.getParent();
        }
        JsonNode node = ReportJson.mapper().readTree(p.resolve("agent/src/test/resources/sqlserver/golden/" + scenario + ".json")
                .toFile());
        return ReportJson.mapper().treeToValue(node.get("snapshot"), SqlInstanceSnapshot.class);
    }
}
