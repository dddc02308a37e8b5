package io.qatwatch.agent.cli;

import io.qatwatch.agent.capture.ProbeCapture;
import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.probe.HostInventoryProbes.HostReads;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSummary;
import io.qatwatch.agent.probe.sqlserver.SqlProbeOptions;
import io.qatwatch.agent.probe.sqlserver.SqlProbeResult;
import io.qatwatch.agent.probe.sqlserver.SqlRecorder;
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
import java.util.stream.Collectors;
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

    @Option(names = "--capture", paramLabel = "DIR",
            description = "Also write what the probe read into DIR (new or empty): the Linux files as a root --root reads back,"
                    + " or the registry keys as a .reg file, every SQL answer as a tds-server scenario, the report, and how to replay it."
                    + " See docs/reporting-a-problem.md.")
    Path capture;

    @Option(names = "--anonymize",
            description = "With --capture: replace host, instance, availability group, database and login names by stand-ins,"
                    + " the same everywhere in the capture. What replaced what is printed here, never saved.")
    boolean anonymize;

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
        if (anonymize && capture == null) {
            throw new ParameterException(spec.commandLine(), "--anonymize needs --capture DIR: it anonymizes what the capture writes");
        }
        ProbeCapture recording = null;
        if (capture != null) {
            try {
                recording = ProbeCapture.into(capture);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--capture " + e.getMessage());
            }
        }
        HostInventoryProbe hostProbe = hostProbe(recording == null ? HostReads.UNSEEN : recording);
        AgentReport report = collect(hostProbe, recording == null ? SqlRecorder.NONE : recording.sql());
        render(report, spec.commandLine().getOut());
        if (recording != null) {
            return captured(recording.write(report, sql != null && sql.requested() ? sql.settings().user() : null, anonymize));
        }
        return 0;
    }

    /** Says on stderr what the capture holds; 1 when part of it could not be written. */
    private int captured(ProbeCapture.Written written) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("capture written to " + written.dir() + ": " + written.files().stream()
                .map(f -> written.dir().relativize(f).toString()).collect(Collectors.joining(", "))
                + " (README.txt says how to replay it)");
        if (!written.replacements().isEmpty()) {
            err.println("names replaced (shown here only, not saved in the capture):");
            written.replacements().forEach((name, standIn) -> err.println("  " + name + " -> " + standIn));
        }
        written.problems().forEach(p -> err.println("capture: " + p));
        err.flush();
        return written.problems().stream().anyMatch(p -> p.startsWith("cannot write")) ? 1 : 0;
    }

    /** The host probe the flags ask for; a missing folder or file is a usage error (exit 2). */
    HostInventoryProbe hostProbe() {
        return hostProbe(HostReads.UNSEEN);
    }

    private HostInventoryProbe hostProbe(HostReads reads) {
        if (source != null && source.root != null) {
            if (!Files.isDirectory(source.root)) {
                throw new ParameterException(spec.commandLine(), "--root " + source.root
                        + ": no such folder. Give the folder that holds the host's proc/, sys/ and lib/.");
            }
            return HostInventoryProbes.forRoot(source.root, reads);
        }
        if (source != null && source.registry != null) {
            if (!Files.isRegularFile(source.registry)) {
                throw new ParameterException(spec.commandLine(), "--registry " + source.registry
                        + ": no such file. Give a file written by 'reg export' (see docs/probe.md).");
            }
            return HostInventoryProbes.forRegistryExport(source.registry, reads);
        }
        return HostInventoryProbes.live(reads);
    }

    AgentReport collect(HostInventoryProbe hostProbe) {
        return collect(hostProbe, SqlRecorder.NONE);
    }

    private AgentReport collect(HostInventoryProbe hostProbe, SqlRecorder recorder) {
        HostInventory inventory = hostProbe.collect();
        List<SqlInstanceSnapshot> instances = new ArrayList<>();
        List<ProbeStatus> probes = new ArrayList<>(inventory.probes());
        if (sql != null && sql.requested()) {
            SqlProbeResult result = sql.probe(clock, recorder);
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
