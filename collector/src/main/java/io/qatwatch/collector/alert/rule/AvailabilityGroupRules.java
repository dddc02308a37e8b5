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
            int slash = f.after().indexOf('/');
            out.add(new Alert("ag-failover", rules.agFailover().severity(), f.after().substring(0, slash),
                    f.after().substring(slash + 1), null, f.availabilityGroup(), "Availability group " + f.availabilityGroup()
                            + " failed over from " + f.before() + " to " + f.after() + " at " + f.at(),
                    FAILOVER_WHY, facts, List.of()));
        }
        return out;
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
