package io.qatwatch.collector.web.status;

import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.Verdict;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.web.AcceleratorTimeline;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.web.FleetPage;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** Builds the parts of a {@link StatusView} that come straight from the store. Pure. */
public final class StatusViews {

    private StatusViews() {
    }

    private static final List<String> SEVERITY_ORDER = List.of("critical", "warning", "info");

    /** At most this many active alerts are on the page; the rest are counted and left to the API. */
    public static final int ALERTS_SHOWN = 50;

    /**
     * Everything one page shows, read on the store's worker (blocking): the fleet's counts per state and group
     * (host names and last reports only), the page of hosts the query asks for, the active alerts its host and
     * group filters match, the charts of the page's hosts only, and the compression verdicts of the latest
     * evaluation (the fleet's, and the page's hosts' rows). The alert pipeline, the window analysis and the
     * compression view may be null while they are not wired.
     *
     * @param groupOf       a host's group in the alert configuration, null for none
     * @param tagsOf        a host's tags ({@code key=value}) for the tag filter
     * @param silentMinutes the agent-silent threshold: a host whose last report is older is silent
     * @param defaultLimit  the page size when the query names none (links leave it out)
     */
    public static StatusView fromStore(ReportStore store, AlertsView alerts, WindowCharts windows,
            CompressionView compression, Function<String, String> groupOf, Function<String, Set<String>> tagsOf,
            int silentMinutes, FleetQuery query,
            int defaultLimit, Instant now) throws Exception {
        return fromStore(store, store::hostsSeen, alerts, windows, compression, groupOf, tagsOf, silentMinutes, query,
                defaultLimit, now);
    }

    /**
     * As above, the fleet's counts from {@code hostsSeen} (what {@link ReportStore#hostsSeen()} answers, e.g. a
     * {@link io.qatwatch.collector.web.FleetRoster} the server keeps, instead of reading every host for every page).
     */
    public static StatusView fromStore(ReportStore store, Callable<List<ReportStore.HostSeen>> hostsSeen, AlertsView alerts,
            WindowCharts windows, CompressionView compression, Function<String, String> groupOf,
            Function<String, Set<String>> tagsOf, int silentMinutes, FleetQuery query, int defaultLimit, Instant now)
            throws Exception {
        List<AlertsView.ActiveAlert> active = alerts == null ? List.of() : alerts.active();
        FleetStatus status = FleetStatus.of(active, now, silentMinutes, groupOf, tagsOf);
        FleetStatus.Summary summary = status.summarise(hostsSeen.call());
        FleetPage page = FleetPage.read(store, status, query);
        Set<String> hosts = new LinkedHashSet<>();
        page.rows().stream().map(FleetRow::host).sorted().forEach(hosts::add);
        Map<String, List<AcceleratorTimeline.Point>> timelines = new HashMap<>();
        for (FleetRow row : page.rows()) {
            for (SqlInstanceSnapshot instance : row.instances()) {
                timelines.put(row.host() + "/" + instance.name(), AcceleratorTimeline.of(
                        store.acceleratorChanges(row.host(), instance.name(), now.minus(FleetStates.ACCELERATOR_HISTORY))));
            }
        }
        List<AlertsView.ActiveAlert> matching = FleetStatus.alertsOf(active, query, groupOf, tagsOf);
        return new StatusView(now, summary, new StatusView.Paging(query, defaultLimit, page.next(), matching.size()),
                fleet(page.rows(), status, timelines), alerts(matching, ALERTS_SHOWN),
                windows == null ? List.of() : windows.lastNights(now, hosts),
                compression == null || compression.latest() == null ? null : compression(compression.latest(), hosts, true),
                alerts == null ? List.of() : alerts.channels());
    }

    /** The API's active alerts, most severe first, then the oldest first; {@code details} is the why. */
    public static List<StatusView.ActiveAlert> alerts(List<AlertsView.ActiveAlert> active) {
        return alerts(active, Integer.MAX_VALUE);
    }

    /** The first {@code limit} of those: only they are turned into the page's rows (a fleet can have thousands). */
    public static List<StatusView.ActiveAlert> alerts(List<AlertsView.ActiveAlert> active, int limit) {
        return active.stream()
                .sorted(Comparator.comparingInt((AlertsView.ActiveAlert a) -> severityRank(a.severity()))
                        .thenComparing(a -> a.since() == null ? Instant.MAX : a.since()))
                .limit(limit)
                .map(a -> new StatusView.ActiveAlert(a.id(), a.rule(), a.severity(), a.host(), a.instance(), a.database(),
                        a.summary(), a.details(), List.of(), a.since(), life(a)))
                .toList();
    }

    /** "acknowledged by oncall until ...: note", "silenced", "flapping", joined; null when none applies. */
    private static String life(AlertsView.ActiveAlert a) {
        List<String> parts = new ArrayList<>();
        if (a.acknowledged() != null) {
            AlertsView.Acknowledged ack = a.acknowledged();
            parts.add("acknowledged by " + ack.by() + (ack.expiresAt() == null ? "" : " until " + ack.expiresAt())
                    + (ack.note() == null ? "" : ": " + ack.note()));
        }
        if (a.silenced()) {
            parts.add("silenced");
        }
        if (a.flapping()) {
            parts.add("flapping: repeats held");
        }
        return parts.isEmpty() ? null : String.join(" · ", parts);
    }

    /** One row per host, sorted by host name, with its state and group from {@code status}. */
    public static List<StatusView.HostRow> fleet(List<FleetRow> rows, FleetStatus status) {
        return fleet(rows, status, Map.of());
    }

    /** As above, with each instance's QAT timeline by {@code host/instance}. */
    public static List<StatusView.HostRow> fleet(List<FleetRow> rows, FleetStatus status,
            Map<String, List<AcceleratorTimeline.Point>> timelines) {
        return rows.stream()
                .sorted(Comparator.comparing(FleetRow::host))
                .map(r -> new StatusView.HostRow(
                        r.host(),
                        status.stateOf(r.host(), r.lastSeen()).label(),
                        status.groupOf(r.host()),
                        r.agent() == null || r.agent().tags() == null ? List.of()
                                : HostGroupConfig.tagSet(r.agent().tags()).stream().toList(),
                        r.facts() == null || r.facts().cpu() == null ? null : r.facts().cpu().vendor(),
                        r.qat() == null ? null : new StatusView.QatState(r.qat().devices().size(),
                                (int) r.qat().devices().stream().filter(StatusViews::up).count(), r.qat().compressionReady()),
                        r.licence() == null ? null : r.licence().verdict().name(),
                        r.instances().stream().sorted(Comparator.comparing(SqlInstanceSnapshot::name))
                                .map(i -> instance(i, timelines.getOrDefault(r.host() + "/" + i.name(), List.of()))).toList(),
                        r.lastSeen(),
                        losses(r)))
                .toList();
    }

    private static StatusView.AgentLosses losses(FleetRow r) {
        if (r.agent() == null) {
            return null;
        }
        StatusView.AgentLosses losses = new StatusView.AgentLosses(r.agent().lostTotal(), r.agent().outboxDroppedTotal(),
                r.agent().outboxCorruptTotal());
        return losses.any() ? losses : null;
    }

    /**
     * The verdict columns of the fleet table, best first; FASTER_AND_SMALLER counts as faster and as smaller. The CPU
     * verdicts (issue 30) sit beside the time and size ones they refine: a CHEAPER row is a NO_GAIN that saves CPU.
     */
    static final List<Verdict> FLEET_COLUMNS = List.of(Verdict.FASTER_AND_CHEAPER, Verdict.FASTER_AND_SMALLER, Verdict.FASTER,
            Verdict.SMALLER, Verdict.CHEAPER, Verdict.FASTER_BUT_COSTLIER, Verdict.NO_GAIN, Verdict.COSTLIER, Verdict.SLOWER,
            Verdict.NOT_ENOUGH_DATA);

    /** The fleet's compression verdicts, and every row of {@code hosts} (in that order): a host page's table. */
    public static StatusView.Compression compression(FleetCompression c, Set<String> hosts) {
        return compression(c, hosts, false);
    }

    /**
     * The fleet's compression verdicts, and the rows of {@code hosts} (in that order), each host with its rows' verdict
     * counts; {@code comparedOnly}: only the rows that compare algorithms (the fleet page: a host's rows of one
     * algorithm compare nothing, and at 50 hosts of 20 databases they were two thirds of its bytes).
     */
    public static StatusView.Compression compression(FleetCompression c, Set<String> hosts, boolean comparedOnly) {
        List<StatusView.FleetVerdict> fleet = new ArrayList<>();
        for (FleetCompression.TargetVerdicts t : c.fleet()) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            FLEET_COLUMNS.forEach(v -> counts.put(v.name(), t.verdicts().getOrDefault(v, 0)));
            fleet.add(new StatusView.FleetVerdict(t.method(), t.target(), counts));
        }
        List<StatusView.HostCompression> out = new ArrayList<>();
        for (String host : hosts) {
            FleetCompression.HostVerdict v = c.hosts().get(host);
            List<FleetCompression.Row> rows = c.rowsOf(host);
            if (!rows.isEmpty() && v != null) {
                int[] counts = new int[Verdict.values().length];
                rows.forEach(r -> counts[r.comparison().verdict().ordinal()]++);
                Map<String, Integer> verdicts = new LinkedHashMap<>();
                for (Verdict verdict : Verdict.values()) {
                    if (counts[verdict.ordinal()] > 0) {
                        verdicts.put(verdict.name(), counts[verdict.ordinal()]);
                    }
                }
                out.add(new StatusView.HostCompression(host, v.summary(), v.qatBackups(), rows.stream()
                        .filter(r -> !comparedOnly || r.comparison().verdict() != Verdict.SINGLE_ALGORITHM)
                        .map(StatusViews::row).toList(), verdicts));
            }
        }
        return new StatusView.Compression(fleet, c.restoreBurden(), out);
    }

    static StatusView.CompressionRow row(FleetCompression.Row r) {
        Comparison c = r.comparison();
        List<StatusView.MethodCell> methods = new ArrayList<>();
        for (Comparison.Entry e : c.algorithms()) {
            AlgorithmStats s = e.stats();
            methods.add(new StatusView.MethodCell(s.method().label(), s.backups(), s.copyOnlyBackups(), s.seconds().median(),
                    s.mbps().median(), s.savedPercent(), e.judgement() == null ? null : e.judgement().verdict().name()));
        }
        List<String> encryption = new ArrayList<>();
        if (c.tde() == null || c.tde()) {
            encryption.add(c.tde() == null ? "TDE unknown" : "TDE");
        }
        if (c.backupEncrypted()) {
            encryption.add("backup encrypted");
        }
        return new StatusView.CompressionRow(r.instance(), c.database(), c.kind().label(), c.target(),
                encryption.isEmpty() ? "none" : String.join(", ", encryption), c.verdict().name(),
                c.alternative() == null ? null : c.alternative().label(), c.baseline().label(), c.speedGainPercent(),
                c.sizeGainPercent(), c.cpuGainPercent(), methods);
    }

    private static int severityRank(String severity) {
        int rank = SEVERITY_ORDER.indexOf(severity);
        return rank < 0 ? SEVERITY_ORDER.size() : rank;
    }

    /** Up: the kernel says so (Linux), or a driver is bound where there is no state to read (Windows). */
    private static boolean up(QatDevice d) {
        return d.state() == null ? d.driver() != null : "up".equalsIgnoreCase(d.state());
    }

    private static StatusView.SqlInstanceRow instance(SqlInstanceSnapshot s, List<AcceleratorTimeline.Point> timeline) {
        var qat = s.accelerators() == null ? null
                : s.accelerators().stream().filter(a -> "QAT".equalsIgnoreCase(a.accelerator())).findFirst().orElse(null);
        return new StatusView.SqlInstanceRow(s.name(),
                s.server() == null ? null : s.server().productVersion(),
                qat == null ? null : qat.modeDesc(),
                qat == null ? null : qat.modeReasonDesc(),
                io.qatwatch.collector.web.FleetView.availabilityGroups(s), timeline);
    }
}
