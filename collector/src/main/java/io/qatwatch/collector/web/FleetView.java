package io.qatwatch.collector.web;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * The {@code GET /api/v1/fleet} rows: one per host, its group and state, QAT, licence, SQL Server instances
 * and last report.
 */
public record FleetView(
        String host,
        String group,
        String state,
        Instant lastSeen,
        long secondsSinceLastReport,
        String agentVersion,
        String cpuVendor,
        String cpuModel,
        String virtualization,
        int qatDevices,
        Boolean qatCompressionReady,
        String licenceVerdict,
        List<String> licenceNotes,
        List<Instance> instances) {

    /** One SQL Server instance's summary. */
    public record Instance(String name, String productVersion, String edition, String acceleratorMode,
            String acceleratorReason, Long backupHighWaterMark, List<String> availabilityGroups) {
    }

    /** The rows as the API shows them; {@code status} gives each host's group and state. */
    public static List<FleetView> of(List<FleetRow> rows, Instant now, FleetStatus status) {
        return rows.stream().map(r -> of(r, now, status)).toList();
    }

    static FleetView of(FleetRow r, Instant now, FleetStatus status) {
        var cpu = r.facts() == null ? null : r.facts().cpu();
        return new FleetView(
                r.host(),
                status.groupOf(r.host()),
                status.stateOf(r.host(), r.lastSeen()).label(),
                r.lastSeen(),
                Math.max(0, now.getEpochSecond() - r.lastSeen().getEpochSecond()),
                r.agent() == null ? null : r.agent().version(),
                cpu == null ? null : cpu.vendor(),
                cpu == null ? null : cpu.model(),
                r.facts() == null ? null : r.facts().virtualization(),
                r.qat() == null ? 0 : r.qat().devices().size(),
                r.qat() == null ? null : r.qat().compressionReady(),
                r.licence() == null ? null : r.licence().verdict().name(),
                r.licence() == null ? List.of() : r.licence().notes(),
                r.instances().stream().map(FleetView::instance).toList());
    }

    private static Instance instance(SqlInstanceSnapshot s) {
        var qat = s.accelerators() == null ? null
                : s.accelerators().stream().filter(a -> "QAT".equalsIgnoreCase(a.accelerator())).findFirst().orElse(null);
        return new Instance(s.name(),
                s.server() == null ? null : s.server().productVersion(),
                s.server() == null ? null : s.server().edition(),
                qat == null ? null : qat.modeDesc(),
                qat == null ? null : qat.modeReasonDesc(),
                s.backupHighWaterMark(),
                availabilityGroups(s));
    }

    /** Each availability group the instance's databases are in, with this replica's role: {@code ag-orders SECONDARY}. */
    public static List<String> availabilityGroups(SqlInstanceSnapshot s) {
        if (s.databases() == null) {
            return List.of();
        }
        return s.databases().stream().filter(d -> d.availabilityGroup() != null)
                .map(d -> d.availabilityGroup() + (d.replicaRole() == null ? "" : " " + d.replicaRole()))
                .distinct().sorted().toList();
    }
}
