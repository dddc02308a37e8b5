package io.qatwatch.collector.cli;

import io.qatwatch.protocol.AgentReport;
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
        System.exit(run(args));
    }

    public static int run(String... args) {
        return new CommandLine(new CollectorMain()).execute(args);
    }

    /** Feeds {@code --version}. */
    public static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"qatwatch " + Version.current() + " (report schema " + AgentReport.SCHEMA_VERSION + ")"};
        }
    }

    /** Prints the version. */
    @Command(name = "version", description = "Print the qatwatch version and the report schema version.")
    public static final class VersionCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            System.out.println(new VersionProvider().getVersion()[0]);
            return 0;
        }
    }
}
