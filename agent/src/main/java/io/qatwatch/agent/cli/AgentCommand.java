package io.qatwatch.agent.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Runs the agent daemon. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Run the agent: probe on schedule, keep reports in the outbox, deliver them to the collector.")
public final class AgentCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("agent: not implemented yet");
        return 1;
    }
}
