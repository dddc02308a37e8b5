package io.qatwatch.collector.web;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import java.util.List;

/** The {@code GET /api/v1/fleet} rows: one per host, its QAT, licence, SQL Server instances and last report. */
public record FleetView(
        String host,
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
            String acceleratorReason, Long backupHighWaterMark) {
    }

    public static List<FleetView> of(List<FleetRow> rows, Instant now) {
        return rows.stream().map(r -> of(r, now)).toList();
    }

    static FleetView of(FleetRow r, Instant now) {
        var cpu = r.facts() == null ? null : r.facts().cpu();
        return new FleetView(
                r.host(),
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
                s.backupHighWaterMark());
    }
}
