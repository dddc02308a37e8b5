package io.qatwatch.collector.web;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.HostSeen;
import io.qatwatch.collector.store.ReportStore.HostsSeenMark;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every host's name and last report, kept in memory for the fleet's counts (the status page's summary, the metrics)
 * and brought up to date from the store at each use: one aggregate read says whether anything changed, and then only
 * the hosts that reported since are read. Reading all of them for every fleet page cost ~4 ms and 2.2 MB of garbage at
 * 10,000 hosts (docs/benchmarks.md, "Session 9: the fleet page's tail"). Thread-safe.
 */
public final class FleetRoster {

    private final ReportStore store;
    /** In the store's host-name order; never changed once published. */
    private List<HostSeen> hosts = List.of();
    private Map<String, Integer> positions = Map.of();
    private HostsSeenMark mark = new HostsSeenMark(0, 0, 0);

    public FleetRoster(ReportStore store) {
        this.store = store;
    }

    /** What {@link ReportStore#hostsSeen()} answers now. Blocking: reads the store. */
    public synchronized List<HostSeen> hostsSeen() throws Exception {
        HostsSeenMark now = store.hostsSeenMark();
        if (now.equals(mark)) {
            return hosts;
        }
        // the same hosts, some of which reported since: replace those; a new host (rare) reads them all again, in the
        // store's order. A mark that still differs after the replacement (a report stored meanwhile) reads all again too
        if (now.hosts() == mark.hosts() && !hosts.isEmpty()) {
            List<HostSeen> updated = new ArrayList<>(hosts);
            boolean known = true;
            for (HostSeen h : store.hostsSeenAfter(mark.lastSeenMax())) {
                Integer at = positions.get(h.host());
                if (at == null) {
                    known = false;
                    break;
                }
                updated.set(at, h);
            }
            if (known && HostsSeenMark.of(updated).equals(now)) {
                hosts = java.util.Collections.unmodifiableList(updated);
                mark = now;
                return hosts;
            }
        }
        List<HostSeen> all = store.hostsSeen();
        Map<String, Integer> at = new HashMap<>(all.size() * 4 / 3 + 1);
        for (int i = 0; i < all.size(); i++) {
            at.put(all.get(i).host(), i);
        }
        hosts = java.util.Collections.unmodifiableList(new ArrayList<>(all));
        positions = at;
        mark = HostsSeenMark.of(all);
        return hosts;
    }
}
