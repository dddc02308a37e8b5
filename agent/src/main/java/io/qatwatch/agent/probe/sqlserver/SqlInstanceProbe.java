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

    /**
     * As {@link #probe(Set, Long)}, with the high-water mark of each history: job runs, CommandLog and restores are read
     * only above theirs. Implementations that read no such history need not override it.
     */
    default SqlProbeResult probeAfter(Set<SqlSection> sections, HistoryMarks marks) {
        return probe(sections, marks.backupSetId());
    }
}
