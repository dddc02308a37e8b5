package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The OSHI reader on this machine's own processes: it reads only a local sqlservr, and says why not otherwise. */
class OshiSqlServerProcessTest {

    @Test
    void aServerOnAnotherMachineIsNotRead() {
        SqlServerProcess.Sample s = new OshiSqlServerProcess("agent-host").sample("SQL01", ProcessHandle.current().pid());
        assertThat(s.read()).isFalse();
        assertThat(s.why()).isEqualTo("SQL Server runs on SQL01, not on this host (agent-host): the agent cannot read its process");
    }

    @Test
    void aLocalProcessThatIsNotSqlServerIsNamedAndNotRead() {
        // This JVM is a real local process that OSHI reads; it is java, so its CPU is not taken for SQL Server's.
        SqlServerProcess.Sample s = new OshiSqlServerProcess("sql01.corp.example").sample("SQL01", ProcessHandle.current().pid());
        assertThat(s.read()).isFalse();
        assertThat(s.why()).contains("process " + ProcessHandle.current().pid() + " is java").endsWith("not sqlservr");
    }

    @Test
    void machineNamesCompareWithoutDomainOrCaseAndSqlservrWithOrWithoutExe() {
        assertThat(OshiSqlServerProcess.sameMachine("SQL01", "sql01.corp.example")).isTrue();
        assertThat(OshiSqlServerProcess.sameMachine("SQL02", "sql01")).isFalse();
        assertThat(OshiSqlServerProcess.isSqlServer("sqlservr.exe")).isTrue();
        assertThat(OshiSqlServerProcess.isSqlServer("sqlservr")).isTrue();
        assertThat(OshiSqlServerProcess.isSqlServer("SQLAGENT")).isFalse();
    }
}
