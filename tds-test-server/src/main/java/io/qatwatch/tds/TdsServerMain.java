package io.qatwatch.tds;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qatwatch tds-server}: serves one scenario file on 127.0.0.1 until Ctrl-C, so a scenario (a fixture, a
 * capture written by {@code qatwatch probe --capture}) can be probed by hand with the real driver.
 */
@Command(name = "tds-server", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = TdsServerMain.Version.class,
        description = {"Serve a scenario file as a simulated SQL Server on 127.0.0.1 (TDS, no encryption) until Ctrl-C.",
                "Scenario files: the agent's test fixtures, or the sqlserver-*.json a 'qatwatch probe --capture' wrote."
                        + " Connect with encrypt=false; see docs/reporting-a-problem.md.",
                "Exit codes: 0 stopped, 1 cannot listen, 2 usage error or a bad scenario file."})
public final class TdsServerMain implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "FILE", required = true,
            description = "The scenario to answer from (JSON: queries by marker, their columns and rows).")
    Path scenarioFile;

    @Option(names = "--port", paramLabel = "N", defaultValue = "1433",
            description = "TCP port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free one and prints it).")
    int port;

    @Option(names = "--log-batches", description = "Print the first line of every SQL batch received and the marker that answered it.")
    boolean logBatches;

    @Spec
    CommandSpec spec;

    private TdsTestServer server;

    public static void main(String[] args) {
        TdsServerMain command = new TdsServerMain();
        int code = commandLine(command).execute(args);
        if (code != 0 || command.server == null) {
            System.exit(code);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            command.server.close();
            stopped.countDown();
        }, "tds-server-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The jar's top command, {@code qatwatch}, as the launcher passes its arguments on: {@code tds-server ...}. */
    @Command(name = "qatwatch", mixinStandardHelpOptions = true, versionProvider = TdsServerMain.Version.class,
            description = "The qatwatch TDS test server jar: run 'qatwatch tds-server --help'.")
    static final class Launcher implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getErr());
            return 2;
        }
    }

    /**
     * {@code qatwatch tds-server ...} around {@code command} (the first argument is the command's name, as the
     * launcher passes it); a bad flag prints the error and the usage and exits 2.
     */
    public static CommandLine commandLine(TdsServerMain command) {
        CommandLine cli = new CommandLine(new Launcher()).addSubcommand("tds-server", command);
        cli.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("tds-server: " + e.getMessage());
            e.getCommandLine().usage(err);
            return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
        return cli;
    }

    /** The running server after a successful {@code execute}, null before or when it could not start. */
    public TdsTestServer server() {
        return server;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(scenarioFile)) {
            err.println("tds-server: --scenario " + scenarioFile + ": no such file. Give a scenario JSON file, e.g. the"
                    + " sqlserver-*.json of a capture.");
            err.flush();
            return 2;
        }
        Scenario scenario;
        try {
            scenario = Scenario.fromFile(scenarioFile);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("tds-server: " + scenarioFile + " is not a usable scenario: " + e.getMessage());
            err.flush();
            return 2;
        }
        try {
            server = TdsTestServer.start(scenario, port);
        } catch (UncheckedIOException e) {
            err.println("tds-server: " + e.getMessage() + ": is another server on that port? Choose another with --port"
                    + " (0 picks a free one).");
            err.flush();
            return 1;
        }
        if (logBatches) {
            server.onBatch(sql -> {
                String first = sql.strip().lines().findFirst().orElse("");
                out.println("batch: " + first + "  -> " + scenario.markerOf(sql).orElse(
                        first.toLowerCase(Locale.ROOT).matches("select\\s+1\\s*;?") ? "SELECT 1" : "no marker: Msg 208"));
                out.flush();
            });
        }
        String url = server.jdbcUrl();
        out.println("tds-server: scenario '" + scenario.name() + "' (" + scenarioFile + "), SQL Server "
                + scenario.productVersion() + ", on 127.0.0.1:" + server.port());
        out.println("  JDBC URL  " + url);
        // a scenario's login is test data, written in its JSON: saying it here saves reading the file for it
        out.println("  logins    " + (scenario.acceptedUser() == null ? "any user and password"
                : "only user " + scenario.acceptedUser() + " with password " + scenario.acceptedPassword()
                        + " (the scenario's login.password)"));
        out.println("  answers   " + String.join(", ", scenario.markers()));
        out.println("  try       qatwatch probe --sql '" + url + "' --sql-user "
                + (scenario.acceptedUser() == null ? "any" : scenario.acceptedUser()) + " --sql-password-file FILE");
        out.println("Ctrl-C stops it.");
        out.flush();
        return 0;
    }

    /** {@code --version}: the jar's version. */
    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = TdsServerMain.class.getPackage().getImplementationVersion();
            return new String[] {"qatwatch tds-server " + (v == null ? "dev" : v)};
        }
    }
}
