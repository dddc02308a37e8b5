package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.DatabaseEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The primary replica of an availability group moved, as the alert stage saw it between two reports: the replica whose
 * report says PRIMARY (the newest report when two do) is another than before.
 *
 * @param before {@code host/instance} of the old primary
 * @param after  {@code host/instance} of the new primary
 * @param at     when the new primary's first report saying so was collected
 */
public record AgFailover(String availabilityGroup, String before, String after, Instant at) {

    /** A replica role change the store kept for a database of {@code scope} ({@code host/instance}). */
    public record RoleChange(String scope, DatabaseEvent event) {
    }

    /**
     * The failovers that the stored replica role changes show (issue 31), oldest first, so that an alert stage started
     * after a failover still knows it: a replica whose database became PRIMARY is the new primary; the old one is the
     * replica whose database of the same group left PRIMARY, whichever of the two reported first. A new primary whose
     * predecessor was never seen leaving gives none. Several databases moving together count once. Pure.
     */
    public static List<AgFailover> fromRoleChanges(List<RoleChange> changes) {
        List<RoleChange> sorted = new ArrayList<>(changes);
        sorted.sort(Comparator.comparing(c -> c.event().at()));
        Map<String, String> primary = new HashMap<>();
        Map<String, String> left = new HashMap<>();
        Map<String, RoleChange> waiting = new HashMap<>();
        Set<AgFailover> out = new LinkedHashSet<>();
        for (RoleChange c : sorted) {
            DatabaseEvent e = c.event();
            String ag = e.availabilityGroup();
            if (ag == null || !DatabaseEvent.REPLICA_ROLE_CHANGED.equals(e.kind())) {
                continue;
            }
            if ("PRIMARY".equalsIgnoreCase(e.before())) {
                RoleChange next = waiting.get(ag);
                if (next != null && !next.scope().equals(c.scope())) {
                    // the new primary reported first
                    out.add(new AgFailover(ag, c.scope(), next.scope(), next.event().at()));
                    primary.put(ag, next.scope());
                    waiting.remove(ag);
                } else {
                    left.put(ag, c.scope());
                }
            }
            if ("PRIMARY".equalsIgnoreCase(e.after()) && !c.scope().equals(primary.get(ag))) {
                String before = left.get(ag);
                if (before != null && !before.equals(c.scope())) {
                    out.add(new AgFailover(ag, before, c.scope(), e.at()));
                    primary.put(ag, c.scope());
                    left.remove(ag);
                } else {
                    waiting.putIfAbsent(ag, c);
                }
            }
        }
        return List.copyOf(out);
    }
}
