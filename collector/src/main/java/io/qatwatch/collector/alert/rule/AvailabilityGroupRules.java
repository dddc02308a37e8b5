package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.AgFailover;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** ag-failover: an availability group's primary replica moved (issue 31). */
final class AvailabilityGroupRules {

    /** How long an ag-failover stays active after the move. */
    static final Duration RECENT = Duration.ofHours(24);

    static final String FAILOVER_WHY = "The primary replica of this availability group moved. Backups that run only on the "
            + "primary (regular fulls and, before SQL Server 2025, differentials) and jobs that check "
            + "sys.fn_hadr_backup_is_preferred_replica now run, or skip, on other replicas: check that each still runs where "
            + "it should. Stays for 24 hours.";

    private AvailabilityGroupRules() {
    }

    static List<Alert> failover(FleetAnalysis fleet, RulesConfig rules) {
        List<Alert> out = new ArrayList<>();
        for (AgFailover f : fleet.fleet().failovers()) {
            if (f.at().isBefore(fleet.now().minus(RECENT)) || f.at().isAfter(fleet.now())) {
                continue;
            }
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Before", f.before()));
            facts.add(new Fact("After", f.after()));
            facts.add(new Fact("When", f.at() + ", the first report of " + f.after() + " as primary"));
            InstanceState after = instance(fleet, f.after());
            if (after != null) {
                TreeSet<String> dbs = new TreeSet<>();
                for (DatabaseInfo d : after.databases()) {
                    if (f.availabilityGroup().equals(d.availabilityGroup())) {
                        dbs.add(d.name());
                    }
                }
                facts.add(new Fact("Databases", String.join(", ", dbs)));
            }
            InstanceState before = instance(fleet, f.before());
            if (before != null && before.jobs() != null) {
                TreeSet<String> jobs = new TreeSet<>();
                for (AgentJob j : before.jobs().jobs()) {
                    if (j.backupJob() && j.enabled()) {
                        jobs.add(j.name());
                    }
                }
                if (!jobs.isEmpty()) {
                    facts.add(new Fact("Backup jobs on the old primary", String.join(", ", jobs)));
                }
            }
            List<String> stopped = new ArrayList<>(stoppedJobs(before == null ? null : before.jobs(), f, fleet.now()));
            stopped.addAll(stoppedBackups(fleet, f));
            if (!stopped.isEmpty()) {
                facts.add(new Fact("Stopped since the failover", String.join("; ", stopped)));
            }
            int slash = f.after().indexOf('/');
            out.add(new Alert("ag-failover", rules.agFailover().severity(), f.after().substring(0, slash),
                    f.after().substring(slash + 1), null, f.availabilityGroup(), "Availability group " + f.availabilityGroup()
                            + " failed over from " + f.before() + " to " + f.after() + " at " + f.at(),
                    FAILOVER_WHY, facts, List.of()));
        }
        return out;
    }

    /**
     * How long after a failover a backup kind counts as stopped when its usual gap is not known (fewer than two backups of
     * it on the old primary, or an agent that sends no LSNs): logs, then fulls and differentials (a nightly one comes
     * within 12 hours; the alert stays 24).
     */
    static final Duration LOG_STOPPED_AFTER = Duration.ofHours(1);
    static final Duration FULL_STOPPED_AFTER = Duration.ofHours(12);
    /** The least wait before a kind counts as stopped, whatever its usual gap: logs, then fulls and differentials. */
    static final Duration LOG_FLOOR = Duration.ofMinutes(15);
    static final Duration FULL_FLOOR = Duration.ofHours(1);
    /** What a backup may run late beyond its usual gap: a quarter of the gap, at most this. */
    static final Duration MOST_LATE = Duration.ofHours(1);

    /**
     * The old primary's backup jobs that ran on a schedule before the failover (two runs or more) and have not run since,
     * once more than their usual gap (the median between their runs) has passed since their last run.
     */
    static List<String> stoppedJobs(io.qatwatch.collector.store.JobActivity jobs, AgFailover f, java.time.Instant now) {
        if (jobs == null) {
            return List.of();
        }
        java.util.Map<String, List<java.time.Instant>> starts = new java.util.TreeMap<>();
        java.util.Map<String, String> names = new java.util.HashMap<>();
        for (AgentJob j : jobs.jobs()) {
            if (j.backupJob() && j.enabled()) {
                starts.put(j.jobId(), new ArrayList<>());
                names.put(j.jobId(), j.name());
            }
        }
        for (io.qatwatch.protocol.SqlInstanceSnapshot.JobRun r : jobs.runs()) {
            List<java.time.Instant> of = r.stepId() == 0 ? starts.get(r.jobId()) : null;
            if (of != null) {
                of.add(r.startedAt());
            }
        }
        List<String> out = new ArrayList<>();
        starts.forEach((id, at) -> {
            if (at.size() < 2 || !at.get(at.size() - 1).isBefore(f.at())) {
                return;
            }
            List<Duration> gaps = new ArrayList<>();
            for (int k = 1; k < at.size(); k++) {
                gaps.add(Duration.between(at.get(k - 1), at.get(k)));
            }
            gaps.sort(null);
            Duration usual = gaps.get(gaps.size() / 2);
            java.time.Instant last = at.get(at.size() - 1);
            if (Duration.between(last, now).compareTo(usual) > 0) {
                out.add("job " + names.get(id) + " on " + f.before() + " (last run " + last + ", usually every "
                        + usual.toMinutes() + " min)");
            }
        });
        return out;
    }

    /**
     * Backup kinds of the group's databases whose newest backup on any replica is the old primary's, taken before the
     * failover, once it is overdue by the database's own schedule: more than its usual gap on the old primary (the median
     * between the starts of its backups of that kind there, {@link LogChain#usualGap}) and a quarter of it (at most
     * {@link #MOST_LATE}) has passed since that backup started, and at least {@link #LOG_FLOOR} (logs) or
     * {@link #FULL_FLOOR}; with no usual gap known, {@link #LOG_STOPPED_AFTER} or {@link #FULL_STOPPED_AFTER} after the
     * failover.
     */
    static List<String> stoppedBackups(FleetAnalysis fleet, AgFailover f) {
        List<String> out = new ArrayList<>();
        for (io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase db : fleet.databases().values()) {
            if (!f.availabilityGroup().equals(db.availabilityGroup())) {
                continue;
            }
            LogChain oldPrimary = null;
            for (LogChain c : db.chains()) {
                if (f.before().equals(c.scope())) {
                    oldPrimary = c;
                }
            }
            for (char kind : new char[] {ChainBackup.FULL, ChainBackup.DIFFERENTIAL, ChainBackup.LOG}) {
                io.qatwatch.collector.window.NightlyWindow.DatabaseBackup newest = null;
                for (io.qatwatch.collector.window.NightlyWindow.DatabaseBackup b : db.backups()) {
                    if (kind == kindOf(b.type()) && (newest == null || b.finishedAfter(newest))) {
                        newest = b;
                    }
                }
                if (newest == null || !f.before().equals(newest.instance()) || !newest.finishedBefore(f.at())) {
                    continue;
                }
                Duration usual = oldPrimary == null ? null : oldPrimary.usualGap(kind);
                boolean stopped;
                String schedule;
                if (usual == null) {
                    Duration after = kind == ChainBackup.LOG ? LOG_STOPPED_AFTER : FULL_STOPPED_AFTER;
                    stopped = Duration.between(f.at(), fleet.now()).compareTo(after) >= 0;
                    schedule = "";
                } else {
                    Duration overdue = overdue(kind, usual);
                    stopped = Duration.between(newest.startedAt(), fleet.now()).compareTo(overdue) > 0;
                    schedule = ", usually every " + Fmt.minutes(usual.toSeconds() / 60.0);
                }
                if (stopped) {
                    out.add(kindName(kind) + " backups of " + db.name() + " (last on " + f.before() + " at " + newest.finishedAt()
                            + schedule + ", none on any replica since)");
                }
            }
        }
        return out;
    }

    /** How long after a backup of {@code kind} started, usually {@code usual} apart, the next one is overdue. */
    static Duration overdue(char kind, Duration usual) {
        Duration late = usual.dividedBy(4);
        Duration due = usual.plus(late.compareTo(MOST_LATE) > 0 ? MOST_LATE : late);
        Duration floor = kind == ChainBackup.LOG ? LOG_FLOOR : FULL_FLOOR;
        return due.compareTo(floor) < 0 ? floor : due;
    }

    private static String kindName(char kind) {
        return switch (kind) {
            case ChainBackup.FULL -> "full";
            case ChainBackup.DIFFERENTIAL -> "differential";
            default -> "log";
        };
    }

    /** msdb's backup type as a chain's kind; 0 for none (file and partial backups count with fulls and differentials). */
    private static char kindOf(String type) {
        if (type == null || type.length() != 1) {
            return 0;
        }
        return switch (type.charAt(0)) {
            case 'D', 'F', 'P' -> ChainBackup.FULL;
            case 'I', 'G', 'Q' -> ChainBackup.DIFFERENTIAL;
            case 'L' -> ChainBackup.LOG;
            default -> 0;
        };
    }

    private static InstanceState instance(FleetAnalysis fleet, String scope) {
        for (HostState h : fleet.fleet().hosts()) {
            for (InstanceState i : h.instances()) {
                if (scope.equals(h.host() + "/" + i.name())) {
                    return i;
                }
            }
        }
        return null;
    }
}
