package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.chain.RestorePlanner;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's failover scenario end to end: the agent probes each replica of AG_Orders through mssql-jdbc and the TDS
 * test server (sql2022-chain-ag-primary and -secondary: SQLAG01 primary; an hour later sql2022-chain-ag-failover-sqlag02
 * and -sqlag01: SQLAG02 primary, SQLAG01 taking the logs), the collector stores the reports and its alert stage judges
 * them: ag-failover once, for a day, also in an alert stage started after the move, naming the old primary's backups
 * that stopped; and Orders' log chain whole across the move.
 */
class AgFailoverThroughCollectorTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();

    @TempDir
    Path dir;

    private void probeAndStore(SqlReportStore store, String host, String scenario, Instant at) throws Exception {
        Clock clock = Clock.fixed(at, SqlScenarios.CLOCK.getZone());
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario(scenario))) {
            SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), clock).probe(SqlScenarios.ALL, null);
            store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, "r-" + scenario + "-" + at.getEpochSecond(), at,
                    new AgentInfo(host, "test", 1, 0, 0, 0), null, null, null, List.of(r.snapshot()), r.probes()), at);
        }
    }

    private static List<Alert> failovers(FleetAnalysis fleet) {
        return CONFIG.evaluator().evaluate(fleet).alerts().stream().filter(a -> a.rule().equals("ag-failover")).toList();
    }

    @Test
    void theMoveIsAnInfoAlertForADayAndTheChainStaysWholeAcrossIt() throws Exception {
        Instant t0 = SqlScenarios.CLOCK.instant();
        Instant t1 = t0.plus(Duration.ofHours(1));
        try (Database db = Database.open(dir.resolve("collector"))) {
            SqlReportStore store = new SqlReportStore(db);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            probeAndStore(store, "sqlag01", "sql2022-chain-ag-primary", t0);
            probeAndStore(store, "sqlag02", "sql2022-chain-ag-secondary", t0);
            assertThat(failovers(live.refresh(store, t0).analysis())).as("the first evaluation learns the primary").isEmpty();

            probeAndStore(store, "sqlag02", "sql2022-chain-ag-failover-sqlag02", t1);
            probeAndStore(store, "sqlag01", "sql2022-chain-ag-failover-sqlag01", t1);
            FleetAnalysis after = live.refresh(store, t1.plusSeconds(60)).analysis();
            assertThat(failovers(after)).singleElement().satisfies(a -> {
                assertThat(a.severity().name()).isEqualTo("INFO");
                assertThat(a.where()).isEqualTo("sqlag02 / PROD");
                assertThat(a.summary()).isEqualTo("Availability group AG_Orders failed over from sqlag01/PROD to sqlag02/PROD at "
                        + t1);
                assertThat(a.details()).contains("Before: sqlag01/PROD").contains("After: sqlag02/PROD")
                        .contains("Databases: Orders, Payments");
            });
            RestorePlan orders = RestorePlanner.plan(after.databases().values().stream().filter(d -> d.name().equals("Orders"))
                    .findFirst().orElseThrow().chains()).orElseThrow();
            assertThat(orders.whole()).as("logs on SQLAG02, then on SQLAG01 after the move: one chain").isTrue();
            assertThat(orders.latestPoint()).isEqualTo(Instant.parse("2026-11-30T06:00:05Z"));
            assertThat(orders.logs().get(orders.logs().size() - 1).last().scope()).isEqualTo("sqlag01/PROD");
            assertThat(CONFIG.evaluator().evaluate(after).alerts()).filteredOn(a -> a.rule().equals("log-chain-broken"))
                    .extracting(Alert::database).as("Payments' gap stays until a full").containsExactly("Payments");

            assertThat(failovers(live.refresh(store, t1.plus(Duration.ofHours(2))).analysis())).as("within the day").hasSize(1);
            // a collector started after the move (a restart) knows it from the replica role changes the store kept
            List<Alert> restarted = failovers(new LiveFleet(CONFIG.analysis(), h -> Set.of())
                    .refresh(store, t1.plus(Duration.ofHours(13))).analysis());
            assertThat(restarted).singleElement().satisfies(a -> {
                assertThat(a.summary()).isEqualTo("Availability group AG_Orders failed over from sqlag01/PROD to sqlag02/PROD at "
                        + t1);
                assertThat(a.details()).as("the old primary's fulls have not come since, 13 hours on")
                        .contains("Stopped since the failover: ").contains("full backups of Orders (last on sqlag01/PROD at ");
            });
            assertThat(failovers(live.refresh(store, t1.plus(Duration.ofHours(25))).analysis())).as("a day later").isEmpty();
        }
    }
}
