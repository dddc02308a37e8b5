package io.qatwatch.collector.cli;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.LogTimes;
import io.qatwatch.protocol.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the collector jar: {@code collector}, {@code collector token ...}, {@code up}, {@code version}. */
@Command(name = "qatwatch",
        mixinStandardHelpOptions = true,
        versionProvider = CollectorMain.VersionProvider.class,
        description = "qatwatch collector: the central server for a fleet of qatwatch agents.",
        subcommands = {CollectorCommand.class, UpCommand.class, CollectorMain.VersionCommand.class})
public final class CollectorMain {

    public static void main(String[] args) {
        LogTimes.utc();
        System.exit(run(args));
    }

    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The command line: {@code -V/--version} on every command, and a bad flag prints the error and the usage (exit 2). */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new CollectorMain());
        everyCommandPrintsTheVersion(cli, new VersionProvider());
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine command = e.getCommandLine();
            command.getErr().println(e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, command.getErr());
            command.usage(command.getErr());
            return command.getCommandSpec().exitCodeOnInvalidInput();
        });
        return cli;
    }

    private static void everyCommandPrintsTheVersion(CommandLine command, CommandLine.IVersionProvider provider) {
        if (command.getCommandSpec().versionProvider() == null) {
            command.getCommandSpec().versionProvider(provider);
        }
        command.getSubcommands().values().forEach(sub -> everyCommandPrintsTheVersion(sub, provider));
    }

    /** Feeds {@code --version}. */
    public static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"qatwatch " + Version.current() + " (report schema " + AgentReport.SCHEMA_VERSION + ")"};
        }
    }

    /** Prints the version. */
    @Command(name = "version", mixinStandardHelpOptions = true, description = "Print the qatwatch version and the report schema version.")
    public static final class VersionCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            System.out.println(new VersionProvider().getVersion()[0]);
            return 0;
        }
    }
}
