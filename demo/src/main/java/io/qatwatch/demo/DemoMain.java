package io.qatwatch.demo;

import io.qatwatch.protocol.LogTimes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qatwatch demo}: see what qatwatch is for before installing any agent. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, versionProvider = DemoMain.Version.class,
        description = {"Start a demo: a collector with its status page, four simulated SQL Server hosts watched by real agents,"
                + " and a local chat webhook that prints the alerts. Everything in it is simulated; Ctrl-C stops it.",
                "Exit codes: 0 stopped, 1 could not start, 2 usage error."})
public final class DemoMain implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "DIR", defaultValue = ".qatwatch-demo",
            description = "The demo's own data directory, wiped at each start (default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--port", paramLabel = "N", defaultValue = "8470",
            description = "Port of the demo's collector and status page on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0: a free one).")
    int port;

    @Spec
    CommandSpec spec;

    private Demo demo;

    public static void main(String[] args) {
        // the agents' and the collector's start-up lines would bury the demo's own; warnings still show
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        LogTimes.utc();
        DemoMain command = new DemoMain();
        int code = commandLine(command).execute(args);
        if (code != 0 || command.demo == null) {
            System.exit(code);
        }
        // Vert.x's threads keep the JVM up; Ctrl-C runs the hook
        Runtime.getRuntime().addShutdownHook(new Thread(command::stop, "qatwatch-demo-stop"));
    }

    private void stop() {
        try {
            demo.close();
        } catch (Exception e) {
            System.err.println("demo: stopping: " + e.getMessage());
        }
    }

    /** {@code qatwatch demo ...}, as the launcher passes it; a bad flag prints the usage and exits 2. */
    static CommandLine commandLine(DemoMain command) {
        CommandLine cli = new CommandLine(CommandSpec.create().name("qatwatch").mixinStandardHelpOptions(true)
                .versionProvider(new Version())).addSubcommand("demo", command);
        cli.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println(e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            e.getCommandLine().usage(err);
            return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
        return cli;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println("qatwatch demo: starting (a minute at most)...");
        out.flush();
        try {
            demo = Demo.start(data.toAbsolutePath().normalize(), port, Clock.systemUTC(), System.out);
        } catch (Exception e) {
            String message = String.valueOf(e.getMessage());
            err.println("demo: could not start: " + message + (message.contains("in use") || message.contains("bind")
                    ? " (is qatwatch up or another demo running? stop it, or give --port)" : ""));
            err.flush();
            return 1;
        }
        out.print(demo.welcome());
        out.flush();
        try {
            demo.evaluateNow();
        } catch (Exception e) {
            err.println("demo: the first evaluation failed (the collector evaluates again every minute): " + e.getMessage());
        }
        return 0;
    }

    /** Used by tests: the demo started by {@link #call}. */
    Demo demo() {
        return demo;
    }

    /** {@code -V/--version}. */
    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"qatwatch demo " + io.qatwatch.protocol.Version.current()};
        }
    }
}
