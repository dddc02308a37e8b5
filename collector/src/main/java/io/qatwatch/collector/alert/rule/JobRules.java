package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.RestoreTests;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** backup-job-failed and restore-untested: what SQL Server Agent's history and msdb's restore history say. */
final class JobRules {

    static final String FAILED_WHY = "A SQL Server Agent job that takes backups failed or was cancelled. msdb's backup "
            + "history records only backups that succeeded, so nothing else shows this until a backup is missing hours "
            + "later; the databases below have no new restore point from this run.";
    static final String UNTESTED_WHY = "No host in the fleet restored this database's backups recently. A backup never "
            + "restored is a hope, not a recovery plan: a restore test finds missing keys, broken chains, QAT or "
            + "encryption prerequisites and too-slow restores before the day they matter.";

    private static final Set<String> FAILING = Set.of("FAILED", "CANCELED");
    private static final Set<String> SYSTEM_DATABASES = Set.of("master", "model", "msdb", "tempdb");

    private JobRules() {
    }

    /** What failed in a job's latest run: the failing step (or the outcome when no step failed), and the outcome. */
    record Failure(JobRun failed, JobRun outcome, boolean running) {
    }

    /**
     * The latest run's failure of a job whose history is {@code runs} (oldest first); null when it succeeded or never ran.
     * A run's steps carry lower {@code instance_id}s than its outcome row, which Agent writes last; steps above the latest
     * outcome belong to a run still going, and count only within {@code maxRunHours} of {@code now} (older ones belong
     * to a run whose outcome was purged: sp_purge_jobhistory deletes by date, the outcome first).
     */
    static Failure failure(List<JobRun> runs, Instant now, int maxRunHours) {
        JobRun outcome = null;
        for (JobRun r : runs) {
            if (r.stepId() == 0 && (outcome == null || r.instanceId() > outcome.instanceId())) {
                outcome = r;
            }
        }
        Instant recent = now.minus(Duration.ofHours(maxRunHours));
        JobRun running = null;
        JobRun failedStep = null;
        for (JobRun r : runs) {
            if (r.stepId() == 0 || !FAILING.contains(r.status())) {
                continue;
            }
            if (outcome == null || r.instanceId() > outcome.instanceId()) {
                if (!r.startedAt().isBefore(recent) && (running == null || r.instanceId() > running.instanceId())) {
                    running = r;
                }
            } else if (!r.startedAt().isBefore(outcome.startedAt()) && (failedStep == null || r.instanceId() > failedStep.instanceId())) {
                failedStep = r;
            }
        }
        if (running != null) {
            return new Failure(running, null, true);
        }
        if (outcome != null && (FAILING.contains(outcome.status()) || failedStep != null)) {
            return new Failure(failedStep != null ? failedStep : outcome, outcome, false);
        }
        return null;
    }

    static List<Alert> jobFailed(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.JobFailed cfg = rules.backupJobFailed();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            JobActivity a = ia.instance().jobs();
            if (a.jobs().isEmpty() || a.runs().isEmpty()) {
                continue;
            }
            Map<String, List<JobRun>> byJob = new HashMap<>();
            for (JobRun r : a.runs()) {
                byJob.computeIfAbsent(key(r.jobId()), k -> new ArrayList<>()).add(r);
            }
            ZoneId zone = ia.calendar().zone();
            for (AgentJob job : a.jobs()) {
                List<JobRun> runs = byJob.get(key(job.jobId()));
                if (!job.backupJob() || runs == null) {
                    continue;
                }
                Failure f = failure(runs, fleet.now(), cfg.maxRunHours());
                if (f == null) {
                    continue;
                }
                out.add(failedAlert(cfg, ia, job, runs, f, zone, fleet.config().windows().lookbackDays()));
            }
        }
        return out;
    }

    private static Alert failedAlert(RulesConfig.JobFailed cfg, InstanceAnalysis ia, AgentJob job, List<JobRun> runs,
            Failure f, ZoneId zone, int lookbackDays) {
        JobRun failed = f.failed();
        String what = failed.stepId() == 0 ? "" : " at step " + failed.stepId() + " (" + failed.stepName() + ")";
        String how = "CANCELED".equals(failed.status()) ? "was cancelled" : "failed";
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Job", job.name() + (job.kind() == null ? "" : " (" + job.kind() + ")")
                + (failed.jobName() != null && !failed.jobName().equals(job.name()) ? ", named " + failed.jobName()
                + " when it ran" : "")));
        if (failed.stepId() != 0) {
            facts.add(new Fact("Step", failed.stepId() + " " + failed.stepName() + ", " + failed.status()
                    + " at " + Fmt.when(failed.startedAt(), zone) + " after " + Fmt.minutes(failed.durationSeconds() / 60.0)));
        }
        facts.add(f.running() ? new Fact("Run", "still running, no outcome yet")
                : new Fact("Run", f.outcome().status() + ", started " + Fmt.when(f.outcome().startedAt(), zone) + ", "
                        + Fmt.minutes(f.outcome().durationSeconds() / 60.0)));
        facts.add(new Fact("SQL Server said", message(failed)));
        if (f.outcome() != null && failed != f.outcome() && f.outcome().message() != null) {
            facts.add(new Fact("Job outcome", f.outcome().message()));
        }
        facts.add(new Fact("Databases", databases(job)));
        Optional<JobRun> lastGood = runs.stream().filter(r -> r.stepId() == 0 && "SUCCEEDED".equals(r.status()))
                .max(Comparator.comparingLong(JobRun::instanceId));
        facts.add(new Fact("Last success", lastGood.map(r -> Fmt.when(r.startedAt(), zone))
                .orElse("none in the last " + lookbackDays + " days")));
        return new Alert("backup-job-failed", cfg.severity(), ia.host().host(), ia.instance().name(), null,
                key(job.jobId()), "Backup job " + job.name() + " " + how + what + " on " + Fmt.when(failed.startedAt(), zone),
                FAILED_WHY, facts, List.of());
    }

    private static String message(JobRun r) {
        String m = r.message() == null || r.message().isBlank() ? "(no message)" : r.message().strip();
        if (r.sqlMessageId() != null) {
            m = "Msg " + r.sqlMessageId() + (r.sqlSeverity() == null ? "" : ", Level " + r.sqlSeverity()) + ": " + m;
        }
        return m;
    }

    private static String databases(AgentJob job) {
        String types = job.backupTypes() == null || job.backupTypes().isEmpty() ? ""
                : String.join("/", job.backupTypes()).toLowerCase(Locale.ROOT) + " of ";
        if (job.databases() == null || job.databases().isEmpty()) {
            return types + "the databases its steps select (all, or a set such as USER_DATABASES)";
        }
        return types + String.join(", ", job.databases());
    }

    static String key(String jobId) {
        return jobId == null ? "" : jobId.toLowerCase(Locale.ROOT);
    }

    /** The database behind a merged database: its row on the instance that names it. */
    static Optional<DatabaseInfo> info(FleetAnalysis fleet, MergedDatabase m) {
        return fleet.instance(m.host(), m.instance()).flatMap(ia -> ia.instance().databases().stream()
                .filter(d -> d.name() != null && d.name().equalsIgnoreCase(m.name())).findFirst());
    }

    static boolean systemDatabase(String name) {
        return name != null && SYSTEM_DATABASES.contains(name.toLowerCase(Locale.ROOT));
    }

    static List<Alert> restoreUntested(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.RestoreUntested cfg = rules.restoreUntested();
        Instant since = fleet.now().minus(Duration.ofDays(cfg.maxAgeDays()));
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase m : fleet.databases().values()) {
            if (m.silent() || systemDatabase(m.name()) || m.backups().stream().noneMatch(b -> b.isFull())) {
                continue;
            }
            Optional<DatabaseInfo> db = info(fleet, m);
            if (db.isEmpty()) {
                continue;
            }
            Optional<RestoreTests.RestoreTest> last = RestoreTests.last(fleet, db.get());
            if (last.isPresent() && !last.get().restore().restoredAt().isBefore(since)) {
                continue;
            }
            ZoneId zone = fleet.instance(m.host(), m.instance()).map(ia -> ia.calendar().zone()).orElse(ZoneId.of("UTC"));
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Objective", "a restore of its backups at least every " + cfg.maxAgeDays() + " days"));
            String summary;
            if (last.isEmpty()) {
                summary = "No restore of " + m.name() + "'s backups anywhere in the fleet in the last "
                        + fleet.config().windows().lookbackDays() + " days";
            } else {
                RestoreTests.RestoreTest t = last.get();
                long days = Duration.between(t.restore().restoredAt(), fleet.now()).toDays();
                summary = "Last restore test of " + m.name() + "'s backups was " + days + " days ago";
                facts.add(new Fact("Last restore", Fmt.when(t.restore().restoredAt(), zone) + " on " + t.host() + "/"
                        + t.instance() + " as " + t.restore().destinationDatabase()));
            }
            facts.add(new Fact("Matched by", "family GUID " + nz(db.get().familyGuid()) + " or database GUID "
                    + nz(db.get().databaseGuid()) + " in each restoring host's restorehistory"));
            out.add(new Alert("restore-untested", cfg.severity(), m.host(), m.instance(), m.name(), null, summary,
                    UNTESTED_WHY, facts, List.of()));
        }
        return out;
    }

    private static String nz(String s) {
        return s == null ? "unknown" : s;
    }
}
