package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qatwatch probe --sql}: the host read from a fixture root, the instance through mssql-jdbc and the TDS test server. */
class ProbeCommandSqlTest {

    private static final Path HOST = Path.of("src/test/resources/hosts/linux-spr-4xxx-dc-up");

    private static Scenario vmWithoutQat() {
        return Scenario.fromResource("/sqlserver/scenarios/sql2022-enterprise-vm-no-qat.json").answer("latest-backup-set-id.sql",
                TdsResponse.rows(List.of(Column.col("latest_backup_set_id", "int")), List.of(List.of(20314))));
    }

    @Test
    void printsTheInstanceSummaryAndTheAlgorithmComparison(@TempDir Path tmp) throws Exception {
        Path password = tmp.resolve("pw");
        Files.writeString(password, "s3cret-Pa55\n");
        try (TdsTestServer server = TdsTestServer.start(vmWithoutQat())) {
            ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--root", HOST.toString(), "--sql", server.jdbcUrl(),
                    "--sql-user", "qatwatch_monitor", "--sql-password-file", password.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("SQL Server MSSQLSERVER: SQLVM07 on SQLVM07, 16.0.4165.4 (SQL Server 2022)")
                    .contains("SalesDW   full          MS_XPRESS           1        8m 19.6s   3.11x     249.5")
                    .contains("SalesDW   full          QAT_DEFLATE         1        3m 58.6s   2.95x     522.5");
        }
    }

    @Test
    void theJsonReportCarriesTheInstanceAndAFailedLoginIsAProblemNotACrash(@TempDir Path tmp) throws Exception {
        Path wrong = tmp.resolve("pw");
        Files.writeString(wrong, "wrong\n");
        try (TdsTestServer server = TdsTestServer.start(vmWithoutQat())) {
            ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--json", "--root", HOST.toString(), "--sql",
                    server.jdbcUrl(), "--sql-user", "qatwatch_monitor", "--sql-password-file", wrong.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            AgentReport report = ReportJson.parse(run.out().getBytes(StandardCharsets.UTF_8));
            assertThat(ReportValidator.validate(report, ProbeScenarioGoldenTest.NOW)).isEmpty();
            assertThat(report.instances()).singleElement().satisfies(i -> assertThat(i.server()).isNull());
            assertThat(report.probes()).filteredOn(p -> p.name().equals("sqlserver:MSSQLSERVER/connect")).singleElement()
                    .satisfies(p -> assertThat(p.error()).contains("Login failed for user 'qatwatch_monitor'"));
        }
    }
}
