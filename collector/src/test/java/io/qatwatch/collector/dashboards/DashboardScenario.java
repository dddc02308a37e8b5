package io.qatwatch.collector.dashboards;

import io.qatwatch.collector.dashboards.GrafanaDashboards.Selection;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The points the dashboards are tested on, and the selections a user would make over them. */
final class DashboardScenario {

    static final Instant FROM = Instant.parse("2026-10-01T00:00:00Z");
    static final Instant TO = Instant.parse("2026-12-01T00:00:00Z");
    static final String PICKED_GROUP = "prod";
    static final String PICKED_HOST = "sql01";
    static final String UNGROUPED_HOST = "sql03";

    private DashboardScenario() {
    }

    static String lineProtocol() throws IOException {
        return DashboardQueriesTest.readResource("points.lp");
    }

    static Selection wholeFleet() {
        return new Selection(FROM, TO, Map.of());
    }

    static Selection oneDatabase() {
        return new Selection(FROM, TO, Map.of("group", List.of(PICKED_GROUP), "host", List.of(PICKED_HOST),
                "instance", List.of("MSSQLSERVER"), "database", List.of("Sales"), "type", List.of("full")));
    }
}
