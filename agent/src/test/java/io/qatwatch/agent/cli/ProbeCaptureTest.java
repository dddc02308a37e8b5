package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsServerMain;
import io.qatwatch.tds.TdsTestServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code qatwatch probe --capture DIR [--anonymize]}: what the probe read is written down, and replayed
 * ({@code probe --root}/{@code --registry}, {@code tds-server --scenario}) it gives the same report.
 */
class ProbeCaptureTest {

    private static final Path HOSTS = ProbeScenarioGoldenTest.HOSTS;
    private static final String USER = "qatwatch_monitor";

    /** A malformed export's skipped lines are not keys: the capture cannot hold them, so its replay has no such problem. */
    private static final List<String> NOT_REPLAYABLE = List.of("windows-malformed-registry");

    static Stream<String> hostScenarios() throws IOException {
        return ProbeScenarioGoldenTest.scenarios().filter(s -> !NOT_REPLAYABLE.contains(s));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostScenarios")
    void everyHostFixtureCapturedAndReplayedGivesTheSameReport(String scenario, @TempDir Path tmp) throws IOException {
        Path capture = tmp.resolve("capture");
        ProbeScenarioGoldenTest.Run original = ProbeScenarioGoldenTest.probe(scenario, "--json", "--capture", capture.toString());
        assertThat(original.exitCode()).as(original.err()).isZero();
        assertThat(original.err()).contains("capture written to " + capture);

        boolean windows = Files.exists(HOSTS.resolve(scenario).resolve("registry.reg"));
        ProbeScenarioGoldenTest.Run replay = windows
                ? ProbeScenarioGoldenTest.run("probe", "--json", "--registry", capture.resolve("registry.reg").toString())
                : ProbeScenarioGoldenTest.run("probe", "--json", "--root", capture.resolve("root").toString());
        assertThat(replay.exitCode()).as(replay.err()).isZero();

        String source = HOSTS.resolve(scenario).resolve(windows ? "registry.reg" : "").toString();
        String copy = capture.resolve(windows ? "registry.reg" : "root").toString();
        assertThat(comparable(replay.out(), copy)).isEqualTo(comparable(original.out(), source));
        assertThat(comparable(Files.readString(capture.resolve("report.json")), source)).isEqualTo(comparable(original.out(), source));
    }

    @Test
    void aCaptureHoldsOnlyWhatTheProbeReadNotTheLibrariesOrFirmwareThemselves(@TempDir Path tmp) throws IOException {
        Path capture = tmp.resolve("capture");
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.probe("linux-spr-4xxx-dc-up", "--capture", capture.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path root = capture.resolve("root");
        assertThat(root.resolve("proc/cpuinfo")).hasSameTextualContentAs(HOSTS.resolve("linux-spr-4xxx-dc-up/proc/cpuinfo"));
        assertThat(Files.readSymbolicLink(root.resolve("sys/bus/pci/devices/0000:6b:00.0")))
                .isEqualTo(Files.readSymbolicLink(HOSTS.resolve("linux-spr-4xxx-dc-up/sys/bus/pci/devices/0000:6b:00.0")));
        assertThat(root.resolve("sys/bus/pci/devices/0000:6b:00.0/qat/cfg_services")).hasContent("dc");
        try (Stream<Path> firmware = Files.list(root.resolve("lib/firmware"))) {
            assertThat(firmware).isNotEmpty().allSatisfy(f -> assertThat(Files.size(f)).as("%s is a name only", f).isZero());
        }
        assertThat(Files.readString(capture.resolve("README.txt"))).contains("qatwatch probe --json --root " + root);
    }

    /**
     * A real host's pci.ids names every PCI device ever made (1.4 MB of a 1.9 MB capture): the capture keeps only the
     * lines naming the devices this host has, and its replay names them the same.
     */
    @Test
    void aCaptureKeepsOnlyThePciIdsLinesThatNameTheHostsDevices(@TempDir Path tmp) throws Exception {
        Path host = tmp.resolve("host");
        Process copy = new ProcessBuilder("cp", "-a", HOSTS.resolve("linux-spr-4xxx-dc-up").toString(), host.toString()).start();
        assertThat(copy.waitFor()).isZero();
        Path ids = host.resolve("usr/share/hwdata/pci.ids");
        StringBuilder database = new StringBuilder(Files.readString(ids));
        for (int v = 0; v < 4000; v++) {
            database.append(String.format(java.util.Locale.ROOT, "%04x  Vendor number %d of the whole world%n", 0xa000 + v, v));
            for (int d = 0; d < 8; d++) {
                database.append(String.format(java.util.Locale.ROOT, "\t%04x  Device %d of vendor %d, a long name%n", d, d, v));
            }
        }
        Files.writeString(ids, database);
        assertThat(Files.size(ids)).isGreaterThan(1_000_000);

        Path capture = tmp.resolve("capture");
        ProbeScenarioGoldenTest.Run original = ProbeScenarioGoldenTest.run("probe", "--json", "--root", host.toString(),
                "--capture", capture.toString());
        assertThat(original.exitCode()).as(original.err()).isZero();
        Path captured = capture.resolve("root/usr/share/hwdata/pci.ids");
        assertThat(Files.size(captured)).as("pci.ids in the capture").isLessThan(4 * 1024);
        assertThat(Files.readString(captured)).startsWith("# qatwatch probe --capture: only the lines of pci.ids")
                .contains("8086  Intel Corporation").doesNotContain("Vendor number");
        ProbeScenarioGoldenTest.Run replay = ProbeScenarioGoldenTest.run("probe", "--json", "--root", capture.resolve("root").toString());
        assertThat(comparable(replay.out(), capture.resolve("root").toString())).isEqualTo(comparable(original.out(), host.toString()));
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sql2022-enterprise-hardware", "sql2022-no-view-server-state",
            "sql2019-standard"})
    void aLinuxHostWithSqlServerIsReplayedByTheTdsServerCommandToTheSameReport(String sqlScenario, @TempDir Path tmp)
            throws IOException {
        Path password = Files.writeString(tmp.resolve("pw"), "s3cret-Pa55\n");
        Path capture = tmp.resolve("capture");
        ProbeScenarioGoldenTest.Run original;
        try (TdsTestServer server = TdsTestServer.start(withLatestBackup(sqlScenario))) {
            original = ProbeScenarioGoldenTest.run("probe", "--json", "--root", HOSTS.resolve("linux-spr-4xxx-dc-up").toString(),
                    "--sql", url(server.port()), "--sql-user", USER, "--sql-password-file", password.toString(),
                    "--capture", capture.toString());
        }
        assertThat(original.exitCode()).as(original.err()).isZero();
        Path scenario = capture.resolve("sqlserver-PROD.json");
        assertThat(scenario).exists();
        assertThat(Files.readString(capture.resolve("README.txt")))
                .contains("qatwatch tds-server --scenario " + scenario + " --port 14330")
                .contains("--sql 'jdbc:sqlserver://127.0.0.1\\PROD:14330;encrypt=false' --sql-user " + USER);

        ProbeScenarioGoldenTest.Run replay;
        try (TdsTestServer server = tdsServerCommand(scenario)) {
            replay = ProbeScenarioGoldenTest.run("probe", "--json", "--root", capture.resolve("root").toString(),
                    "--sql", url(server.port()), "--sql-user", USER, "--sql-password-file", password.toString());
        }
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        AgentReport report = ReportJson.parse(replay.out().getBytes(StandardCharsets.UTF_8));
        assertThat(report.instances()).singleElement().satisfies(i -> {
            assertThat(i.name()).isEqualTo("PROD");
            assertThat(i.backups()).isNotEmpty();
        });
        if (sqlScenario.equals("sql2022-no-view-server-state")) {
            assertThat(Files.readString(scenario)).contains("\"errors\": [{\"number\":300", "{\"number\":297");
            assertThat(report.probes()).anySatisfy(p -> assertThat(p.ok()).isFalse());
        }
        String source = HOSTS.resolve("linux-spr-4xxx-dc-up").toString();
        assertThat(comparable(replay.out(), capture.resolve("root").toString())).isEqualTo(comparable(original.out(), source));
    }

    @Test
    void anonymizedCaptureOfAWindowsHostInAnAvailabilityGroupHoldsNoRealNameAndReplaysToItsReport(@TempDir Path tmp)
            throws IOException {
        Path password = Files.writeString(tmp.resolve("pw"), "s3cret-Pa55\n");
        Path capture = tmp.resolve("capture");
        Path registry = HOSTS.resolve("windows-4xxx-icp-qat4/registry.reg");
        ProbeScenarioGoldenTest.Run original;
        try (TdsTestServer server = TdsTestServer.start(withLatestBackup("sql2022-ag-secondary"))) {
            original = ProbeScenarioGoldenTest.run("probe", "--json", "--registry", registry.toString(),
                    "--sql", url(server.port()), "--sql-user", USER, "--sql-password-file", password.toString(),
                    "--capture", capture.toString(), "--anonymize");
        }
        assertThat(original.exitCode()).as(original.err()).isZero();
        AgentReport real = ReportJson.parse(original.out().getBytes(StandardCharsets.UTF_8));
        List<String> names = realNames(real);
        assertThat(names).as("the fixture has names to hide").hasSizeGreaterThan(4);
        assertThat(original.err()).contains("names replaced (shown here only, not saved in the capture):", "PROD -> ANON_INSTANCE_1",
                USER + " -> anon-login-1");

        for (Path file : files(capture)) {
            String text = text(file).toLowerCase(Locale.ROOT);
            for (String name : names) {
                assertThat(text).as("%s holds %s", capture.relativize(file), name)
                        .doesNotContainPattern("(?<![\\p{L}\\p{N}])" + java.util.regex.Pattern.quote(name.toLowerCase(Locale.ROOT))
                                + "(?![\\p{L}\\p{N}])");
            }
        }

        Path scenario = capture.resolve("sqlserver-ANON_INSTANCE_1.json");
        ProbeScenarioGoldenTest.Run replay;
        try (TdsTestServer server = tdsServerCommand(scenario)) {
            replay = ProbeScenarioGoldenTest.run("probe", "--json", "--registry", capture.resolve("registry.reg").toString(),
                    "--sql", "jdbc:sqlserver://127.0.0.1\\ANON_INSTANCE_1:" + server.port() + ";encrypt=false",
                    "--sql-user", "anon-login-1", "--sql-password-file", password.toString());
        }
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        String saved = Files.readString(capture.resolve("report.json"));
        assertThat(comparable(replay.out(), capture.resolve("registry.reg").toString()))
                .isEqualTo(comparable(saved, registry.toString()));

        AgentReport anonymous = ReportJson.parse(replay.out().getBytes(StandardCharsets.UTF_8));
        assertThat(anonymous.licence().verdict()).isEqualTo(real.licence().verdict());
        assertThat(anonymous.qat()).isEqualTo(real.qat());
        assertThat(anonymous.instances().get(0).databases()).hasSameSizeAs(real.instances().get(0).databases())
                .anySatisfy(d -> assertThat(d.availabilityGroup()).startsWith("anon-ag-"));
        assertThat(anonymous.instances().get(0).backups()).hasSameSizeAs(real.instances().get(0).backups());
    }

    @Test
    void anonymizeWithoutCaptureAndACaptureIntoAFullFolderAreUsageErrors(@TempDir Path tmp) throws IOException {
        ProbeScenarioGoldenTest.Run alone = ProbeScenarioGoldenTest.probe("linux-spr-4xxx-dc-up", "--anonymize");
        assertThat(alone.exitCode()).isEqualTo(2);
        assertThat(alone.err()).contains("--anonymize needs --capture DIR");

        Files.writeString(tmp.resolve("keep.txt"), "mine");
        ProbeScenarioGoldenTest.Run full = ProbeScenarioGoldenTest.probe("linux-spr-4xxx-dc-up", "--capture", tmp.toString());
        assertThat(full.exitCode()).isEqualTo(2);
        assertThat(full.err()).contains("--capture " + tmp + " is not empty: give a new folder for the capture");
        assertThat(tmp.resolve("keep.txt")).hasContent("mine");
    }

    private static Scenario withLatestBackup(String name) {
        Scenario scenario = Scenario.fromResource("/sqlserver/scenarios/" + name + ".json");
        return scenario.answer("latest-backup-set-id.sql",
                TdsResponse.rows(List.of(Column.col("latest_backup_set_id", "int")), List.of(List.of(41240))));
    }

    private static String url(int port) {
        return "jdbc:sqlserver://127.0.0.1\\PROD:" + port + ";encrypt=false";
    }

    /** {@code qatwatch tds-server --scenario FILE --port 0}, as the launcher runs it. */
    private static TdsTestServer tdsServerCommand(Path scenario) {
        TdsServerMain command = new TdsServerMain();
        CommandLine cli = TdsServerMain.commandLine(command);
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(out));
        int code = cli.execute("tds-server", "--scenario", scenario.toString(), "--port", "0");
        assertThat(code).as(out.toString()).isZero();
        return command.server();
    }

    /** The report without what differs from run to run: id, creation time, durations, where the host and SQL Server were. */
    private static String comparable(String json, String hostSource) throws IOException {
        ObjectNode root = (ObjectNode) ReportJson.mapper().readTree(json);
        root.remove("reportId");
        root.remove("createdAt");
        for (JsonNode probe : (ArrayNode) root.get("probes")) {
            ((ObjectNode) probe).put("durationMs", 0);
        }
        for (JsonNode instance : (ArrayNode) root.get("instances")) {
            ((ObjectNode) instance).remove("collectedAt");
        }
        return ReportJson.toPrettyString(root).replace(Path.of(hostSource).toAbsolutePath().normalize().toString(), "<host source>")
                .replace(hostSource, "<host source>")
                .replaceAll("127\\.0\\.0\\.1\\\\\\\\(\\w+):\\d+", "127.0.0.1\\\\\\\\$1:<port>");
    }

    private static List<String> realNames(AgentReport report) {
        List<String> names = new ArrayList<>();
        names.add(report.host().hostname());
        names.add(USER);
        report.instances().forEach(i -> {
            names.add(i.name());
            names.add(i.server().machineName());
            i.databases().forEach(d -> {
                if (!List.of("master", "model", "msdb", "tempdb").contains(d.name())) {
                    names.add(d.name());
                }
                if (d.availabilityGroup() != null) {
                    names.add(d.availabilityGroup());
                }
            });
        });
        return names.stream().distinct().toList();
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
        }
    }

    private static String text(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xfe) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
