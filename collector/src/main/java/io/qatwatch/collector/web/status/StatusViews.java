package io.qatwatch.collector.web.status;

import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.web.AcceleratorTimeline;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.FleetPage;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Builds the parts of a {@link StatusView} that come straight from the store. Pure. */
public final class StatusViews {

    private StatusViews() {
    }

    private static final List<String> SEVERITY_ORDER = List.of("critical", "warning", "info");

    /** How far back the algorithm comparison looks. */
    public static final Duration ALGORITHM_PERIOD = Duration.ofDays(30);

    /** At most this many active alerts are on the page; the rest are counted and left to the API. */
    public static final int ALERTS_SHOWN = 50;

    /**
     * Everything one page shows, read on the store's worker (blocking): the fleet's counts per state and group
     * (host names and last reports only), the page of hosts the query asks for, the active alerts its host and
     * group filters match, and the charts and algorithm comparison of the last {@link #ALGORITHM_PERIOD} of the
     * page's hosts only. The alert pipeline and the window analysis may be null while they are not wired.
     *
     * @param groupOf       a host's group in the alert configuration, null for none
     * @param tagsOf        a host's tags ({@code key=value}) for the tag filter
     * @param silentMinutes the agent-silent threshold: a host whose last report is older is silent
     * @param defaultLimit  the page size when the query names none (links leave it out)
     */
    public static StatusView fromStore(ReportStore store, AlertsView alerts, WindowCharts windows,
            Function<String, String> groupOf, Function<String, Set<String>> tagsOf, int silentMinutes, FleetQuery query,
            int defaultLimit, Instant now) throws Exception {
        List<AlertsView.ActiveAlert> active = alerts == null ? List.of() : alerts.active();
        FleetStatus status = FleetStatus.of(active, now, silentMinutes, groupOf, tagsOf);
        FleetStatus.Summary summary = status.summarise(store.hostsSeen());
        FleetPage page = FleetPage.read(store, status, query);
        List<StoredBackup> backups = new ArrayList<>();
        Set<String> hosts = new HashSet<>();
        Map<String, List<AcceleratorTimeline.Point>> timelines = new HashMap<>();
        for (FleetRow row : page.rows()) {
            hosts.add(row.host());
            for (SqlInstanceSnapshot instance : row.instances()) {
                backups.addAll(store.backups(row.host(), instance.name(), now.minus(ALGORITHM_PERIOD)));
                timelines.put(row.host() + "/" + instance.name(), AcceleratorTimeline.of(
                        store.acceleratorChanges(row.host(), instance.name(), now.minus(FleetStates.ACCELERATOR_HISTORY))));
            }
        }
        List<StatusView.ActiveAlert> shown = alerts(FleetStatus.alertsOf(active, query, groupOf, tagsOf));
        return new StatusView(now, summary, new StatusView.Paging(query, defaultLimit, page.next(), shown.size()),
                fleet(page.rows(), status, timelines), shown.subList(0, Math.min(ALERTS_SHOWN, shown.size())),
                windows == null ? List.of() : windows.lastNights(now, hosts), algorithms(backups),
                alerts == null ? List.of() : alerts.channels());
    }

    /** The API's active alerts, most severe first, then the oldest first; {@code details} is the why. */
    public static List<StatusView.ActiveAlert> alerts(List<AlertsView.ActiveAlert> active) {
        return active.stream()
                .sorted(Comparator.comparingInt((AlertsView.ActiveAlert a) -> severityRank(a.severity()))
                        .thenComparing(a -> a.since() == null ? Instant.MAX : a.since()))
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
     * Per host, instance, database and compression algorithm: how its backups did. Only full and
     * differential backups count (log backups are too small to compare); copy-only ones count too; snapshot
     * (VSS) backups do not, as their size is an estimate.
     * Sorted by host, instance, database, then highest throughput first.
     */
    public static List<StatusView.AlgorithmRow> algorithms(List<StoredBackup> backups) {
        Map<List<String>, List<BackupRecord>> groups = new TreeMap<>(Comparator.comparing((List<String> k) -> String.join("\u0000", k)));
        for (StoredBackup b : backups) {
            String type = b.backup().type();
            if (!"D".equals(type) && !"I".equals(type) || b.backup().sizeIsEstimate()) {
                continue;
            }
            List<String> key = List.of(b.host(), b.instance(), b.backup().databaseName(), algorithm(b.backup()));
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(b.backup());
        }
        List<StatusView.AlgorithmRow> rows = new ArrayList<>();
        groups.forEach((key, records) -> {
            double seconds = 0;
            double throughput = 0;
            long size = 0;
            long compressed = 0;
            BackupRecord latest = records.get(0);
            for (BackupRecord r : records) {
                // to the millisecond: msdb keeps datetime (1/300 s), and the page compares algorithms to a tenth of a second
                double s = Math.max(0, Duration.between(r.startedAt(), r.finishedAt()).toMillis() / 1000.0);
                seconds += s;
                throughput += s == 0 ? 0 : r.backupSizeBytes() / 1_048_576.0 / s;
                size += r.backupSizeBytes();
                compressed += r.compressedSizeBytes() == null ? r.backupSizeBytes() : r.compressedSizeBytes();
                if (r.finishedAt().isAfter(latest.finishedAt())) {
                    latest = r;
                }
            }
            int n = records.size();
            rows.add(new StatusView.AlgorithmRow(key.get(0), key.get(1), key.get(2), key.get(3), n, seconds / n,
                    throughput / n, compressed == 0 ? 1.0 : (double) size / compressed, latest.backupSizeBytes()));
        });
        rows.sort(Comparator.comparing(StatusView.AlgorithmRow::host)
                .thenComparing(StatusView.AlgorithmRow::instance)
                .thenComparing(StatusView.AlgorithmRow::database)
                .thenComparing(Comparator.comparingDouble(StatusView.AlgorithmRow::meanThroughputMbps).reversed()));
        return rows;
    }

    /** Uncompressed (no compressed size, or none saved) is NONE; before SQL Server 2022 msdb names no algorithm: MS_XPRESS. */
    private static String algorithm(BackupRecord r) {
        if (r.compressedSizeBytes() == null || r.compressedSizeBytes() >= r.backupSizeBytes()) {
            return "NONE";
        }
        return r.compressionAlgorithm() == null || r.compressionAlgorithm().isBlank() ? "MS_XPRESS" : r.compressionAlgorithm();
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
