package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.compression.BackupKind;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.compression.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * "Is QAT worth it here?" for the whole fleet: every instance's compression comparisons, a verdict per host that
 * sums up its databases, the fleet's verdicts per method and target, and the hosts that could restore a QAT_DEFLATE
 * backup (the burden QAT backups carry). Pure and immutable; built by {@link FleetAnalysis}.
 */
public final class FleetCompression {

    /** Host lists in sentences stop after this many names. */
    static final int NAMES_SHOWN = 10;

    /** One comparison on one instance: a row of {@code GET /api/v1/compression}. */
    public record Row(String host, String instance, Comparison comparison) {
    }

    /**
     * How one method did against the baseline to one kind of target, over a host's (or the fleet's) full backups.
     *
     * @param method    the method's label, e.g. {@code QAT_DEFLATE (HARDWARE)}
     * @param verdicts  databases per verdict
     */
    public record TargetVerdicts(String method, String target, Map<Verdict, Integer> verdicts) {

        public TargetVerdicts {
            verdicts = java.util.Collections.unmodifiableMap(new EnumMap<>(verdicts));
        }

        /** Every database compared. */
        public int databases() {
            return verdicts.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** The most common verdict (the better one on a tie). */
        public Verdict mostCommon() {
            Verdict best = null;
            for (Map.Entry<Verdict, Integer> e : verdicts.entrySet()) {
                if (best == null || e.getValue() > verdicts.get(best)) {
                    best = e.getKey();
                }
            }
            return best;
        }
    }

    /**
     * One host's verdict: a sentence over its databases' full backups, the numbers behind it, and whether it takes
     * QAT_DEFLATE backups (which only restore where QAT is installed and enabled).
     *
     * @param summary    e.g. "QAT_DEFLATE (HARDWARE): faster to local disk for 6 of 8 databases, no gain to the share
     *                   for 2 of 2"; null when nothing was compared
     * @param qatBackups the host took QAT_DEFLATE backups within the lookback period
     */
    public record HostVerdict(String host, String summary, List<TargetVerdicts> targets, boolean qatBackups) {

        public HostVerdict {
            targets = List.copyOf(targets);
        }
    }

    private final List<Row> rows;
    private final Map<String, HostVerdict> hosts = new LinkedHashMap<>();
    private final List<TargetVerdicts> fleet;
    private final List<String> restoreReady;
    private final int probedHosts;
    private final int withoutQatFacts;
    private final Map<String, List<Comparison>> byInstance = new LinkedHashMap<>();
    /** Each host's rows: from and to (exclusive) in {@link #rows}. */
    private final Map<String, int[]> hostRows = new java.util.HashMap<>();

    /**
     * One host's share, kept so that the next evaluation reuses it while the host's instances and their comparison lists
     * are the same objects (the alert stage's samples give the same list while nothing changed). Its rows are those
     * lists' comparisons in order, each instance's after the one before.
     */
    private record HostPart(List<String> instances, List<List<Comparison>> lists, List<Row> qatCurrent,
                            Map<String, Map<String, Map<Verdict, Integer>>> counts, HostVerdict verdict) {

        /** Whether {@code h}'s instances are these, by name and in order, each with this very comparison list. */
        boolean sameAs(HostState h, Map<InstanceState, List<Comparison>> comparisons) {
            List<InstanceState> of = h.instances();
            if (of.size() != instances.size()) {
                return false;
            }
            for (int n = 0; n < of.size(); n++) {
                InstanceState i = of.get(n);
                if (comparisons.getOrDefault(i, List.of()) != lists.get(n) || !i.name().equals(instances.get(n))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The fleet's rows as three columns (host, instance, comparison), each {@link Row} made when read: the alert stage
     * holds the last evaluation's rows, about 33 an instance, until the next. Unmodifiable.
     */
    private static final class Rows extends java.util.AbstractList<Row> implements java.util.RandomAccess {
        private final String[] hosts;
        private final String[] instances;
        private final Comparison[] comparisons;

        Rows(int size) {
            hosts = new String[size];
            instances = new String[size];
            comparisons = new Comparison[size];
        }

        @Override
        public Row get(int index) {
            return new Row(hosts[index], instances[index], comparisons[index]);
        }

        @Override
        public int size() {
            return comparisons.length;
        }
    }

    private final Map<String, HostPart> parts = new java.util.HashMap<>();
    private final List<Row> qatCurrent;
    /** Each host's part, in the fleet's order of hosts (a host named twice is here twice). */
    private final HostPart[] partsInOrder;
    /** With {@link #partsInOrder}: each host's {@link #restoreState}. */
    private final byte[] restoreStates;

    /** A host sent no QAT facts. */
    private static final byte QAT_UNKNOWN = 0;
    /** A host could restore a QAT_DEFLATE backup ({@link #lacksQat} says nothing). */
    private static final byte QAT_READY = 1;
    /** A host could not. */
    private static final byte QAT_LACKING = 2;

    /**
     * The fleet's compression: {@code previous} itself (the last evaluation's, or null) when its inputs are the same
     * (the same hosts and instances, by name and in order, each instance with the very comparison list it had, and each
     * host as able to restore a QAT_DEFLATE backup as it was), which a quiet minute's are; else worked out, reusing
     * {@code previous}'s hosts whose comparisons are the same.
     */
    static FleetCompression of(FleetState state, Map<InstanceState, List<Comparison>> comparisons, FleetCompression previous) {
        return previous != null && previous.sameInputs(state, comparisons) ? previous
                : new FleetCompression(state, comparisons, previous);
    }

    private boolean sameInputs(FleetState state, Map<InstanceState, List<Comparison>> comparisons) {
        List<HostState> hs = state.hosts();
        if (hs.size() != partsInOrder.length) {
            return false;
        }
        for (int p = 0; p < partsInOrder.length; p++) {
            HostState h = hs.get(p);
            HostPart part = partsInOrder[p];
            if (!h.host().equals(part.verdict().host()) || !part.sameAs(h, comparisons) || restoreState(h) != restoreStates[p]) {
                return false;
            }
        }
        return true;
    }

    /** What the restore burden counts of {@code h}: no QAT facts, ready, or lacking. */
    private static byte restoreState(HostState h) {
        return h.qat() == null ? QAT_UNKNOWN : lacksQat(h) == null ? QAT_READY : QAT_LACKING;
    }

    /** @param comparisons each instance's comparisons, in the fleet's order of hosts and instances */
    FleetCompression(FleetState state, Map<InstanceState, List<Comparison>> comparisons) {
        this(state, comparisons, null);
    }

    /**
     * As {@link #FleetCompression(FleetState, Map)}, reusing of {@code previous} (the last evaluation's, or null) each
     * host whose instances' comparison lists are the same objects.
     */
    FleetCompression(FleetState state, Map<InstanceState, List<Comparison>> comparisons, FleetCompression previous) {
        List<HostPart> inOrder = new ArrayList<>(state.hosts().size());
        int count = 0;
        List<Row> qatNow = new ArrayList<>();
        Map<String, Map<String, Map<Verdict, Integer>>> fleetCounts = new TreeMap<>();
        TreeSet<String> ready = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        int probed = 0;
        int unknown = 0;
        byte[] states = new byte[state.hosts().size()];
        for (HostState h : state.hosts()) {
            List<String> names = new ArrayList<>(h.instances().size());
            List<List<Comparison>> lists = new ArrayList<>(h.instances().size());
            for (InstanceState i : h.instances()) {
                List<Comparison> mine = comparisons.getOrDefault(i, List.of());
                names.add(i.name());
                lists.add(mine);
                byInstance.put(h.host() + "/" + i.name(), mine);
            }
            HostPart part = previous == null ? null : previous.parts.get(h.host());
            if (part == null || !part.sameAs(h, comparisons)) {
                part = part(h.host(), names, lists);
            }
            parts.put(h.host(), part);
            inOrder.add(part);
            int from = count;
            for (List<Comparison> list : part.lists()) {
                count += list.size();
            }
            qatNow.addAll(part.qatCurrent());
            part.counts().forEach((method, byTarget) -> byTarget.forEach((target, verdicts) -> verdicts.forEach(
                    (v, n) -> fleetCounts.computeIfAbsent(method, m -> new TreeMap<>())
                            .computeIfAbsent(target, t -> new EnumMap<>(Verdict.class)).merge(v, n, Integer::sum))));
            hostRows.put(h.host(), new int[] {from, count});
            hosts.put(h.host(), part.verdict());
            // every host that reported counts: one whose agent sent no QAT facts cannot be shown able to restore
            byte restore = restoreState(h);
            states[probed++] = restore;
            if (restore == QAT_UNKNOWN) {
                unknown++;
            } else if (restore == QAT_READY) {
                ready.add(h.host());
            }
        }
        Rows all = new Rows(count);
        int at = 0;
        for (int p = 0; p < inOrder.size(); p++) {
            HostPart part = inOrder.get(p);
            String host = part.verdict().host();
            for (int n = 0; n < part.instances().size(); n++) {
                for (Comparison c : part.lists().get(n)) {
                    all.hosts[at] = host;
                    all.instances[at] = part.instances().get(n);
                    all.comparisons[at++] = c;
                }
            }
        }
        this.rows = all;
        this.qatCurrent = List.copyOf(qatNow);
        this.fleet = verdicts(fleetCounts);
        this.restoreReady = List.copyOf(ready);
        this.probedHosts = probed;
        this.withoutQatFacts = unknown;
        this.partsInOrder = inOrder.toArray(new HostPart[0]);
        this.restoreStates = states;
    }

    /** One host's rows, verdict counts and whether it took QAT_DEFLATE backups. */
    private static HostPart part(String host, List<String> names, List<List<Comparison>> lists) {
        List<Row> qatNow = new ArrayList<>();
        Map<String, Map<String, Map<Verdict, Integer>>> hostCounts = new TreeMap<>();
        boolean qat = false;
        for (int n = 0; n < names.size(); n++) {
            for (Comparison c : lists.get(n)) {
                if (qatWithoutGain(c)) {
                    qatNow.add(new Row(host, names.get(n), c));
                }
                qat |= c.algorithms().stream().anyMatch(e -> e.stats().method().isQat());
                if (c.kind() != BackupKind.FULL) {
                    continue;
                }
                for (Comparison.Entry e : c.algorithms()) {
                    if (e.judgement() == null) {
                        continue;
                    }
                    count(hostCounts, e.stats().method().label(), c.target(), e.judgement().verdict());
                }
            }
        }
        List<TargetVerdicts> targets = verdicts(hostCounts);
        return new HostPart(List.copyOf(names), List.copyOf(lists), List.copyOf(qatNow), hostCounts,
                new HostVerdict(host, sentence(targets), targets, qat));
    }

    private static void count(Map<String, Map<String, Map<Verdict, Integer>>> counts, String method, String target, Verdict v) {
        counts.computeIfAbsent(method, m -> new TreeMap<>()).computeIfAbsent(target, t -> new EnumMap<>(Verdict.class))
                .merge(v, 1, Integer::sum);
    }

    private static List<TargetVerdicts> verdicts(Map<String, Map<String, Map<Verdict, Integer>>> counts) {
        List<TargetVerdicts> out = new ArrayList<>();
        counts.forEach((method, byTarget) -> byTarget.forEach((target, v) -> out.add(new TargetVerdicts(method, target, v))));
        return out;
    }

    /** "QAT_DEFLATE (HARDWARE): faster to local disk for 6 of 8 databases, no gain to the share for 2 of 2". */
    static String sentence(List<TargetVerdicts> targets) {
        if (targets.isEmpty()) {
            return null;
        }
        Map<String, List<String>> parts = new LinkedHashMap<>();
        for (TargetVerdicts t : targets) {
            Verdict v = t.mostCommon();
            int n = t.verdicts().get(v);
            parts.computeIfAbsent(t.method(), m -> new ArrayList<>()).add(v.words() + " " + target(t.target()) + " for " + n
                    + " of " + t.databases() + (t.databases() == 1 ? " database" : " databases"));
        }
        List<String> methods = new ArrayList<>();
        parts.forEach((method, p) -> methods.add(method + ": " + String.join(", ", p)));
        return String.join("; ", methods);
    }

    /** A target kind as a sentence says it: "to local disk", "to the share". */
    public static String target(String target) {
        return switch (target) {
            case "LOCAL" -> "to local disk";
            case "UNC" -> "to the share";
            case "URL" -> "to URL (object) storage";
            case "VIRTUAL_DEVICE" -> "to backup software (virtual device)";
            case "TAPE" -> "to tape";
            case "NUL" -> "to NUL";
            default -> "to " + target.toLowerCase(Locale.ROOT) + " targets";
        };
    }

    /**
     * Why a host could not restore a QAT_DEFLATE backup, or null when it could: restoring one needs the QAT driver
     * and libraries and QAT enabled in SQL Server (HARDWARE_OFFLOAD); hardware is not needed (software mode).
     */
    public static String lacksQat(HostState h) {
        boolean software = h.qat() != null && h.qat().software() != null && h.qat().software().anyInstalled();
        if (!software) {
            return h.qat() == null ? "QAT software unknown" : "no QAT driver or library";
        }
        for (InstanceState i : h.instances()) {
            String mode = QatModes.modeOf(i.accelerators());
            if ("HARDWARE".equals(mode) || "SOFTWARE".equals(mode)) {
                return null;
            }
        }
        return "QAT not enabled in SQL Server (HARDWARE_OFFLOAD)";
    }

    /** Every comparison of the fleet, by host, instance, database, kind, target and encryption. */
    public List<Row> rows() {
        return rows;
    }

    /**
     * Each instance's comparisons by {@code host/instance}: the same list object from one evaluation to the next
     * while nothing changed (the alert stage writes InfluxDB points only for lists that changed).
     */
    public Map<String, List<Comparison>> byInstance() {
        return byInstance;
    }

    /**
     * The rows whose jobs back up with QAT_DEFLATE now ({@link Comparison#current()}) and where that method was judged
     * NO_GAIN or SLOWER against the baseline (what qat-no-gain reports), as {@link #rows()} orders them.
     */
    public List<Row> qatWithoutGainRows() {
        return qatCurrent;
    }

    private static boolean qatWithoutGain(Comparison c) {
        if (c.current() == null || !c.current().isQat()) {
            return false;
        }
        for (Comparison.Entry e : c.algorithms()) {
            if (e.stats().method().equals(c.current()) && e.judgement() != null) {
                // CHEAPER (same speed, less CPU) is a gain worth keeping on a busy host; COSTLIER is no gain at a price.
                Verdict v = e.judgement().verdict();
                return v == Verdict.NO_GAIN || v == Verdict.SLOWER || v == Verdict.COSTLIER;
            }
        }
        return false;
    }

    /** One host's rows, as {@link #rows()} orders them; empty for a host the fleet does not know. */
    public List<Row> rowsOf(String host) {
        int[] range = hostRows.get(host);
        return range == null ? List.of() : rows.subList(range[0], range[1]);
    }

    /** Each host's verdict, by host name. */
    public Map<String, HostVerdict> hosts() {
        return hosts;
    }

    /** The fleet's full backups: per method (against each row's baseline) and target, databases per verdict. */
    public List<TargetVerdicts> fleet() {
        return fleet;
    }

    /** Hosts that could restore a QAT_DEFLATE backup now (QAT software installed and QAT enabled), by name. */
    public List<String> restoreReadyHosts() {
        return restoreReady;
    }

    /** Hosts that reported: the restore-ready hosts are counted out of these (those without QAT facts as not ready). */
    public int probedHosts() {
        return probedHosts;
    }

    /**
     * The row of the jobs' own backups of one database and kind: where its newest backup that was not copy-only
     * went, with its encryption. Empty when every backup of it was copy-only or none counted.
     */
    public Optional<Row> jobRow(String host, String instance, String database, BackupKind kind) {
        Comparison job = null;
        for (Comparison c : byInstance.getOrDefault(host + "/" + instance, List.of())) {
            if (c.kind() == kind && c.currentAt() != null && c.database().equalsIgnoreCase(database)
                    && (job == null || c.currentAt().isAfter(job.currentAt()))) {
                job = c;
            }
        }
        return job == null ? Optional.empty() : Optional.of(new Row(host, instance, job));
    }

    /**
     * "restorable on 3 of 12 probed hosts: a, b, c", "restorable on 0 of 1 probed host (it sent no QAT facts yet)":
     * the restore burden in words.
     */
    public String restoreBurden() {
        StringBuilder s = new StringBuilder("restorable on ").append(restoreReady.size()).append(" of ").append(probedHosts)
                .append(probedHosts == 1 ? " probed host" : " probed hosts");
        if (withoutQatFacts > 0) {
            s.append(" (").append(withoutQatFacts == probedHosts && probedHosts == 1 ? "it" : withoutQatFacts + " of them")
                    .append(" sent no QAT facts yet)");
        }
        if (!restoreReady.isEmpty()) {
            s.append(": ").append(names(restoreReady));
        }
        return s.toString();
    }

    /** The first {@link #NAMES_SHOWN} names, then how many more. */
    static String names(List<String> names) {
        if (names.size() <= NAMES_SHOWN) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMES_SHOWN)) + " and " + (names.size() - NAMES_SHOWN) + " more";
    }
}
