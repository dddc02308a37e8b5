package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's command table, walked row by row in its order through the real launcher ({@code ./qatwatch}) of the
 * built tree, in a fresh working directory as a newcomer would: each command with no flag its row does not show.
 * The rows' state carries over as it would for a person: the token {@code collector token add} prints with no flags is
 * accepted by the collector {@code up} started in the same folder.
 */
class ReadmeCommandTableIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path LAUNCHER = REPO.resolve("qatwatch");
    private static final Duration START = Duration.ofSeconds(90);
    private static final Pattern ROW = Pattern.compile("^\\| (`qatwatch .*?) \\| .* \\|$");

    /** The rows' commands as the README lists them, in order: what this test walks. */
    private static final List<String> ROWS = List.of("demo", "up", "probe", "probe ... --capture", "tds-server", "agent",
            "collector", "collector token", "collector store", "version");

    @TempDir
    Path cwd;

    private final List<Process> running = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stopWhatIsLeft() throws InterruptedException {
        for (Process p : running) {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** The first cell of each row of the table under "## Commands". */
    static List<String> commandCells() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        String table = readme.substring(readme.indexOf("## Commands"));
        table = table.substring(0, table.indexOf("\n\n", table.indexOf("|---|")));
        List<String> cells = new ArrayList<>();
        for (String line : table.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                cells.add(m.group(1));
            }
        }
        return cells;
    }

    /** A run of the launcher: its exit code and what it printed (stdout and stderr together). */
    record Run(int exit, String output) {
    }

    private Run qatwatch(String row, String... args) throws Exception {
        checkFlags(row, args);
        Process p = start(args);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("qatwatch %s finished", String.join(" ", args)).isTrue();
        running.remove(p);
        return new Run(p.exitValue(), Files.readString(log(p)));
    }

    private final java.util.Map<Process, Path> logs = new java.util.HashMap<>();

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(cwd.getParent(), "qatwatch-" + args[0], ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("QATWATCH_DATA");
        Process p = builder.start();
        running.add(p);
        logs.put(p, log);
        return p;
    }

    private Path log(Process p) {
        return logs.get(p);
    }

    private Process startAndWaitFor(String row, String line, String... args) throws Exception {
        checkFlags(row, args);
        Process p = start(args);
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            String out = Files.readString(log(p));
            if (out.contains(line)) {
                return p;
            }
            assertThat(p.isAlive()).as("qatwatch %s exited early:%n%s", String.join(" ", args), out).isTrue();
            Thread.sleep(250);
        }
        throw new AssertionError("qatwatch " + String.join(" ", args) + " did not print '" + line + "':\n" + Files.readString(log(p)));
    }

    private void stop(Process p) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stopped on SIGTERM (Ctrl-C)").isTrue();
        running.remove(p);
    }

    /** Every flag given is one the README row shows. */
    private static void checkFlags(String row, String... args) throws IOException {
        String cell = commandCells().stream().filter(c -> c.startsWith("`qatwatch " + row)).findFirst()
                .orElseThrow(() -> new AssertionError("no README row for qatwatch " + row));
        Set<String> shown = new LinkedHashSet<>();
        // "qatwatch probe ... --capture": the dots stand for the flags of the probe row above it
        String flags = cell.contains(" ... ") ? cell + commandCells().stream()
                .filter(c -> c.startsWith("`qatwatch " + row.substring(0, row.indexOf(" ...")) + " [")).findFirst().orElse("") : cell;
        Matcher m = Pattern.compile("--[a-z-]+").matcher(flags);
        while (m.find()) {
            shown.add(m.group());
        }
        for (String arg : args) {
            if (arg.startsWith("--")) {
                assertThat(shown).as("the README row %s shows the flag", cell).contains(arg);
            }
        }
    }

    private HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postReport(int port, String token, String report) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/reports"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(report)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String lastLine(String output) {
        return output.strip().lines().reduce((a, b) -> b).orElse("");
    }

    @Test
    void theTableListsTheCommandsThisTestWalks() throws IOException {
        List<String> cells = commandCells();
        assertThat(cells).hasSameSizeAs(ROWS);
        for (int i = 0; i < ROWS.size(); i++) {
            assertThat(cells.get(i)).as("row %d", i + 1).startsWith("`qatwatch " + ROWS.get(i));
        }
    }

    @Test
    void everyRowWorksAsWrittenInOrder() throws Exception {
        // demo: see it, stop it
        int demoPort = freePort();
        Process demo = startAndWaitFor("demo", "demo chat  [FIRING", "demo", "--port", Integer.toString(demoPort));
        // the first chat line may be another alert's: wait for the page to show the creep, which is what is asserted
        waitFor(() -> get("http://127.0.0.1:" + demoPort + "/", null).body().contains("data-rule=\"backup-window-creep\""),
                "the demo's creep alert on its page");
        HttpResponse<String> page = get("http://127.0.0.1:" + demoPort + "/", null);
        assertThat(page.body()).contains(Demo.NOTICE.replace("'", "&#39;"), "demo-sql-qat01", "data-rule=\"backup-window-creep\"");
        stop(demo);
        assertThat(cwd.resolve(".qatwatch-demo")).isDirectory();
        assertThat(Files.readAllLines(REPO.resolve(".gitignore"))).as("a demo run in a clone leaves git status clean")
                .contains(".qatwatch-demo/");

        // up: a collector and this host's agent; kept running for the token row below
        int upPort = freePort();
        Process up = startAndWaitFor("up", "Press Ctrl-C to stop.", "up", "--port", Integer.toString(upPort));
        assertThat(get("http://127.0.0.1:" + upPort + "/healthz", null).body()).isEqualTo("{\"status\":\"ok\"}");
        waitFor(() -> get("http://127.0.0.1:" + upPort + "/", null).body().contains("data-host="), "up's agent listed on the page");
        assertThat(Files.readString(log(up))).doesNotContain("address in use", "Exception");

        // probe: this host, and a copied root
        Run probe = qatwatch("probe", "probe", "--json");
        assertThat(probe.exit()).as(probe.output()).isZero();
        String report = probe.output().substring(probe.output().indexOf('{'));
        Path fixture = REPO.resolve("agent/src/test/resources/hosts/linux-spr-4xxx-dc-up");
        Run root = qatwatch("probe", "probe", "--root", fixture.toString());
        assertThat(root.output()).contains("Licence         INTEL_QAT_HARDWARE");

        // probe --capture: what it read, anonymized
        Run capture = qatwatch("probe ... --capture", "probe", "--root", fixture.toString(), "--capture", "capture", "--anonymize");
        assertThat(capture.exit()).as(capture.output()).isZero();
        assertThat(cwd.resolve("capture/root/proc/cpuinfo")).exists();
        assertThat(Files.readString(cwd.resolve("capture/report.json"))).doesNotContain("sql-lnx01");

        // tds-server: a scenario served by hand, probed with the real driver
        int tdsPort = freePort();
        Path scenario = REPO.resolve("agent/src/test/resources/sqlserver/scenarios/sql2022-enterprise-hardware.json");
        Process tds = startAndWaitFor("tds-server", "Ctrl-C stops it.", "tds-server", "--scenario", scenario.toString(),
                "--port", Integer.toString(tdsPort));
        Path password = Files.writeString(cwd.resolve("sql-password"), "s3cret-Pa55\n");
        Run sql = qatwatch("probe", "probe", "--sql", "jdbc:sqlserver://127.0.0.1:" + tdsPort + ";encrypt=false", "--sql-user",
                "qatwatch_monitor", "--sql-password-file", password.toString());
        assertThat(sql.output()).contains("SQL Server MSSQLSERVER: SQL01\\PROD on SQL01, 16.0.4135.4 (SQL Server 2022)");
        stop(tds);

        // agent: the daemon, reporting to up's collector with the token up enrolled for this host
        Path agentYaml = Files.writeString(cwd.resolve("agent.yaml"), "collector:\n  url: http://127.0.0.1:" + upPort
                + "\n  tokenFile: " + cwd.resolve(".qatwatch/agent/token") + "\nhealth:\n  port: 0\n");
        Process agent = startAndWaitFor("agent", "started as", "agent", "--config", agentYaml.toString(), "--data", "agent-data");
        stop(agent);

        // collector: on its own, from a config file
        int collectorPort = freePort();
        Path collectorYaml = Files.writeString(cwd.resolve("collector.yaml"), "listen:\n  host: 127.0.0.1\n  port: " + collectorPort + "\n");
        Process collector = startAndWaitFor("collector", "collector listening", "collector", "--config", collectorYaml.toString(),
                "--data", "collector-data");
        assertThat(get("http://127.0.0.1:" + collectorPort + "/healthz", null).statusCode()).isEqualTo(200);
        stop(collector);

        // collector token: with no flags, the same store up uses, so up's collector accepts the token at once
        Run add = qatwatch("collector token", "collector", "token", "add", "test1");
        assertThat(add.exit()).as(add.output()).isZero();
        assertThat(add.output()).contains(cwd.resolve(".qatwatch/qatwatch.db").toString());
        String token = lastLine(add.output());
        assertThat(token).startsWith("qw_");
        HttpResponse<String> accepted = postReport(upPort, token, report);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        Run read = qatwatch("collector token", "collector", "token", "add", "reader", "--read");
        String readToken = lastLine(read.output());
        assertThat(get("http://127.0.0.1:" + upPort + "/api/v1/fleet", readToken).body()).contains("\"host\" : \"test1\"");
        Run list = qatwatch("collector token", "collector", "token", "list");
        assertThat(list.output()).contains("test1", "reader", "active");
        Run revoke = qatwatch("collector token", "collector", "token", "revoke", "test1");
        assertThat(revoke.output()).contains("Revoked 1 token(s) of test1");
        waitFor(() -> postReport(upPort, token, report).statusCode() == 401, "the revoked token refused within 5 s");

        // collector store backup: a checked copy of up's running store, which holds the reader's token
        // (store copy --to postgresql needs a PostgreSQL: StoreCopyCommandTest runs it against a real one)
        Run backup = qatwatch("collector store", "collector", "store", "backup", "--data", ".qatwatch", "--to", "store-backup.db");
        assertThat(backup.exit()).as(backup.output()).isZero();
        assertThat(cwd.resolve("store-backup.db")).isNotEmptyFile();
        Run again = qatwatch("collector store", "collector", "store", "backup", "--data", ".qatwatch", "--to", "store-backup.db");
        assertThat(again.exit()).as("a second backup onto the same file: %s", again.output()).isNotZero();
        assertThat(cwd.resolve("store-backup.db")).isNotEmptyFile();

        // version
        Run version = qatwatch("version", "version");
        assertThat(version.output()).matches("(?s)qatwatch \\S+ \\(report schema \\d+\\)\\s*");

        stop(up);
        assertThat(Files.readString(log(up))).doesNotContain("Exception");
    }

    @Test
    void aBadTopLevelFlagPrintsTheUsageAndExits2AndEveryCommandTakesDashV() throws Exception {
        Process bad = start("--bogus");
        assertThat(bad.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bad.exitValue()).isEqualTo(2);
        assertThat(Files.readString(log(bad))).contains("unknown option '--bogus'", "Usage: qatwatch COMMAND");
        for (String command : List.of("-V", "probe -V", "agent -V", "collector -V", "up -V", "collector token add -V",
                "tds-server -V", "demo -V")) {
            Process p = start(command.split(" "));
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(command).isZero();
            assertThat(Files.readString(log(p))).as(command).startsWith("qatwatch ");
        }
    }

    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    private static void waitFor(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (check.holds()) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
