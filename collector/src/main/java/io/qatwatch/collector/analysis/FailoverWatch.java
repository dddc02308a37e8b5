package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.ReportStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The availability groups' failovers of the last day (ag-failover): a primary other than at the previous refresh, and at
 * start the replica role changes the store holds.
 */
final class FailoverWatch {

    /** Each availability group's primary replica as last seen ({@code host/instance}), and when that report was collected. */
    private final Map<String, Map.Entry<String, Instant>> primaries = new HashMap<>();
    /** Failovers seen in the last day, oldest first. */
    private final List<AgFailover> failovers = new ArrayList<>();

    /**
     * The failovers of the last day, this refresh's included: an availability group whose primary (the replica whose
     * newest report says PRIMARY) is another than at the previous refresh. The first refresh only learns the primaries.
     */
    List<AgFailover> failovers(List<HostState> fleet, Instant now) {
        Map<String, Map.Entry<String, Instant>> seen = new HashMap<>();
        for (HostState h : fleet) {
            for (InstanceState i : h.instances()) {
                Instant at = i.collectedAt() == null ? Instant.EPOCH : i.collectedAt();
                for (var d : i.databases()) {
                    if (d.availabilityGroup() == null || !"PRIMARY".equalsIgnoreCase(d.replicaRole())) {
                        continue;
                    }
                    Map.Entry<String, Instant> was = seen.get(d.availabilityGroup());
                    if (was == null || at.isAfter(was.getValue())) {
                        seen.put(d.availabilityGroup(), Map.entry(h.host() + "/" + i.name(), at));
                    }
                }
            }
        }
        seen.forEach((ag, primary) -> {
            Map.Entry<String, Instant> before = primaries.put(ag, primary);
            if (before != null && !before.getKey().equals(primary.getKey())) {
                failovers.add(new AgFailover(ag, before.getKey(), primary.getKey(), primary.getValue()));
            }
        });
        failovers.removeIf(f -> f.at().isBefore(now.minus(Duration.ofDays(1))));
        return List.copyOf(failovers);
    }

    /**
     * On the first refresh: the failovers of the last day that the store's replica role changes show, so that ag-failover
     * survives a restart of the collector. Reads the database events of the instances that report an availability-group
     * database only; one where several databases moved counts once.
     */
    void seed(ReportStore store, Map<String, HostSlot> hosts, Instant now) throws Exception {
        List<AgFailover.RoleChange> changes = new ArrayList<>();
        for (Map.Entry<String, HostSlot> h : hosts.entrySet()) {
            for (InstanceSlot i : h.getValue().instances.values()) {
                if (i.sections.databases() == null || i.sections.databases().stream().allMatch(d -> d.availabilityGroup() == null)) {
                    continue;
                }
                for (DatabaseEvent e : store.databaseEvents(h.getKey(), i.sections.name(), now.minus(Duration.ofDays(1)))) {
                    if (DatabaseEvent.REPLICA_ROLE_CHANGED.equals(e.kind())) {
                        changes.add(new AgFailover.RoleChange(h.getKey() + "/" + i.sections.name(), e));
                    }
                }
            }
        }
        failovers.addAll(AgFailover.fromRoleChanges(changes));
    }
}
