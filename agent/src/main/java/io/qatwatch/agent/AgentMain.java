package io.qatwatch.agent;

import io.qatwatch.agent.cli.AgentCommand;
import io.qatwatch.agent.cli.ProbeCommand;
import io.qatwatch.agent.cli.VersionCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the agent jar: {@code probe}, {@code agent} and {@code version}. */
@Command(name = "qatwatch",
        mixinStandardHelpOptions = true,
        versionProvider = VersionCommand.Provider.class,
        description = "qatwatch agent: probes this host's Intel QAT, licence posture and SQL Server backups.",
        subcommands = {ProbeCommand.class, AgentCommand.class, VersionCommand.class})
public final class AgentMain {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code: 0 done, 1 failed, 2 usage error. */
    public static int run(String... args) {
        AgentCommand daemon = AgentCommand.plain(args);
        if (daemon != null) {
            // the daemon's usual command line, without picocli's classes (see AgentCommand.plain); a failure is
            // answered as picocli's execute answers it: the stack trace on stderr and exit code 1
            try {
                return daemon.call();
            } catch (Exception e) {
                e.printStackTrace();
                return 1;
            }
        }
        return commandLine(CommandLine.defaultFactory()).execute(args);
    }

    /** The command line with its subcommands made by {@code factory}; a bad flag prints the error, suggestions and usage. */
    public static CommandLine commandLine(CommandLine.IFactory factory) {
        CommandLine cli = new CommandLine(new AgentMain(), factory);
        everyCommandPrintsTheVersion(cli, new VersionCommand.Provider());
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine command = e.getCommandLine();
            PrintWriter err = command.getErr();
            err.println(e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            command.usage(err);
            return command.getCommandSpec().exitCodeOnInvalidInput();
        });
        return cli;
    }

    /** {@code -V/--version} on a subcommand would print nothing without a provider of its own. */
    private static void everyCommandPrintsTheVersion(CommandLine command, CommandLine.IVersionProvider provider) {
        if (command.getCommandSpec().versionProvider() == null) {
            command.getCommandSpec().versionProvider(provider);
        }
        command.getSubcommands().values().forEach(sub -> everyCommandPrintsTheVersion(sub, provider));
    }
}
