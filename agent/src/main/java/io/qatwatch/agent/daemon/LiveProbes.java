package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import java.time.Clock;

/** The probes the daemon runs on a real host: this machine's inventory, and JDBC to each configured instance. */
public final class LiveProbes {

    private LiveProbes() {
    }

    /** {@code clock}'s zone stands in for backups whose time zone msdb did not record. */
    public static AgentDaemon.Probes create(Clock clock) {
        return new AgentDaemon.Probes(HostInventoryProbes.live(), settings -> new JdbcSqlInstanceProbe(settings, clock));
    }
}
