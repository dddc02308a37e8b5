package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.protocol.ProbeStatus;
import java.time.Clock;
import java.util.List;

/** The probes the daemon runs on a real host. */
public final class LiveProbes {

    private LiveProbes() {
    }

    public static AgentDaemon.Probes create() {
        return new AgentDaemon.Probes(
                () -> new HostInventory(null, null, null,
                        List.of(ProbeStatus.failed("host", 0, "the host probe is not part of this build", null))),
                // The host's zone stands in for backups whose time zone msdb did not record.
                settings -> new JdbcSqlInstanceProbe(settings, Clock.systemDefaultZone()));
    }
}
