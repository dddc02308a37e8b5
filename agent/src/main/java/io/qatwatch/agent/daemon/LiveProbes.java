package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import java.time.Clock;

/** The probes the daemon runs on a real host. */
public final class LiveProbes {

    private LiveProbes() {
    }

    public static AgentDaemon.Probes create() {
        return new AgentDaemon.Probes(
                HostInventoryProbes.live(),
                // The host's zone stands in for backups whose time zone msdb did not record.
                settings -> new JdbcSqlInstanceProbe(settings, Clock.systemDefaultZone()));
    }
}
