package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.AgentGoldens;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 31's TDS scenarios (agent/src/test/resources/sqlserver/scenarios/sql2022-log-chains.json and the two
 * sql2022-chain-ag-* replicas, written from the backupset and backupmediafamily pages) as the agent read them through
 * mssql-jdbc (its golden snapshots), stored by the collector on SQLite and PostgreSQL and judged by log-chain-broken and
 * differential-base-missing, in the alert stage's incremental fleet and in a fleet loaded afresh.
 */
class LogChainScenariosTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();

    @TempDir
    Path dir;

    private static final Set<String> RULES = Set.of("log-chain-broken", "differential-base-missing");

    private static List<Alert> chainAlerts(FleetAnalysis fleet) {
        return CONFIG.evaluator().evaluate(fleet).alerts().stream().filter(a -> RULES.contains(a.rule())).toList();
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void eachScenarioGivesItsAlertTextAndRestorePlan(Database.Kind kind) throws Exception {
        SqlInstanceSnapshot chains = AgentGoldens.snapshot("sql2022-log-chains");
        SqlInstanceSnapshot primary = AgentGoldens.snapshot("sql2022-chain-ag-primary");
        SqlInstanceSnapshot secondary = AgentGoldens.snapshot("sql2022-chain-ag-secondary");
        Instant now = chains.collectedAt();
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sqlchain01", Jobs.report("sqlchain01", now, chains), now);
            store.store("sqlag01", Jobs.report("sqlag01", now, primary), now);
            store.store("sqlag02", Jobs.report("sqlag02", now, secondary), now);
            FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()),
                    CONFIG.analysis(), now);
            FleetAnalysis live = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, now).analysis();

            List<Alert> alerts = chainAlerts(fresh);
            assertThat(chainAlerts(live)).as("the alert stage's fleet").isEqualTo(alerts);
            Map<String, Alert> byDatabase = alerts.stream().collect(Collectors.toMap(a -> a.rule() + ":" + a.database(), a -> a));
            assertThat(byDatabase.keySet()).containsExactlyInAnyOrder("log-chain-broken:Billing", "log-chain-broken:Hr",
                    "log-chain-broken:Crm", "log-chain-broken:Payments", "differential-base-missing:Payroll");

            assertThat(byDatabase.get("log-chain-broken:Billing")).satisfies(a -> {
                assertThat(a.severity().name()).isEqualTo("CRITICAL");
                assertThat(a.summary()).isEqualTo("Log chain of Billing broken: no log backup between 2026-11-29T17:00:05Z on "
                        + "sqlchain01/PROD and 2026-11-29T23:00:05Z on sqlchain01/PROD");
                assertThat(a.details()).contains("Gap: LSN 52000000030000001 to 52000000035000001")
                        .contains("Billing_LOG_20261129_180000.trn").contains("Billing_LOG_20261130_000000.trn")
                        .contains("Likely cause: a log backup that msdb does not hold")
                        .contains("Not restorable: every point in time from 2026-11-29T17:00:05Z to 2026-11-30T05:00:05Z")
                        .contains("Restore plan: full of 2026-11-29T00:00:40Z on sqlchain01/PROD (\\\\nas01\\sql\\SQLCHAIN01\\Billing"
                                + "\\FULL\\Billing_FULL_20261129_010000.bak) + 2 log backups to 2026-11-29T17:00:05Z");
            });
            assertThat(byDatabase.get("log-chain-broken:Hr").summary())
                    .isEqualTo("Log chain of Hr broken: the log backup of 2026-11-29T14:00:05Z on sqlchain01/PROD went to NUL");
            assertThat(byDatabase.get("log-chain-broken:Hr").details()).contains("Likely cause: a log backup written to NUL")
                    .contains("Next log after the break: log backup finished 2026-11-29T17:00:05Z on sqlchain01/PROD");
            assertThat(byDatabase.get("log-chain-broken:Crm").summary()).isEqualTo("Log chain of Crm broken: the log backup of "
                    + "2026-11-29T14:00:05Z on sqlchain01/PROD was taken by another tool ({4F1A8D2C-3B6E-4C1D-9A7F-2E5B8C0D1F3A}1)");
            assertThat(byDatabase.get("log-chain-broken:Crm").details()).contains("device VIRTUAL_DEVICE");
            assertThat(byDatabase.get("log-chain-broken:Payments")).satisfies(a -> {
                assertThat(a.host()).as("named on the primary").isEqualTo("sqlag01");
                assertThat(a.summary()).isEqualTo("Log chain of Payments broken: no log backup between 2026-11-29T17:00:05Z on "
                        + "sqlag01/PROD and 2026-11-29T23:00:05Z on sqlag02/PROD");
                assertThat(a.details()).contains("Availability group: AG_Orders");
            });
            assertThat(byDatabase.get("differential-base-missing:Payroll")).satisfies(a -> {
                assertThat(a.severity().name()).isEqualTo("WARNING");
                assertThat(a.summary()).isEqualTo("Differential of Payroll of 2026-11-29T21:00:20Z has no base full in msdb");
                assertThat(a.details()).contains("base LSN 17000000010400001").contains("Newest full: none that msdb holds")
                        .contains("Newest copy-only full: copy-only full backup finished 2026-11-27T13:00:40Z");
            });

            RestorePlan orders = plan(live, "Orders");
            assertThat(orders.whole()).as("fulls on the primary, logs on the secondary: whole across them").isTrue();
            assertThat(orders.full().scope()).isEqualTo("sqlag01/PROD");
            assertThat(orders.logs()).extracting(l -> l.first().scope()).containsOnly("sqlag02/PROD");
            assertThat(orders.logCount()).isEqualTo(4);
            assertThat(orders.latestPoint()).isEqualTo(Instant.parse("2026-11-30T05:00:05Z"));

            RestorePlan stock = plan(fresh, "Stock");
            assertThat(stock.whole()).as("FULL -> SIMPLE -> FULL: the differential after the switch back bridges it").isTrue();
            assertThat(stock.differential().finishedAt()).isEqualTo(Instant.parse("2026-11-29T21:00:20Z"));
            assertThat(stock.differential().recoveryModel()).isEqualTo("FULL");
            assertThat(stock.logCount()).isEqualTo(2);

            RestorePlan ledger = plan(fresh, "Ledger");
            assertThat(ledger.full().copyOnly()).as("the differential's base is Sunday's full, not the copy-only one").isFalse();
            assertThat(ledger.differential()).isNotNull();
            assertThat(ledger.head()).startsWith("full of 2026-11-22T00:00:40Z").contains("+ differential of 2026-11-29T21:00:20Z")
                    .endsWith("+ 1 log backup to 2026-11-29T23:00:05Z");

            RestorePlan archive = plan(fresh, "Archive");
            assertThat(archive.latestLsn()).as("the largest numeric(25,0), exact").hasToString("9999999999999999999999999");
            assertThat(archive.whole()).isTrue();
            assertThat(plan(fresh, "Sales").whole()).isTrue();
            assertThat(plan(fresh, "Hr").broken().kind()).isEqualTo(ChainLink.NUL);
        }
    }

    private static RestorePlan plan(FleetAnalysis fleet, String name) {
        MergedDatabase db = fleet.databases().values().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
        return ChainRules.plan(db).orElseThrow();
    }
}
