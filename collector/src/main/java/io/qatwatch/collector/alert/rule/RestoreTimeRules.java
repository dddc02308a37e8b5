package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.analysis.RestoreEstimate;
import io.qatwatch.collector.chain.RestorePlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * restore-time-over-goal (issue 30): a database whose restore plan now would take longer to restore, at its host's
 * measured restore speed (else its backup speed), than its host group's {@code rtoMinutes}.
 */
final class RestoreTimeRules {

    static final String WHY = "The recovery time objective is how long the business can wait for this database after a "
            + "loss. Restoring it now means the newest full, the differential on it and every log backup since, in order; "
            + "at the speed this host restored (or, with no restore of it measured, backed up) such backups, that takes "
            + "longer than the goal. Bytes over speed only: the logs' redo and the database's recovery come on top.";

    private RestoreTimeRules() {
    }

    static List<Alert> overGoal(FleetAnalysis fleet, RulesConfig rules) {
        List<Alert> out = new ArrayList<>();
        if (fleet.config().hostGroups().stream().allMatch(g -> g.rtoMinutes() == null)) {
            return out;
        }
        Map<String, HostState> hosts = null;
        Map<String, InstanceState> instances = null;
        for (MergedDatabase db : fleet.databases().values()) {
            if (db.silent() || db.chains().isEmpty()) {
                continue;
            }
            if (instances == null) {
                hosts = new HashMap<>();
                instances = new HashMap<>();
                for (HostState h : fleet.fleet().hosts()) {
                    hosts.put(h.host(), h);
                    for (InstanceState i : h.instances()) {
                        instances.put(h.host() + "/" + i.name(), i);
                    }
                }
            }
            InstanceState own = instances.get(db.host() + "/" + db.instance());
            HostState host = hosts.get(db.host());
            HostGroupConfig group = fleet.config().hostGroupFor(db.host(), db.instance(),
                    host == null ? Set.of() : host.tags());
            if (own == null || group == null || group.rtoMinutes() == null) {
                continue;
            }
            Optional<RestorePlan> plan = ChainRules.plan(db);
            if (plan.isEmpty()) {
                continue;
            }
            RestoreEstimate e = RestoreEstimate.of(db.host(), plan.get(), own.backups(), fleet.restoreSpeeds(),
                    fleet.compression());
            if (e.minutes() == null || e.minutes() <= group.rtoMinutes()) {
                continue;
            }
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Estimate", e.summary()));
            facts.add(new Fact("Goal", group.rtoMinutes() + " min (rtoMinutes of host group " + group.name() + ")"));
            facts.add(new Fact("Basis", RestoreEstimate.RESTORE_SPEED.equals(e.basis())
                    ? "restore-speed: every part at the speed this host restored such backups"
                    : "backup-speed: no restore of one or more parts' algorithm measured on this host, its backup speed used"));
            facts.add(new Fact("To read", RestoreEstimate.gib(e.bytes()) + " (" + RestoreEstimate.gib(e.dataBytes()) + " of data)"));
            e.parts().stream().filter(p -> p.restoreBurden() != null).findFirst()
                    .ifPresent(p -> facts.add(new Fact("QAT_DEFLATE restore burden", p.restoreBurden())));
            facts.add(new Fact("Restore plan", plan.get().head()));
            out.add(new Alert("restore-time-over-goal", rules.restoreTimeOverGoal().severity(), db.host(), db.instance(),
                    db.name(), null, "Restore of " + db.name() + " would take about " + e.minutes() + " min, over its "
                    + group.rtoMinutes() + " min goal", WHY, facts, List.of()));
        }
        return out;
    }
}
