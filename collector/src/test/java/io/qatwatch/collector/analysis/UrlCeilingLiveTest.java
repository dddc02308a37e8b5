package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.CONFIG;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * backup-url-size-ceiling from the running alert stage, not only from a fresh read of the store: the stage's digest and
 * the summary a restart reads it from keep each backup's number of media families (the URLs the ceiling is divided
 * by). Before, the digest dropped it and the rule could never fire in a running collector, while its rule tests, which
 * evaluate a fresh read, passed. The backups and the hand calculation are {@code JobEvidenceRulesTest}'s: SalesDW's
 * fulls to 4 URLs reach 4 × 104,857,600,000 bytes on 2026-12-10 (12:19 UTC), Billing's to one URL on 2026-11-30;
 * HR's URL count is unknown (an agent before issue 15), so no forecast.
 */
class UrlCeilingLiveTest {

    private static final Instant NOW = Instant.parse("2026-11-14T08:00:00Z");
    private final AlertEvaluator evaluator = CONFIG.evaluator();

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void theRunningStageAndARestartFromItsSummaryForecastTheUrlCeiling(Database.Kind kind, @TempDir Path dir)
            throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store(store);

            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            List<Alert> running = ceilings(live.refresh(store, NOW).analysis());
            List<Alert> fresh = ceilings(new FleetAnalysis(FleetStates.load(store, NOW, CONFIG.analysis(), h -> Set.of()),
                    CONFIG.analysis(), NOW));

            assertThat(running).extracting(Alert::database).containsExactly("SalesDW", "Billing");
            assertThat(running.get(0).forecast()).isEqualTo(LocalDate.of(2026, 12, 10));
            assertThat(running.get(1).forecast()).isEqualTo(LocalDate.of(2026, 11, 30));
            assertThat(running).as("the running stage as a fresh read of the store").isEqualTo(fresh);
            assertThat(live.summaryCounts().written()).as("the instance summarised").isEqualTo(1);

            LiveFleet restarted = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            List<Alert> afterRestart = ceilings(restarted.refresh(store, NOW).analysis());
            assertThat(restarted.summaryCounts().restored()).as("restored from its summary, not rebuilt").isEqualTo(1);
            assertThat(afterRestart).as("a restart from the summary").isEqualTo(fresh);

            // a minute later a log backup joins the digest kept in memory: the fulls keep their URL counts
            Instant later = NOW.plus(Duration.ofMinutes(1));
            store.store("sql01", report(later, List.of(new BackupRecord(999, "SalesDW", Histories.guid("SalesDW"), "L",
                    false, later.minusSeconds(90), later.minusSeconds(60), true, 1L << 20, 1L << 19, "MS_XPRESS", true,
                    "NO_Encryption", null, null, "URL", "URL", Histories.guid("SalesDW"), false, 1))), later);
            assertThat(ceilings(restarted.refresh(store, later).analysis())).extracting(Alert::database)
                    .containsExactly("SalesDW", "Billing");
        }
    }

    private List<Alert> ceilings(FleetAnalysis analysis) {
        return evaluator.evaluate(analysis).alerts().stream().filter(a -> a.rule().equals("backup-url-size-ceiling"))
                .toList();
    }

    private static void store(SqlReportStore store) throws Exception {
        List<BackupRecord> backups = Histories.growingUrlFulls();
        Instant at = NOW.minusSeconds(60);
        store.store("sql01", report(at, backups), at);
    }

    private static AgentReport report(Instant at, List<BackupRecord> backups) {
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, List.of(), List.of(),
                List.of(Histories.db("SalesDW", "FULL"), Histories.db("Billing", "FULL"), Histories.db("HR", "FULL")),
                backups, List.of(), List.of(), null);
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo("sql01", "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of());
    }
}
