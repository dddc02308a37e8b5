package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Jobs.OLA_FAILURE;
import static io.qatwatch.collector.testing.Jobs.backupJob;
import static io.qatwatch.collector.testing.Jobs.daily;
import static io.qatwatch.collector.testing.Jobs.instance;
import static io.qatwatch.collector.testing.Jobs.outcome;
import static io.qatwatch.collector.testing.Jobs.report;
import static io.qatwatch.collector.testing.Jobs.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * backup-job-failed through the store, with an injected clock: a failed Ola Hallengren job fires minutes after its
 * run and resolves after the next successful one; a step failing in a run still going fires before the outcome is
 * written; a purged history and a renamed job raise nothing false. After every step the alert stage's incremental
 * fleet gives the alerts a fresh read of the store gives.
 */
class BackupJobFailedScenarioTest {

    /** Monday 2026-11-30; the job runs at 02:00 UTC, business 07:00 (the built-in calendar, UTC). */
    private static final Instant MONDAY = Instant.parse("2026-11-30T00:00:00Z");
    private static final String JOB = "9C2B1E44-7A1F-4F0B-9E57-0D8E61A2C3B4";
    private static final String NAME = "DatabaseBackup - USER_DATABASES - FULL";
    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();

    @TempDir
    Path dir;

    private final List<JobRun> history = new ArrayList<>();
    private long ids = 100;

    private static Instant at(int day, int hour, int minute) {
        return MONDAY.plus(Duration.ofDays(day)).plus(Duration.ofHours(hour)).plus(Duration.ofMinutes(minute));
    }

    private static List<AgentJob> jobs(String name) {
        return List.of(backupJob(JOB, name, List.of("SalesDW", "HR"), daily("02:00:00", at(7, 2, 0))));
    }

    /** One run of the job: its single step, then its outcome, as Agent writes them. */
    private List<JobRun> run(String name, Instant start, String status, String message) {
        List<JobRun> rows = List.of(
                step(++ids, JOB, name, 1, "DatabaseBackup", status, start, 125, message,
                        "FAILED".equals(status) ? 3201 : null, "FAILED".equals(status) ? 16 : null),
                outcome(++ids, JOB, name, status, start, 126, "FAILED".equals(status)
                        ? "The job failed.  The Job was invoked by Schedule 1 (Nightly).  The last step to run was step 1 (DatabaseBackup)."
                        : "The job succeeded.  The Job was invoked by Schedule 1 (Nightly).  The last step to run was step 1 (DatabaseBackup)."));
        history.addAll(rows);
        return rows;
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aFailedRunFiresWithinMinutesAndResolvesAfterTheNextSuccessfulOne(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            for (int night = -3; night < 1; night++) {
                send(store, at(night, 2, 5), jobs(NAME), run(NAME, at(night, 2, 0), "SUCCEEDED", "Executed as user: CORP\\sqlagent."));
            }
            assertThat(evaluate(store, live, at(1, 1, 0))).as("four good nights").isEmpty();

            send(store, at(1, 2, 3), jobs(NAME), run(NAME, at(1, 2, 0), "FAILED", OLA_FAILURE));
            List<Alert> alerts = evaluate(store, live, at(1, 2, 4));
            assertThat(alerts).singleElement().satisfies(a -> {
                assertThat(a.rule()).isEqualTo("backup-job-failed");
                assertThat(a.where()).isEqualTo("sql01 / PROD");
                assertThat(a.summary()).isEqualTo("Backup job " + NAME + " failed at step 1 (DatabaseBackup) on Tue 2026-12-01 02:00 UTC");
                assertThat(a.details()).contains("SQL Server said: Msg 3201, Level 16: Executed as user: CORP\\sqlagent. "
                        + "Msg 3201, Sev 16, State 1, Line 1 : Cannot open backup device")
                        .contains("Databases: full of SalesDW, HR")
                        .contains("Last success: Mon 2026-11-30 02:00 UTC")
                        .contains("Job outcome: The job failed.");
            });

            assertThat(evaluate(store, live, at(1, 20, 0))).as("it keeps firing until the job succeeds").hasSize(1);
            send(store, at(2, 2, 5), jobs(NAME), run(NAME, at(2, 2, 0), "SUCCEEDED", "Executed as user: CORP\\sqlagent."));
            assertThat(evaluate(store, live, at(2, 2, 6))).as("resolved by the next successful run").isEmpty();

            // a step that fails while the run goes on (the outcome row is written last) fires before the run ends
            JobRun failing = step(++ids, JOB, NAME, 1, "DatabaseBackup", "FAILED", at(3, 2, 0), 30, OLA_FAILURE, 3201, 16);
            send(store, at(3, 2, 1), jobs(NAME), List.of(failing));
            assertThat(evaluate(store, live, at(3, 2, 2))).singleElement()
                    .satisfies(a -> assertThat(a.details()).contains("Run: still running, no outcome yet"));
        }
    }

    @Test
    void aPurgedHistoryAndARenamedJobRaiseNoFalseAlert() throws Exception {
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            // sp_purge_jobhistory @oldest_date deletes by run date: a run's outcome row (dated at the job's start) can go
            // while its steps, started after midnight, stay. A fresh agent's first sync then sends orphaned steps: an
            // old failed one before later good runs, and a job whose only history left is a failed step days old.
            List<JobRun> first = new ArrayList<>();
            first.add(step(++ids, JOB, NAME, 1, "DatabaseBackup", "FAILED", at(-10, 0, 1), 60, OLA_FAILURE, 3201, 16));
            for (int night = -9; night < 0; night++) {
                first.addAll(run(NAME, at(night, 2, 0), "SUCCEEDED", "ok"));
            }
            String other = "1D0C6A55-2222-4C9E-8D11-5E6F7A8B9C0D";
            first.add(step(++ids, other, "LogBackups", 1, "DatabaseBackup", "FAILED", at(-3, 0, 5), 10, OLA_FAILURE, 3201, 16));
            List<AgentJob> jobs = new ArrayList<>(jobs(NAME));
            jobs.add(new AgentJob(other, "LogBackups", null, true, true, List.of("LOG"), List.of(), "OLA_HALLENGREN", List.of()));
            send(store, at(0, 8, 0), jobs, first);
            assertThat(evaluate(store, live, at(0, 8, 1))).as("orphaned steps of purged runs are no failure").isEmpty();

            // the job fails, is then renamed, and succeeds under its new name: one alert, by job id, resolved
            send(store, at(1, 2, 3), jobs(NAME), run(NAME, at(1, 2, 0), "FAILED", OLA_FAILURE));
            Alert before = evaluate(store, live, at(1, 2, 4)).get(0);
            send(store, at(1, 9, 0), jobs("Nightly full"), List.of());
            List<Alert> renamed = evaluate(store, live, at(1, 9, 1));
            assertThat(renamed).singleElement().satisfies(a -> {
                assertThat(a.id()).as("the same alert: it is keyed by job id").isEqualTo(before.id());
                assertThat(a.summary()).startsWith("Backup job Nightly full failed");
                assertThat(a.details()).contains("Job: Nightly full (OLA_HALLENGREN), named " + NAME + " when it ran");
            });
            send(store, at(2, 2, 5), jobs("Nightly full"), run("Nightly full", at(2, 2, 0), "SUCCEEDED", "ok"));
            assertThat(evaluate(store, live, at(2, 2, 6))).as("the run under the new name resolves it").isEmpty();

            // a deleted job's old failure does not come back
            send(store, at(2, 3, 0), List.of(), run(NAME, at(2, 2, 30), "FAILED", OLA_FAILURE));
            assertThat(evaluate(store, live, at(2, 3, 1))).as("a job no longer in sysjobs is not judged").isEmpty();
        }
    }

    private static void send(SqlReportStore store, Instant at, List<AgentJob> jobs, List<JobRun> runs) throws Exception {
        store.store("sql01", report("sql01", at, instance("PROD", at, List.of(Histories.db("SalesDW", "FULL"),
                Histories.db("HR", "SIMPLE")), List.of(), jobs, runs, List.of(), List.of())), at);
    }

    /** The backup-job-failed alerts at {@code now}: the alert stage's, checked equal to a fresh read's. */
    private static List<Alert> evaluate(SqlReportStore store, LiveFleet live, Instant now) throws Exception {
        AlertEvaluator evaluator = CONFIG.evaluator();
        FleetAnalysis incremental = live.refresh(store, now).analysis();
        FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()),
                CONFIG.analysis(), now);
        List<Alert> alerts = evaluator.evaluate(fresh).alerts().stream().filter(a -> a.rule().equals("backup-job-failed")).toList();
        assertThat(evaluator.evaluate(incremental).alerts().stream().filter(a -> a.rule().equals("backup-job-failed")))
                .as("the alert stage's fleet at %s", now).isEqualTo(alerts);
        return alerts;
    }
}
