package io.qatwatch.collector.web.status;

import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.web.AcceleratorTimeline;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.CompressionView;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Builds the host and database pages' views from the store, the alert pipeline, the window analysis and the
 * compression comparison (each may be null while not wired). Blocking: run on a worker.
 */
public final class DrillDownViews {

    /** How far back the database page's charts reach. */
    public static final int LOOKBACK_DAYS = 30;

    /** What the pages read besides the store; any part may be null while its stage is not wired. */
    public record Sources(ReportStore store, AlertsView alerts, WindowCharts windows, CompressionView compression,
                          Function<String, String> groupOf, Function<String, Set<String>> tagsOf, int silentMinutes,
                          List<HostView.SilenceRow> silences) {
    }

    private DrillDownViews() {
    }

    /** The most resolved alerts the host page lists. */
    public static final int RESOLVED_LIMIT = 50;

    /** The host page's view; empty when the store does not know the host. */
    public static Optional<HostView> host(Sources s, String host, Instant now) throws Exception {
        Optional<FleetRow> found = s.store().fleetRow(host);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        FleetRow row = found.get();
        List<AlertsView.ActiveAlert> active = s.alerts() == null ? List.of() : s.alerts().active();
        FleetStatus status = FleetStatus.of(active, now, s.silentMinutes(), s.groupOf(), s.tagsOf());
        Map<String, List<AcceleratorTimeline.Point>> timelines = new HashMap<>();
        for (SqlInstanceSnapshot i : row.instances()) {
            timelines.put(row.host() + "/" + i.name(), AcceleratorTimeline.of(
                    s.store().acceleratorChanges(row.host(), i.name(), now.minus(FleetStates.ACCELERATOR_HISTORY))));
        }
        StatusView.HostRow hostRow = StatusViews.fleet(List.of(row), status, timelines).get(0);
        List<List<HostView.DatabaseRef>> databases = new ArrayList<>();
        for (StatusView.SqlInstanceRow i : hostRow.instances()) {
            SqlInstanceSnapshot snapshot = row.instances().stream().filter(x -> x.name().equals(i.name())).findFirst().orElseThrow();
            databases.add(snapshot.databases() == null ? List.of() : snapshot.databases().stream()
                    .sorted(Comparator.comparing(DatabaseInfo::name, String.CASE_INSENSITIVE_ORDER))
                    .map(d -> new HostView.DatabaseRef(d.name(), d.recoveryModel(), d.availabilityGroup(), d.replicaRole()))
                    .toList());
        }
        FleetCompression latest = s.compression() == null ? null : s.compression().latest();
        List<StatusView.HostCompression> compression = latest == null ? List.of()
                : StatusViews.compression(latest, Set.of(row.host())).hosts();
        List<HostView.ResolvedAlert> resolved = s.alerts() == null ? List.of() : s.alerts().resolved(row.host(), RESOLVED_LIMIT)
                .stream().map(a -> new HostView.ResolvedAlert(a.rule(), a.severity(), a.instance(), a.database(), a.summary(),
                        a.since(), a.resolvedAt())).toList();
        return Optional.of(new HostView(now, hostRow, facts(row), databases, alertsOn(active, row.host(), null, null), resolved,
                s.windows() == null ? List.of() : s.windows().lastNights(now, Set.of(row.host())),
                compression.isEmpty() ? null : compression.get(0),
                s.silences().stream().filter(x -> x.host() == null || x.host().isBlank()
                        || HostGroupConfig.glob(x.host(), row.host())).toList()));
    }

    /** The database page's view; empty when neither the instance's databases nor its backups name it. */
    public static Optional<DatabaseView> database(Sources s, String host, String instance, String database, Instant now)
            throws Exception {
        Optional<FleetRow> found = s.store().fleetRow(host);
        SqlInstanceSnapshot snapshot = found.flatMap(r -> r.instances().stream()
                .filter(i -> i.name().equalsIgnoreCase(instance)).findFirst()).orElse(null);
        if (snapshot == null) {
            return Optional.empty();
        }
        DatabaseInfo info = snapshot.databases() == null ? null : snapshot.databases().stream()
                .filter(d -> database.equalsIgnoreCase(d.name())).findFirst().orElse(null);
        List<BackupRecord> backups = s.store().backups(found.get().host(), snapshot.name(), now.minus(Duration.ofDays(LOOKBACK_DAYS)))
                .stream().map(StoredBackup::backup).filter(b -> database.equalsIgnoreCase(b.databaseName()) && b.startedAt() != null)
                .sorted(Comparator.comparing(BackupRecord::startedAt)).toList();
        if (info == null && backups.isEmpty()) {
            return Optional.empty();
        }
        String name = info != null ? info.name() : backups.get(0).databaseName();
        String hostName = found.get().host();
        List<StatusView.InstanceWindows> windows = s.windows() == null ? List.of() : s.windows().lastNights(now, Set.of(hostName));
        StatusView.InstanceWindows mine = windows.stream().filter(w -> w.instance().equalsIgnoreCase(snapshot.name()))
                .findFirst().orElse(null);
        StatusView.RestoreTest restore = mine == null ? null : mine.restoreTests().stream()
                .filter(t -> t.database().equalsIgnoreCase(name)).findFirst().orElse(null);
        FleetCompression latest = s.compression() == null ? null : s.compression().latest();
        List<StatusView.CompressionRow> compression = latest == null ? List.of() : latest.rowsOf(hostName).stream()
                .filter(r -> r.instance().equalsIgnoreCase(snapshot.name()) && r.comparison().database().equalsIgnoreCase(name))
                .map(StatusViews::row).toList();
        List<AlertsView.ActiveAlert> active = s.alerts() == null ? List.of() : s.alerts().active();
        Instant since = now.minus(Duration.ofDays(LOOKBACK_DAYS));
        var plan = io.qatwatch.collector.analysis.RestorePlans.read(s.store(), hostName, snapshot.name(), name, since);
        return Optional.of(new DatabaseView(now, hostName, snapshot.name(), name, databaseFacts(info), backups, LOOKBACK_DAYS,
                mine == null ? ZoneOffset.UTC : mine.zone(), compression, restore, replicas(s.store(), hostName, snapshot.name(), info),
                alertsOn(active, hostName, snapshot.name(), name),
                plan.map(io.qatwatch.collector.web.RestorePlanJson::of).map(io.qatwatch.collector.web.RestorePlanJson::plan).orElse(null),
                plan.isEmpty() ? null : io.qatwatch.collector.analysis.RestoreEstimates.read(s.store(), plan.get(), since, latest),
                DatabaseEventsSection.events(s.store(), hostName, snapshot.name(), name, now.minus(Duration.ofDays(LOOKBACK_DAYS)))));
    }

    /** The active alerts on a host (and, when given, its instance and database), most severe first. */
    private static List<StatusView.ActiveAlert> alertsOn(List<AlertsView.ActiveAlert> active, String host, String instance,
            String database) {
        return StatusViews.alerts(active.stream().filter(a -> host.equalsIgnoreCase(a.host())
                && (instance == null || instance.equalsIgnoreCase(a.instance()))
                && (database == null || database.equalsIgnoreCase(a.database()))).toList());
    }

    /** The other copies of an availability-group database: every host reporting it, by its GUIDs. */
    private static List<DatabaseView.Replica> replicas(ReportStore store, String host, String instance, DatabaseInfo info)
            throws Exception {
        if (info == null || info.availabilityGroup() == null) {
            return List.of();
        }
        List<String> guids = new ArrayList<>();
        if (info.databaseGuid() != null) {
            guids.add(info.databaseGuid());
        }
        if (info.groupDatabaseId() != null) {
            guids.add(info.groupDatabaseId());
        }
        List<DatabaseView.Replica> out = new ArrayList<>();
        for (String other : guids.isEmpty() ? Set.<String>of() : store.hostsWithAvailabilityDatabases(guids)) {
            Optional<FleetRow> row = store.fleetRow(other);
            for (SqlInstanceSnapshot i : row.map(FleetRow::instances).orElse(List.of())) {
                if (other.equals(host) && i.name().equals(instance)) {
                    continue;
                }
                for (DatabaseInfo d : i.databases() == null ? List.<DatabaseInfo>of() : i.databases()) {
                    if (info.availabilityGroup().equalsIgnoreCase(String.valueOf(d.availabilityGroup()))
                            && info.name().equalsIgnoreCase(d.name())) {
                        out.add(new DatabaseView.Replica(other, i.name(), d.replicaRole()));
                    }
                }
            }
        }
        return out;
    }

    private static List<StatusView.Fact> databaseFacts(DatabaseInfo d) {
        List<StatusView.Fact> out = new ArrayList<>();
        if (d == null) {
            out.add(new StatusView.Fact("State", "no longer listed by the instance (its backups are still in the lookback period)"));
            return out;
        }
        add(out, "Recovery model", d.recoveryModel());
        add(out, "Encryption", d.encryptionState());
        if (d.availabilityGroup() != null) {
            out.add(new StatusView.Fact("Availability group", d.availabilityGroup() + (d.replicaRole() == null ? ""
                    : ", this replica " + d.replicaRole()) + (Boolean.TRUE.equals(d.preferredBackupReplica())
                    ? ", the preferred backup replica" : "")));
        }
        if (Boolean.TRUE.equals(d.autoClose())) {
            out.add(new StatusView.Fact("AUTO_CLOSE", "on"));
        }
        return out;
    }

    /** CPU, system, OS, memory, QAT devices and software, as the agent reported them. */
    private static List<StatusView.Fact> facts(FleetRow row) {
        List<StatusView.Fact> out = new ArrayList<>();
        HostFacts f = row.facts();
        if (f != null) {
            if (f.cpu() != null) {
                add(out, "CPU", join(f.cpu().vendor(), f.cpu().model(), f.cpu().sockets() == null ? null
                        : f.cpu().sockets() + (f.cpu().sockets() == 1 ? " socket" : " sockets"), f.cpu().logicalCores() == null
                        ? null : f.cpu().logicalCores() + " logical cores"));
            }
            if (f.system() != null) {
                add(out, "System", join(f.system().manufacturer(), f.system().model(), f.virtualization()));
            }
            if (f.os() != null) {
                add(out, "Operating system", join(f.os().name(), f.os().version()));
            }
            if (f.memoryBytes() != null) {
                add(out, "Memory", Html.bytes(f.memoryBytes()));
            }
        }
        if (row.qat() != null) {
            if (row.qat().devices().isEmpty()) {
                out.add(new StatusView.Fact("QAT devices", "none found"));
            }
            for (QatDevice d : row.qat().devices()) {
                add(out, "QAT device " + d.address(), join(d.name(), d.generation(), d.driver() == null ? "no driver bound"
                        : "driver " + d.driver(), d.state()));
            }
            QatSoftware sw = row.qat().software();
            if (sw != null) {
                add(out, "QAT software", sw.anyInstalled() ? join(names(sw.drivers()), names(sw.kernelModules()),
                        names(sw.libraries()), names(sw.services())) : "none installed");
            }
        }
        return out;
    }

    private static String names(List<QatSoftware.SoftwareItem> items) {
        List<String> out = new ArrayList<>();
        for (QatSoftware.SoftwareItem i : items) {
            out.add(i.version() == null ? i.name() : i.name() + " " + i.version());
        }
        return out.isEmpty() ? null : String.join(", ", out);
    }

    private static String join(String... parts) {
        List<String> out = new ArrayList<>();
        for (String p : parts) {
            if (p != null && !p.isBlank()) {
                out.add(p);
            }
        }
        return out.isEmpty() ? null : String.join(", ", out);
    }

    private static void add(List<StatusView.Fact> out, String label, String value) {
        if (value != null && !value.isBlank()) {
            out.add(new StatusView.Fact(label, value.toLowerCase(Locale.ROOT).equals("null") ? "unknown" : value));
        }
    }
}
