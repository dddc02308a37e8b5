package io.qatwatch.collector.web;

import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.store.ReportStore.HostSeen;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The state and group of every host at one moment, from the active alerts, the time of its last report and
 * the host groups of the alert configuration; and the filter and counts that the fleet API and the status
 * page build on them. Pure once built.
 */
public final class FleetStatus {

    private final Map<String, HostState> alerting;
    private final Instant silentBefore;
    private final Function<String, String> groupOf;
    private final Function<String, Set<String>> tagsOf;

    private FleetStatus(Map<String, HostState> alerting, Instant silentBefore, Function<String, String> groupOf,
            Function<String, Set<String>> tagsOf) {
        this.alerting = alerting;
        this.silentBefore = silentBefore;
        this.groupOf = groupOf;
        this.tagsOf = tagsOf;
    }

    /**
     * @param silentMinutes the agent-silent rule's threshold: a host whose last report is older is silent
     * @param groupOf       a host's group, null for none
     */
    public static FleetStatus of(List<AlertsView.ActiveAlert> active, Instant now, int silentMinutes,
            Function<String, String> groupOf) {
        return of(active, now, silentMinutes, groupOf, host -> Set.of());
    }

    /** As above; {@code tagsOf} gives a host's tags ({@code key=value}) for the tag filter. */
    public static FleetStatus of(List<AlertsView.ActiveAlert> active, Instant now, int silentMinutes,
            Function<String, String> groupOf, Function<String, Set<String>> tagsOf) {
        return fromHeads(active.stream().map(AlertsView.ActiveHead::of).toList(), now, silentMinutes, groupOf, tagsOf);
    }

    /** As above, from the active alerts' heads ({@link AlertsView#heads()}): a host's state needs no more of them. */
    public static FleetStatus fromHeads(List<AlertsView.ActiveHead> active, Instant now, int silentMinutes,
            Function<String, String> groupOf, Function<String, Set<String>> tagsOf) {
        Map<String, HostState> alerting = new HashMap<>();
        for (AlertsView.ActiveHead a : active) {
            HostState s = HostState.parse(a.severity());
            if (a.host() != null && s != null) {
                alerting.merge(a.host(), s, (x, y) -> x.compareTo(y) <= 0 ? x : y);
            }
        }
        return new FleetStatus(alerting, now.minus(Duration.ofMinutes(silentMinutes)), groupOf, tagsOf);
    }

    /** Silent when its last report is older than the threshold, else its most severe active alert, else ok. */
    public HostState stateOf(String host, Instant lastSeen) {
        if (lastSeen.isBefore(silentBefore)) {
            return HostState.SILENT;
        }
        return alerting.getOrDefault(host, HostState.OK);
    }

    public String groupOf(String host) {
        return groupOf.apply(host);
    }

    /** A host's tags, {@code key=value} each. */
    public Set<String> tagsOf(String host) {
        return tagsOf.apply(host);
    }

    /** The query's group, state and tag filters (the host pattern is the store's). */
    public Predicate<HostSeen> filter(FleetQuery q) {
        Predicate<HostSeen> p = h -> true;
        if (q.tag() != null) {
            p = p.and(h -> HostGroupConfig.tagMatches(q.tag(), tagsOf.apply(h.host())));
        }
        if (q.group() != null) {
            p = p.and(h -> q.group().equalsIgnoreCase(String.valueOf(groupOf.apply(h.host()))));
        }
        if (q.state() != null) {
            HostState wanted = HostState.parse(q.state());
            p = p.and(wanted == null ? h -> stateOf(h.host(), h.lastSeen()) != HostState.OK
                    : h -> stateOf(h.host(), h.lastSeen()) == wanted);
        }
        return p;
    }

    /** The alerts on the hosts that the query's host pattern and group select. */
    public static List<AlertsView.ActiveAlert> alertsOf(List<AlertsView.ActiveAlert> active, FleetQuery q,
            Function<String, String> groupOf) {
        return alertsOf(active, q, groupOf, host -> Set.of());
    }

    /** The alerts on the hosts that the query's host pattern, group and tag select. */
    public static List<AlertsView.ActiveAlert> alertsOf(List<AlertsView.ActiveAlert> active, FleetQuery q,
            Function<String, String> groupOf, Function<String, Set<String>> tagsOf) {
        return active.stream()
                .filter(a -> q.host() == null || HostGroupConfig.glob(q.host(), a.host()))
                .filter(a -> q.group() == null || q.group().equalsIgnoreCase(String.valueOf(groupOf.apply(a.host()))))
                .filter(a -> q.tag() == null || (a.host() != null && HostGroupConfig.tagMatches(q.tag(), tagsOf.apply(a.host()))))
                .toList();
    }

    /** How many hosts are in each state, over the whole fleet and per host group. */
    public Summary summarise(List<HostSeen> hosts) {
        // counted in arrays: merging boxed counts allocated an Integer per host past 127 (300 kB at 10,000 hosts a page)
        int[] byState = new int[HostState.values().length];
        Map<String, int[]> byGroup = new TreeMap<>();
        int[] ungrouped = new int[byState.length];
        for (HostSeen h : hosts) {
            int s = stateOf(h.host(), h.lastSeen()).ordinal();
            byState[s]++;
            String g = groupOf.apply(h.host());
            (g == null ? ungrouped : byGroup.computeIfAbsent(g, k -> new int[byState.length]))[s]++;
        }
        List<GroupCount> groups = new ArrayList<>();
        byGroup.forEach((g, counts) -> groups.add(new GroupCount(g, counted(counts))));
        Map<HostState, Integer> none = counted(ungrouped);
        if (!none.isEmpty() && !byGroup.isEmpty()) {
            groups.add(new GroupCount(null, none));
        }
        return new Summary(hosts.size(), counted(byState), groups);
    }

    /** The states with at least one host, and how many. */
    private static Map<HostState, Integer> counted(int[] counts) {
        Map<HostState, Integer> out = new EnumMap<>(HostState.class);
        for (HostState s : HostState.values()) {
            if (counts[s.ordinal()] > 0) {
                out.put(s, counts[s.ordinal()]);
            }
        }
        return out;
    }

    /** Hosts per state over the whole fleet, and per host group (groups by name, then hosts in no group). */
    public record Summary(int hosts, Map<HostState, Integer> byState, List<GroupCount> groups) {

        public Summary {
            byState = Map.copyOf(byState);
            groups = List.copyOf(groups);
        }

        /** An empty fleet. */
        public static Summary empty() {
            return new Summary(0, Map.of(), List.of());
        }

        public int count(HostState s) {
            return byState.getOrDefault(s, 0);
        }
    }

    /** One host group's hosts per state; {@code group} is null for the hosts in no group. */
    public record GroupCount(String group, Map<HostState, Integer> byState) {

        public GroupCount {
            byState = Map.copyOf(byState);
        }

        public int hosts() {
            return byState.values().stream().mapToInt(Integer::intValue).sum();
        }

        public int count(HostState s) {
            return byState.getOrDefault(s, 0);
        }
    }
}
