package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.RestoreTests;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.AgentGoldens;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.window.CreepAnalysis;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.JobOverlaps;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent reads from its TDS scenarios (its golden snapshots, agent/src/test/resources/sqlserver/golden),
 * stored by the collector and judged by its rules: the agent and the collector agree on issue 15's sections.
 */
class AgentScenariosTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();

    @TempDir
    Path dir;

    private static SqlInstanceSnapshot withRuns(SqlInstanceSnapshot s, List<JobRun> runs) {
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(), s.accelerators(), s.databases(),
                s.backups(), s.runningBackups(), s.certificates(), s.backupHighWaterMark(), s.asymmetricKeys(),
                s.runningBackupsHiddenFor(), s.jobsStatus(), s.jobs(), runs, s.jobHistoryHighWaterMark(), s.commandLog(),
                s.commandLogHighWaterMark(), s.restores(), s.restoreHighWaterMark());
    }

    private static FleetAnalysis analyse(SqlReportStore store, Instant now) throws Exception {
        return new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()), CONFIG.analysis(), now);
    }

    /**
     * The failed Ola Hallengren run of the scenario fires with the message SQL Server Agent logged for its step; the log
     * backup job's good run a quarter of an hour later is another job and resolves nothing, the FULL job's next good run
     * does; the other server's restore of Payments counts as its restore
     * test; the indexoptimize scenario's IndexOptimize overlaps SalesDW's windows more and more.
     */
    @Test
    void theAgentsScenariosFireAndResolveInTheCollector() throws Exception {
        SqlInstanceSnapshot ola = AgentGoldens.snapshot("sql2022-ola-backup-failed");
        JobRun failedOutcome = ola.jobRuns().stream().filter(r -> r.stepId() == 0 && r.status().equals("FAILED")).findFirst()
                .orElseThrow();
        JobRun failedStep = ola.jobRuns().stream().filter(r -> r.stepId() != 0 && r.status().equals("FAILED")).findFirst()
                .orElseThrow();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            Instant justAfter = failedOutcome.startedAt().plusSeconds(failedOutcome.durationSeconds() + 60);
            store.store("sql01", Jobs.report("sql01", justAfter, withRuns(ola, ola.jobRuns().stream()
                    .filter(r -> r.instanceId() <= failedOutcome.instanceId()).toList())), justAfter);
            List<Alert> failed = CONFIG.evaluator().evaluate(analyse(store, justAfter)).alerts().stream()
                    .filter(a -> a.rule().equals("backup-job-failed")).toList();
            assertThat(failed).singleElement().satisfies(a -> {
                assertThat(a.summary()).startsWith("Backup job " + failedOutcome.jobName() + " failed at step 1");
                assertThat(a.details()).contains(failedStep.message().strip());
            });

            store.store("sql01", Jobs.report("sql01", ola.collectedAt(), ola), ola.collectedAt());
            assertThat(CONFIG.evaluator().evaluate(analyse(store, ola.collectedAt())).alerts().stream()
                    .filter(a -> a.rule().equals("backup-job-failed")).map(Alert::subject))
                    .as("the LOG job's good run at 00:45 is another job: the FULL job's failure stands")
                    .containsExactly(failedOutcome.jobId());
            Instant tonight = failedOutcome.startedAt().plus(java.time.Duration.ofDays(1));
            store.store("sql01", Jobs.report("sql01", tonight.plusSeconds(600), withRuns(ola, List.of(
                    Jobs.step(failedOutcome.instanceId() + 100, failedOutcome.jobId(), failedOutcome.jobName(), 1,
                            failedStep.stepName(), "SUCCEEDED", tonight, 300, "The step succeeded.", null, null),
                    Jobs.outcome(failedOutcome.instanceId() + 101, failedOutcome.jobId(), failedOutcome.jobName(), "SUCCEEDED",
                            tonight, 301, "The job succeeded.")))), tonight.plusSeconds(600));
            assertThat(CONFIG.evaluator().evaluate(analyse(store, tonight.plusSeconds(660))).alerts())
                    .as("the FULL job's next good run resolves it").noneMatch(a -> a.rule().equals("backup-job-failed"));

            SqlInstanceSnapshot dr = AgentGoldens.snapshot("sql2022-restores-from-other-server");
            store.store("sqlstd22", Jobs.report("sqlstd22", dr.collectedAt(), dr), dr.collectedAt());
            FleetAnalysis fleet = analyse(store, dr.collectedAt());
            var payments = fleet.instance("sql01", ola.name()).orElseThrow().instance().databases().stream()
                    .filter(d -> d.name().equals("Payments")).findFirst().orElseThrow();
            RestoreTests.RestoreTest test = RestoreTests.last(fleet, payments).orElseThrow();
            assertThat(test.host()).isEqualTo("sqlstd22");
            assertThat(test.restore().sourceServer()).isEqualTo("SQL01\\PROD");
            assertThat(test.restore().restoredAt()).isEqualTo(dr.restores().stream().filter(r -> r.familyGuid() != null
                    && r.familyGuid().equals(payments.familyGuid())).map(r -> r.restoredAt()).max(Instant::compareTo).orElseThrow());

            SqlInstanceSnapshot overlap = AgentGoldens.snapshot("sql2022-indexoptimize-overlap");
            store.store("sql02", Jobs.report("sql02", overlap.collectedAt(), overlap), overlap.collectedAt());
            InstanceAnalysis ia = analyse(store, overlap.collectedAt()).instance("sql02", overlap.name()).orElseThrow();
            List<JobOverlaps.JobOverlap> trend = JobOverlaps.trend(ia.windows(), ia.instance().jobs().jobs(),
                    ia.instance().jobs().runs());
            assertThat(trend).first().satisfies(o -> {
                assertThat(o.jobName()).startsWith("IndexOptimize");
                assertThat(o.slopeMinutesPerDay()).isPositive();
                assertThat(o.latestMinutes()).isGreaterThan(o.firstMinutes());
            });
        }
    }

    /**
     * The VSS scenario: Files' nightly snapshot fulls (is_snapshot 1, "For VSS backups, backup_size is an estimated
     * value") open every window at 00:30, but weigh nothing when a night is called full or differential, and are no
     * creep driver, though their estimate grows 3 % a night and their freeze 2 s a night; Orders' streamed backups are.
     */
    @Test
    void snapshotBackupsCountForWhenAWindowRanNeverForHowBig() throws Exception {
        SqlInstanceSnapshot vss = AgentGoldens.snapshot("sql2022-vss-snapshot-sizes");
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sqlvss01", Jobs.report("sqlvss01", vss.collectedAt(), vss), vss.collectedAt());
            InstanceAnalysis ia = analyse(store, vss.collectedAt()).instance("sqlvss01", vss.name()).orElseThrow();
            List<NightlyWindow> windows = ia.windows();
            assertThat(windows).hasSize(11);
            for (NightlyWindow w : windows) {
                boolean ordersFull = w.backups().stream().anyMatch(b -> b.database().equals("Orders") && b.isFull());
                assertThat(w.kind()).as("night before %s", w.morning()).isEqualTo(ordersFull ? NightKind.FULL : NightKind.DIFFERENTIAL);
                assertThat(w.firstStart()).as("the snapshot at 00:30 opens the window").isEqualTo(w.backups().stream()
                        .filter(NightlyWindow.DatabaseBackup::snapshot).map(NightlyWindow.DatabaseBackup::startedAt)
                        .min(Instant::compareTo).orElseThrow());
            }
            assertThat(windows).filteredOn(w -> w.kind() == NightKind.FULL).hasSize(2);
            List<CreepTrend.DatabaseDriver> drivers = CreepAnalysis.drivers(windows, windows.get(0).businessStart());
            assertThat(drivers).extracting(CreepTrend.DatabaseDriver::database).containsExactly("Orders");
            assertThat(drivers.get(0).latestSizeBytes()).isLessThan(100_000_000_000L);
        }
    }

    /** Stripe counts and the CommandLog's ZSTD level, as the agent read them, reach the rules. */
    @Test
    void stripesAndTheJobsAlgorithmComeThrough() throws Exception {
        SqlInstanceSnapshot stripes = AgentGoldens.snapshot("sql2022-url-stripes");
        SqlInstanceSnapshot zstd = AgentGoldens.snapshot("sql2025-commandlog-zstd");
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql03", Jobs.report("sql03", stripes.collectedAt(), stripes), stripes.collectedAt());
            store.store("sql25", Jobs.report("sql25", zstd.collectedAt(), zstd), zstd.collectedAt());
            FleetAnalysis fleet = analyse(store, stripes.collectedAt());
            InstanceAnalysis urls = fleet.instance("sql03", stripes.name()).orElseThrow();
            var forecasts = UrlCeilingRules.urlFulls(urls.instance().backups(), fleet.config(), fleet.now()).values().stream()
                    .map(f -> UrlCeilingRules.forecast(f, RulesConfig.DEFAULTS.backupUrlSizeCeiling().bytesPerUrl(), 3))
                    .toList();
            assertThat(forecasts).extracting(UrlCeilingRules.Forecast::database, UrlCeilingRules.Forecast::families)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Orders", 1),
                            org.assertj.core.groups.Tuple.tuple("Ledger", 4));
            InstanceAnalysis sql25 = fleet.instance("sql25", zstd.name()).orElseThrow();
            assertThat(JobCommands.commands(sql25.instance(), Instant.EPOCH)).contains("ZSTD LEVEL = ").contains("for Catalog")
                    .contains("Msg 15129");
        }
    }
}
