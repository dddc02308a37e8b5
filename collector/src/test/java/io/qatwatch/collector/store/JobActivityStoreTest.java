package io.qatwatch.collector.store;

import static io.qatwatch.collector.testing.Jobs.backupCommand;
import static io.qatwatch.collector.testing.Jobs.backupJob;
import static io.qatwatch.collector.testing.Jobs.daily;
import static io.qatwatch.collector.testing.Jobs.instance;
import static io.qatwatch.collector.testing.Jobs.outcome;
import static io.qatwatch.collector.testing.Jobs.report;
import static io.qatwatch.collector.testing.Jobs.restore;
import static io.qatwatch.collector.testing.Jobs.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.InstanceHead;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Jobs, job runs, CommandLog rows and restores in both stores: each row once however often it is sent, the jobs
 * section kept when a report leaves it out, a counter that moves only when something changed, and retention.
 */
class JobActivityStoreTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:00Z");
    private static final String JOB = "5F1A6C2E-3B4D-4E5F-8A9B-0C1D2E3F4A5B";

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void everyRowIsStoredOnceAndTheCounterMovesOnlyOnChange(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            Instant night = AT.minus(Duration.ofHours(4));
            List<AgentJob> jobs = List.of(backupJob(JOB, "DatabaseBackup - USER_DATABASES - FULL", List.of("SalesDW"),
                    daily("02:00:00", AT.plus(Duration.ofHours(20)))));
            List<JobRun> runs = List.of(
                    step(101, JOB, "DatabaseBackup - USER_DATABASES - FULL", 1, "DatabaseBackup", "FAILED", night, 130,
                            Jobs.OLA_FAILURE, 3201, 16),
                    outcome(102, JOB, "DatabaseBackup - USER_DATABASES - FULL", "FAILED", night, 131, "The job failed."));
            BackupRecord striped = new BackupRecord(7, "SalesDW", "g-sales", "D", false, night, night.plusSeconds(3600), true,
                    500L << 30, 200L << 30, "QAT_DEFLATE", true, null, null, null, "URL", "URL", "f-sales", false, 4);
            AgentReport first = report("sql01", AT, instance("PROD", AT, List.of(Histories.db("SalesDW", "FULL")),
                    List.of(striped), jobs, runs, List.of(backupCommand(9, "SalesDW", night, "ZSTD", "MEDIUM")),
                    List.of(restore(3, "SalesDW_check", night, "sql02", "SalesDW", "g-other", "f-sales"))));
            store.store("sql01", first, AT);
            long seq = jobsSeq(store);
            assertThat(seq).as("the first report moves the counter").isPositive();

            // the same rows again, under a new report id (an agent that lost its high-water marks), and the same jobs
            store.store("sql01", report("sql01", AT.plusSeconds(60), first.instances().get(0)), AT.plusSeconds(60));
            assertThat(jobsSeq(store)).as("nothing new: the counter stays").isEqualTo(seq);
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM job_runs")).isEqualTo(2);
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM command_log")).isEqualTo(1);
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM restores")).isEqualTo(1);

            // a report without the jobs section (not read this cycle) keeps it; a new run moves the counter
            store.store("sql01", report("sql01", AT.plusSeconds(120), instance("PROD", AT.plusSeconds(120), null, null, null,
                    List.of(outcome(103, JOB, "DatabaseBackup - USER_DATABASES - FULL", "SUCCEEDED", AT, 3600, "ok")),
                    null, null)), AT.plusSeconds(120));
            assertThat(jobsSeq(store)).isGreaterThan(seq);

            JobActivity a = store.jobActivity("sql01", "PROD", AT.minus(Duration.ofDays(1)));
            assertThat(a.jobsStatus()).isEqualTo("AVAILABLE");
            assertThat(a.jobs()).isEqualTo(jobs);
            assertThat(a.runs()).extracting(JobRun::instanceId).containsExactly(101L, 102L, 103L);
            assertThat(a.runs().get(0)).isEqualTo(runs.get(0));
            assertThat(a.commandLog()).singleElement().satisfies(c -> {
                assertThat(c.algorithm()).isEqualTo("ZSTD");
                assertThat(c.level()).isEqualTo("MEDIUM");
            });
            assertThat(a.restores()).singleElement().satisfies(r -> assertThat(r.familyGuid()).isEqualTo("f-sales"));
            assertThat(store.backups("sql01", "PROD", Instant.EPOCH)).singleElement()
                    .satisfies(b -> assertThat(b.backup().mediaFamilyCount()).isEqualTo(4));

            long before = jobsSeq(store);
            List<AgentJob> renamed = List.of(backupJob(JOB, "Nightly full", List.of("SalesDW")));
            store.store("sql01", report("sql01", AT.plusSeconds(180), instance("PROD", AT.plusSeconds(180), null, null,
                    renamed, List.of(), null, null)), AT.plusSeconds(180));
            assertThat(jobsSeq(store)).as("a renamed job changes the section").isGreaterThan(before);
            assertThat(store.jobActivity("sql01", "PROD", Instant.EPOCH).jobs()).isEqualTo(renamed);

            store.prune(AT.minus(Duration.ofHours(1)), AT.minus(Duration.ofDays(30)));
            JobActivity pruned = store.jobActivity("sql01", "PROD", Instant.EPOCH);
            assertThat(pruned.runs()).as("runs that started before the cut are gone").extracting(JobRun::instanceId)
                    .containsExactly(103L);
            assertThat(pruned.commandLog()).isEmpty();
            assertThat(pruned.restores()).isEmpty();
            assertThat(pruned.jobs()).as("the latest section stays").isEqualTo(renamed);
            assertThat(store.jobActivity("sql01", "NOPE", Instant.EPOCH)).isEqualTo(JobActivity.NONE);
        }
    }

    private static long jobsSeq(SqlReportStore store) throws Exception {
        return store.fleetHeads().get(0).instances().stream().filter(i -> i.name().equals("PROD"))
                .mapToLong(InstanceHead::jobsSeq).findFirst().orElseThrow();
    }
}
