package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.FleetHead;
import io.qatwatch.collector.store.ReportStore.InstanceHead;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Loads the kept hosts' rows, and brings them to the store's heads at each refresh after the first. */
final class HostHeads {

    private HostHeads() {
    }

    /**
     * Applies the heads: new, changed and gone hosts and instances, last reports and running backups. The rows of the new
     * and changed hosts are read together.
     */
    static void apply(ReportStore store, Map<String, HostSlot> hosts, List<FleetHead> heads) throws Exception {
        Map<String, FleetHead> byHost = new HashMap<>();
        List<String> reload = new ArrayList<>();
        for (FleetHead head : heads) {
            byHost.put(head.host(), head);
            HostSlot slot = hosts.get(head.host());
            if (slot == null || changed(slot, head)) {
                reload.add(head.host());
            }
        }
        for (FleetRow row : reload.isEmpty() ? List.<FleetRow>of() : store.fleetRows(reload)) {
            HostSlot slot = hosts.computeIfAbsent(row.host(), h -> new HostSlot());
            load(slot, row, byHost.get(row.host()));
        }
        Set<String> reloaded = new HashSet<>(reload);
        for (FleetHead head : heads) {
            HostSlot slot = hosts.get(head.host());
            if (slot == null || reloaded.contains(head.host())) {
                continue;
            }
            slot.lastSeen = head.lastSeen();
            for (InstanceHead ih : head.instances()) {
                InstanceSlot i = slot.instances.get(ih.name());
                i.lastSeen = ih.lastSeen();
                i.running = ih.runningBackups();
                i.jobsSeq = ih.jobsSeq();
            }
        }
        hosts.keySet().removeIf(host -> !byHost.containsKey(host));
    }

    private static boolean changed(HostSlot slot, FleetHead head) {
        if (head.sectionsSeq() != slot.sectionsSeq || head.instances().size() != slot.instances.size()) {
            return true;
        }
        for (InstanceHead ih : head.instances()) {
            InstanceSlot i = slot.instances.get(ih.name());
            if (i == null || i.sectionsSeq != ih.sectionsSeq()) {
                return true;
            }
        }
        return false;
    }

    /** (Re)loads a host's row: instances whose sections changed, and new ones, are rebuilt. */
    static void load(HostSlot slot, FleetRow row, FleetHead head) {
        Map<String, Long> seqs = new HashMap<>();
        Map<String, Long> jobsSeqs = new HashMap<>();
        if (head != null) {
            head.instances().forEach(ih -> seqs.put(ih.name(), ih.sectionsSeq()));
            head.instances().forEach(ih -> jobsSeqs.put(ih.name(), ih.jobsSeq()));
        }
        slot.row = row;
        slot.lastSeen = row.lastSeen();
        slot.sectionsSeq = head == null ? -1 : head.sectionsSeq();
        Map<String, InstanceSlot> before = new TreeMap<>(slot.instances);
        slot.instances.clear();
        for (SqlInstanceSnapshot s : row.instances()) {
            InstanceSlot i = before.get(s.name());
            long seq = seqs.getOrDefault(s.name(), -1L);
            if (i == null || i.sectionsSeq != seq) {
                i = i == null ? new InstanceSlot(row.host()) : i;
                i.sections(s, seq);
            } else {
                i.lastSeen = s.collectedAt();
                i.running = s.runningBackups() == null ? List.of() : s.runningBackups();
            }
            i.jobsSeq = jobsSeqs.getOrDefault(s.name(), -1L);
            slot.instances.put(s.name(), i);
        }
    }
}
