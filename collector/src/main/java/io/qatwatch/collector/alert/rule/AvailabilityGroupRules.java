package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.AgFailover;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
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
     * How long after a failover a backup kind no replica has taken since counts as stopped: logs, then fulls and
     * differentials (a nightly one comes within 12 hours; the alert stays 24).
     */
    static final Duration LOG_STOPPED_AFTER = Duration.ofHours(1);
    static final Duration FULL_STOPPED_AFTER = Duration.ofHours(12);

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
     * failover, once {@link #LOG_STOPPED_AFTER} (logs) or {@link #FULL_STOPPED_AFTER} (fulls, differentials) has passed
     * since it with none on any replica.
     */
    static List<String> stoppedBackups(FleetAnalysis fleet, AgFailover f) {
        List<String> out = new ArrayList<>();
        Duration since = Duration.between(f.at(), fleet.now());
        for (io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase db : fleet.databases().values()) {
            if (!f.availabilityGroup().equals(db.availabilityGroup())) {
                continue;
            }
            for (String kind : new String[] {"full", "differential", "log"}) {
                io.qatwatch.collector.window.NightlyWindow.DatabaseBackup newest = null;
                for (io.qatwatch.collector.window.NightlyWindow.DatabaseBackup b : db.backups()) {
                    if (kind.equals(kindOf(b.type())) && (newest == null || b.finishedAt().isAfter(newest.finishedAt()))) {
                        newest = b;
                    }
                }
                Duration after = kind.equals("log") ? LOG_STOPPED_AFTER : FULL_STOPPED_AFTER;
                if (newest != null && f.before().equals(newest.instance()) && newest.finishedAt().isBefore(f.at())
                        && since.compareTo(after) >= 0) {
                    out.add(kind + " backups of " + db.name() + " (last on " + f.before() + " at " + newest.finishedAt()
                            + ", none on any replica since)");
                }
            }
        }
        return out;
    }

    private static String kindOf(String type) {
        if (type == null || type.length() != 1) {
            return "";
        }
        return switch (type.charAt(0)) {
            case 'D', 'F', 'P' -> "full";
            case 'I', 'G', 'Q' -> "differential";
            case 'L' -> "log";
            default -> "";
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
