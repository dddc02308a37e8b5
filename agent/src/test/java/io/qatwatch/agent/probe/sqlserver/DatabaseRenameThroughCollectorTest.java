package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.analysis.RestorePlans;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.web.DatabaseEventsJson;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A renamed database is one database (issue 31): the agent reads sql2022-database-renamed through mssql-jdbc three times
 * (Billing switched from SIMPLE to FULL, then renamed to Invoicing), the collector stores the reports and keeps the rename
 * as a rename event, not a disappearance and an appearance, because the database_guid stayed; Invoicing's events include
 * Billing's before the rename, and its restore plan starts from the full taken under the old name.
 */
class DatabaseRenameThroughCollectorTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();
    private static final Instant T0 = Instant.parse("2026-11-30T06:18:00Z");
    private static final Instant T1 = T0.plusSeconds(3600);
    private static final Instant T2 = T1.plusSeconds(3600);

    @TempDir
    Path dir;

    @Test
    void aRenameIsARenameEventAndTheDatabaseKeepsItsHistory() throws Exception {
        ReadClock clock = new ReadClock(T0);
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2022-database-renamed"));
             Database db = Database.open(dir.resolve("collector"))) {
            SqlReportStore store = new SqlReportStore(db);
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), clock);
            ScenarioReads.readAndStore(probe, clock, List.of(T0, T1, T2), store, "sqlren01");
            assertThat(server.batches().stream().filter(b -> b.contains("database-guids.sql")))
                    .as("the GUIDs asked again when create_date showed the rename").hasSize(2);

            List<DatabaseEvent> events = store.databaseEvents("sqlren01", "PROD", Instant.EPOCH);
            assertThat(events).extracting(DatabaseEvent::at, DatabaseEvent::database, DatabaseEvent::kind, DatabaseEvent::before,
                    DatabaseEvent::after).containsExactly(
                    tuple(T1, "Billing", DatabaseEvent.RECOVERY_MODEL_CHANGED, "SIMPLE", "FULL"),
                    tuple(T2, "Invoicing", DatabaseEvent.RENAMED, "Billing", "Invoicing"));
            assertThat(events.get(1).summary()).isEqualTo("Billing was renamed to Invoicing");
            assertThat(DatabaseEventsJson.of("sqlren01", "PROD", "Invoicing", Instant.EPOCH, events).events())
                    .as("the database's events follow it through the rename")
                    .extracting(DatabaseEventsJson.Event::kind)
                    .containsExactly(DatabaseEvent.RECOVERY_MODEL_CHANGED, DatabaseEvent.RENAMED);

            RestorePlan plan = RestorePlans.read(store, "sqlren01", "PROD", "Invoicing", Instant.EPOCH).orElseThrow().plan()
                    .orElseThrow();
            assertThat(plan.full().backupSetId()).as("the full taken as Billing after the switch to FULL").isEqualTo(9004);
            assertThat(plan.logs()).flatExtracting(l -> List.of(l.first().backupSetId(), l.last().backupSetId()))
                    .containsExactly(9005L, 9005L, 9006L, 9006L);
            assertThat(plan.whole()).isTrue();
            assertThat(plan.latestPoint()).isEqualTo(Instant.parse("2026-11-30T08:15:05Z"));

            var fleet = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, T2.plusSeconds(60)).analysis();
            var invoicing = fleet.databases().values().stream().filter(d -> d.name().equals("Invoicing")).findFirst().orElseThrow();
            assertThat(invoicing.chains()).as("one database in the alert stage too, its backups under both names")
                    .singleElement().satisfies(c -> assertThat(c.links()).extracting(ChainLink::logs).containsExactly(2));
            assertThat(fleet.databases().values()).extracting(m -> m.name()).doesNotContain("Billing");
            assertThat(CONFIG.evaluator().evaluate(fleet).alerts()).filteredOn(a -> "Invoicing".equals(a.database()))
                    .extracting(a -> a.rule()).doesNotContain("log-chain-broken", "backup-missing");
        }
    }
}
