package io.qatwatch.agent.probe.sqlserver;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Locale;
import oshi.SystemInfo;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/**
 * Reads the SQL Server process's CPU with OSHI ({@link OSProcess#getKernelTime()} + {@link OSProcess#getUserTime()}):
 * one process by id, only when SQL Server runs on this host (its {@code MachineName} is this host's name) and the
 * process is {@code sqlservr}. Blocking: call it off the event loop.
 */
public final class OshiSqlServerProcess implements SqlServerProcess {

    private final String localHost;
    private OperatingSystem os;

    public OshiSqlServerProcess() {
        this(localHostName());
    }

    OshiSqlServerProcess(String localHost) {
        this.localHost = localHost;
    }

    @Override
    public synchronized Sample sample(String machineName, long processId) {
        if (!sameMachine(machineName, localHost)) {
            return Sample.unavailable("SQL Server runs on " + machineName + ", not on this host (" + localHost
                    + "): the agent cannot read its process");
        }
        if (os == null) {
            os = new SystemInfo().getOperatingSystem();
        }
        OSProcess p = os.getProcess((int) processId);
        if (p == null) {
            return Sample.unavailable("no process " + processId + " on this host (SERVERPROPERTY('ProcessID'))");
        }
        if (!isSqlServer(p.getName())) {
            return Sample.unavailable("process " + processId + " is " + p.getName() + ", not sqlservr");
        }
        return new Sample(processId, p.getKernelTime() + p.getUserTime(),
                p.getStartTime() > 0 ? Instant.ofEpochMilli(p.getStartTime()) : null, null);
    }

    /** Whether SERVERPROPERTY('MachineName') names this host: compared without domain and case (NetBIOS names are upper case). */
    static boolean sameMachine(String machineName, String localHost) {
        if (machineName == null || localHost == null) {
            return false;
        }
        return shortName(machineName).equals(shortName(localHost));
    }

    /** {@code sqlservr} on Linux, {@code sqlservr.exe} (OSHI may drop the extension) on Windows. */
    static boolean isSqlServer(String processName) {
        return processName != null && processName.toLowerCase(Locale.ROOT).startsWith("sqlservr");
    }

    private static String shortName(String name) {
        int dot = name.indexOf('.');
        return (dot < 0 ? name : name.substring(0, dot)).toLowerCase(Locale.ROOT);
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
