package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.OshiSqlServerProcess;
import io.qatwatch.agent.probe.sqlserver.SqlServerProcess;
import java.time.Clock;

/**
 * The probes the daemon runs on a real host: this machine's inventory, and JDBC to each configured instance, with the
 * SQL Server process's CPU read through OSHI while a backup or restore runs.
 */
public final class LiveProbes {

    private LiveProbes() {
    }

    /** {@code clock}'s zone stands in for backups whose time zone msdb did not record. */
    public static AgentDaemon.Probes create(Clock clock) {
        SqlServerProcess process = new OshiSqlServerProcess();
        return new AgentDaemon.Probes(HostInventoryProbes.live(), settings -> new JdbcSqlInstanceProbe(settings, clock, process));
    }
}
