package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.tds.Column;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class SqlProbeOptionsTest {

    @Command(name = "probe")
    static final class ProbeLike {
        @Mixin
        SqlProbeOptions sql;
    }

    @TempDir
    Path dir;

    private static SqlProbeOptions parse(String... args) {
        ProbeLike command = new ProbeLike();
        new CommandLine(command).parseArgs(args);
        return command.sql;
    }

    @Test
    void probesTheInstanceFromTheCommandLineAndReadsTheNewestBackups() {
        var scenario = SqlScenarios.scenario("sql2022-enterprise-hardware").answer("latest-backup-set-id.sql",
                TdsResponse.rows(List.of(Column.col("latest_backup_set_id", "int")), List.of(List.of(41_230))));
        try (TdsTestServer server = TdsTestServer.start(scenario)) {
            SqlProbeOptions options = parse("--sql", server.jdbcUrl(), "--sql-user", SqlScenarios.USER,
                    "--sql-password-file", SqlScenarios.passwordFile(dir).toString());
            SqlProbeResult r = options.probe(SqlScenarios.CLOCK);
            assertThat(r.probes()).allSatisfy(p -> assertThat(p.ok()).as(p.name()).isTrue());
            assertThat(r.snapshot().name()).isEqualTo("MSSQLSERVER");
            assertThat(server.batches()).filteredOn(b -> b.contains("backup-history-2022.sql")).singleElement()
                    .satisfies(b -> assertThat(b).contains("backup_set_id > " + (41_230 - SqlProbeOptions.RECENT_BACKUPS)));
            assertThat(SqlInstanceSummary.render(r.snapshot(), r.probes())).contains("Payments  full          QAT_DEFLATE");
        }
    }

    @Test
    void namesTheInstanceAfterTheUrlAndPicksThePasswordSource() {
        SqlInstanceSettings s = parse("--sql", "jdbc:sqlserver://sql01\\PROD;databaseName=master", "--sql-user", "mon",
                "--trust-server-certificate").settings();
        assertThat(s.name()).isEqualTo("PROD");
        assertThat(s.passwordEnv()).isEqualTo(SqlProbeOptions.PASSWORD_ENV);
        assertThat(s.trustServerCertificate()).isTrue();
        SqlInstanceSettings windows = parse("--sql", "jdbc:sqlserver://sql01:1433").settings();
        assertThat(windows.user()).isNull();
        assertThat(windows.passwordEnv()).isNull();
        assertThat(windows.name()).isEqualTo("MSSQLSERVER");
    }

    @Test
    void aUrlThatIsNotSqlServerIsRejectedNamingTheOption() {
        assertThatThrownBy(() -> parse("--sql", "sql01:1433").settings())
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--sql must be a JDBC URL");
    }
}
