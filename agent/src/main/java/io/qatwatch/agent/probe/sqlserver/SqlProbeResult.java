package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.util.List;

/**
 * One read of one instance: the snapshot (sections not read are null), per-query status, and whether the
 * backup-history page was full so that more rows wait above the new high-water mark.
 */
public record SqlProbeResult(SqlInstanceSnapshot snapshot, List<ProbeStatus> probes, boolean moreBackupsPending) {

    public SqlProbeResult {
        probes = probes == null ? List.of() : List.copyOf(probes);
    }
}
