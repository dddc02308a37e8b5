package io.qatwatch.agent.cli;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Prints the version and the report schema version. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the qatwatch version and the report schema version.")
public final class VersionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(line());
        spec.commandLine().getOut().flush();
        return 0;
    }

    static String line() {
        return "qatwatch " + Version.current() + " (report schema " + AgentReport.SCHEMA_VERSION + ")";
    }

    /** Feeds {@code -V/--version} of every command. */
    public static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }
}
