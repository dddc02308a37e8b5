package io.qatwatch.protocol;

import java.time.Instant;
import java.util.List;

/**
 * One report from an agent to the collector; the same shape is what {@code qatwatch probe --json} prints.
 *
 * <p>{@code host}, {@code qat} and {@code licence} are null in reports of cycles that did not probe the
 * host; {@code instances} holds one snapshot per SQL Server instance probed in this cycle.
 */
public record AgentReport(
        int schemaVersion,
        String reportId,
        Instant createdAt,
        AgentInfo agent,
        HostFacts host,
        QatFacts qat,
        LicenceFacts licence,
        List<SqlInstanceSnapshot> instances,
        List<ProbeStatus> probes) {

    /** The schema version this build writes and reads. */
    public static final int SCHEMA_VERSION = 1;

    public AgentReport {
        instances = instances == null ? List.of() : List.copyOf(instances);
        probes = probes == null ? List.of() : List.copyOf(probes);
    }
}
