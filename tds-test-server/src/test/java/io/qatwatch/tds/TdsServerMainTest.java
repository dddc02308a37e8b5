package io.qatwatch.tds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code qatwatch tds-server}: a scenario file served by hand, answered through the real driver. */
class TdsServerMainTest {

    private static final Path FIXTURE = Path.of("src/test/resources/fixture-example.json");

    record Run(int exitCode, String out, String err, TdsServerMain command) {
    }

    static Run run(String... args) {
        TdsServerMain command = new TdsServerMain();
        CommandLine cli = TdsServerMain.commandLine(command);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] withName = new String[args.length + 1];
        withName[0] = "tds-server";
        System.arraycopy(args, 0, withName, 1, args.length);
        int code = cli.execute(withName);
        return new Run(code, out.toString(), err.toString(), command);
    }

    @Test
    void servesTheScenarioFileOnThePortItPrintsAndLogsBatches() throws Exception {
        Run run = run("--scenario", FIXTURE.toString(), "--port", "0", "--log-batches");
        assertThat(run.exitCode()).as(run.err()).isZero();
        try (TdsTestServer server = run.command().server()) {
            Matcher url = Pattern.compile("JDBC URL  (\\S+)").matcher(run.out());
            assertThat(url.find()).as(run.out()).isTrue();
            assertThat(url.group(1)).isEqualTo(server.jdbcUrl());
            assertThat(run.out()).contains("scenario 'fixture-example'", "SQL Server 15.0.4375.4",
                    "configuration.sql, accelerator-status.sql");
            // the start lines say which login the scenario accepts, password included: log in with what they say
            Matcher login = Pattern.compile("logins    only user (\\S+) with password (\\S+) \\(the scenario's login.password\\)")
                    .matcher(run.out());
            assertThat(login.find()).as(run.out()).isTrue();
            try (Connection c = DriverManager.getConnection(url.group(1), login.group(1), login.group(2));
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("-- qatwatch query: configuration.sql\nSELECT name FROM sys.configurations")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("name")).isEqualTo("backup compression algorithm");
                assertThat(rs.getLong("value_in_use")).isEqualTo(2);
            }
        }
    }

    @Test
    void aMissingOrBrokenScenarioIsAUsageErrorNamingTheFile(@TempDir Path tmp) throws Exception {
        Run missing = run("--scenario", tmp.resolve("nope.json").toString(), "--port", "0");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.json: no such file");
        assertThat(missing.command().server()).isNull();

        Path broken = tmp.resolve("broken.json");
        Files.writeString(broken, "{\"queries\": {\"x.sql\": {\"columns\": [\"a int\"], \"rows\": [[1, 2]]}}}");
        Run bad = run("--scenario", broken.toString(), "--port", "0");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("broken.json", "queries.x.sql", "has 2 values for 1 columns");
    }

    @Test
    void aPortInUseExitsOneAndSaysWhatToDo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = run("--scenario", FIXTURE.toString(), "--port", Integer.toString(taken.getLocalPort()));
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).contains("127.0.0.1:" + taken.getLocalPort(), "--port");
        }
    }

    @Test
    void versionHelpAndABadFlag() {
        Run version = run("-V");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("qatwatch tds-server ");
        Run bad = run("--scenario", FIXTURE.toString(), "--bogus");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("Unknown option: '--bogus'", "Usage: qatwatch tds-server");
    }
}
