package io.qatwatch.agent.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** One-shot inventory of this host (Contract 1 in DESIGN.md). */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Probe this host once and print what was found: CPU, QAT devices and software, licence verdict.")
public final class ProbeCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("probe: not implemented yet");
        return 1;
    }
}
