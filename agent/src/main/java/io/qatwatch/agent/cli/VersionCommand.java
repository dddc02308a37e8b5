package io.qatwatch.agent.cli;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/** Prints the version and the report schema version. */
@Command(name = "version", description = "Print the qatwatch version and the report schema version.")
public final class VersionCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.println("qatwatch " + Version.current() + " (report schema " + AgentReport.SCHEMA_VERSION + ")");
        return 0;
    }

    /** Feeds {@code --version}. */
    public static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"qatwatch " + Version.current() + " (report schema " + AgentReport.SCHEMA_VERSION + ")"};
        }
    }
}
