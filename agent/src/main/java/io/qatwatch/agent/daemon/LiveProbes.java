package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.protocol.ProbeStatus;
import java.util.List;

/** The probes the daemon runs on a real host. */
public final class LiveProbes {

    private LiveProbes() {
    }

    public static AgentDaemon.Probes create() {
        return new AgentDaemon.Probes(
                () -> new HostInventory(null, null, null,
                        List.of(ProbeStatus.failed("host", 0, "the host probe is not part of this build", null))),
                settings -> (sections, after) -> new io.qatwatch.agent.probe.sqlserver.SqlProbeResult(null,
                        List.of(ProbeStatus.failed("sqlserver:" + settings.name(), 0,
                                "the SQL Server probe is not part of this build", null)), false));
    }
}
