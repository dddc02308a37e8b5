package io.qatwatch.agent.probe.sqlserver;

import java.util.Set;

/**
 * Reads one SQL Server instance through JDBC. Blocking: call it off the event loop. A failed query, a
 * missing permission or an unreachable server is reported in {@link SqlProbeResult#probes()}, never thrown.
 */
public interface SqlInstanceProbe {

    /**
     * @param sections         what to read this cycle
     * @param afterBackupSetId the high-water mark: only backup rows above it are read; null for the first sync
     */
    SqlProbeResult probe(Set<SqlSection> sections, Long afterBackupSetId);
}
