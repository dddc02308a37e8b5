package io.qatwatch.agent.cli;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSummary;
import io.qatwatch.agent.probe.sqlserver.SqlProbeOptions;
import io.qatwatch.agent.probe.sqlserver.SqlProbeResult;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.Version;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** One-shot inventory of this host (Contract 1 in DESIGN.md): parse the flags, collect, render. */
@Command(name = "probe", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Probe this host once and print what was found: CPU, virtualisation, QAT devices and software,"
                + " licence verdict; with --sql also a SQL Server instance (docs/sqlserver.md).", "Exit codes: 0 probed (even if a probe failed: see its error), 2 usage error."})
public final class ProbeCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print the report as JSON (the agent's report format) instead of text.")
    boolean json;

    @ArgGroup(exclusive = true)
    Source source;

    /** Where the host's facts come from; the live machine when neither is given. */
    static final class Source {
        @Option(names = "--root", paramLabel = "DIR",
                description = "Read a Linux file system under DIR as if it were / (proc/, sys/, lib/, usr/, dev/, etc/);"
                        + " nothing is read from this machine.")
        Path root;

        @Option(names = "--registry", paramLabel = "FILE.reg",
                description = "Read a Windows host from a 'reg export' file (UTF-16LE or UTF-8); nothing is read from this machine.")
        Path registry;
    }

    @Mixin
    SqlProbeOptions sql;

    @Spec
    CommandSpec spec;

    private final Clock clock;

    public ProbeCommand() {
        // The zone stands in for SQL Server backups whose time zone msdb did not record (time_zone 127).
        this(Clock.systemDefaultZone());
    }

    ProbeCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        HostInventoryProbe hostProbe = hostProbe();
        AgentReport report = collect(hostProbe);
        render(report, spec.commandLine().getOut());
        return 0;
    }

    /** The host probe the flags ask for; a missing folder or file is a usage error (exit 2). */
    HostInventoryProbe hostProbe() {
        if (source != null && source.root != null) {
            if (!Files.isDirectory(source.root)) {
                throw new ParameterException(spec.commandLine(), "--root " + source.root
                        + ": no such folder. Give the folder that holds the host's proc/, sys/ and lib/.");
            }
            return HostInventoryProbes.forRoot(source.root);
        }
        if (source != null && source.registry != null) {
            if (!Files.isRegularFile(source.registry)) {
                throw new ParameterException(spec.commandLine(), "--registry " + source.registry
                        + ": no such file. Give a file written by 'reg export' (see docs/probe.md).");
            }
            return HostInventoryProbes.forRegistryExport(source.registry);
        }
        return HostInventoryProbes.live();
    }

    AgentReport collect(HostInventoryProbe hostProbe) {
        HostInventory inventory = hostProbe.collect();
        List<SqlInstanceSnapshot> instances = new ArrayList<>();
        List<ProbeStatus> probes = new ArrayList<>(inventory.probes());
        if (sql != null && sql.requested()) {
            SqlProbeResult result = sql.probe(clock);
            instances.add(result.snapshot());
            probes.addAll(result.probes());
        }
        String name = inventory.host() != null && inventory.host().hostname() != null
                ? inventory.host().hostname() : "unknown-host";
        AgentInfo agent = new AgentInfo(name, Version.current(), 0, 0, 0, 0);
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), clock.instant(), agent,
                inventory.host(), inventory.qat(), inventory.licence(), instances, probes);
    }

    void render(AgentReport report, PrintWriter out) {
        if (json) {
            out.print(ReportJson.toPrettyString(report) + System.lineSeparator());
        } else {
            out.print(ProbeText.render(report));
            // Failed SQL queries are already listed under Problems with what to grant.
            report.instances().forEach(i -> out.print(System.lineSeparator() + SqlInstanceSummary.render(i, List.of())));
        }
        out.flush();
    }
}
