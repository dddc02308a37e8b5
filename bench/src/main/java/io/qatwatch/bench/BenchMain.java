package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench}: runs the benchmarks and prints their results as the Markdown of docs/benchmarks.md.
 * {@code scripts/bench.sh} builds this jar and runs it; {@code --quick} is a smoke run of seconds.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = ServeCommand.class,
        description = "Run qatwatch's benchmarks (ingest, analysis, growth, jmh) and print Markdown for docs/benchmarks.md.")
public final class BenchMain implements Callable<Integer> {

    private static final Set<String> PARTS = Set.of("ingest", "analysis", "growth", "jmh", "stalled", "collectors",
            "fleet100k", "pages", "morning", "rebuild", "agent");

    @Option(names = "--only", split = ",", paramLabel = "PART",
            description = "Parts to run, comma-separated: ingest, analysis, growth, jmh, stalled, pages, collectors, fleet100k, "
                    + "morning, rebuild, agent (default: all but collectors and fleet100k, which need --pg-url that "
                    + "scripts/bench.sh provides, and morning: the analysis bench's morning minute repeated on one thread; "
                    + "rebuild is ingest at 1,000/s while the alert stage rebuilds 1,000 new instances, paced and not; agent "
                    + "is the agent's RSS and CPU beside a SQL Server, by scripts/agent-footprint.sh, ~13 minutes).")
    List<String> only = List.of("ingest", "rebuild", "analysis", "growth", "jmh", "stalled", "pages", "agent");

    @Option(names = "--pg-url", description = "Collectors: a PostgreSQL database the bench may empty (schema bench).")
    String pgUrl;

    @Option(names = "--pg-user", defaultValue = "qatwatch", description = "Collectors: the PostgreSQL login.")
    String pgUser;

    @Option(names = "--pg-password-file", description = "Collectors: the file holding its password.")
    Path pgPasswordFile;

    @Option(names = "--pg-pid", defaultValue = "0", description = "Collectors: PostgreSQL's postmaster, to measure its CPU.")
    long pgPid;

    @Option(names = "--collectors", split = ",", description = "Collectors: counts on PostgreSQL (default 1,2,3).")
    List<Integer> collectorCounts;

    @Option(names = "--quick", description = "Smoke run: tiny sizes and seconds-long phases; figures mean nothing.")
    boolean quick;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench/target/bench-work",
            description = "Scratch directory for stores and server logs (default: ${DEFAULT-VALUE}).")
    Path work;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the Markdown to FILE.")
    Path out;

    @Option(names = "--agents", description = "Ingest and rebuild: simulated agents (default 1000; quick 50).")
    Integer agents;

    @Option(names = "--rates", split = ",", description = "Ingest: fixed rates in reports/s (default 100,1000; quick 100).")
    List<Integer> rates;

    @Option(names = "--duration", description = "Ingest: seconds per phase (default 30; quick 3).")
    Integer durationSeconds;

    @Option(names = "--connections", description = "Ingest and rebuild: keep-alive connections (default: ingest 64, rebuild 56, its most; quick 16).")
    Integer connections;

    @Option(names = "--no-influx", description = "Ingest: skip the run with the InfluxDB sink (it needs Debian's influxd).")
    boolean noInflux;

    @Option(names = "--rebuild-new", description = "Rebuild: new agents whose first report brings history (default 1000; quick 50).")
    Integer rebuildNew;

    @Option(names = "--rebuild-nights", description = "Rebuild: nights in each new agent's first report (default 30; quick 7).")
    Integer rebuildNights;

    @Option(names = "--rebuild-shares", split = ",", description = "Rebuild: evaluation.busyCoreShare of each collector run, "
            + "in order (default 0.25,1024: paced as by default, then not paced).")
    List<Double> rebuildShares;

    @Option(names = "--rebuild-rate", description = "Rebuild: the known agents' reports/s (default 1000; quick 100).")
    Integer rebuildRate;

    @Option(names = "--instances", description = "Analysis: instances evaluated (default 10000; quick 200).")
    Integer instances;

    @Option(names = "--analysis-nights", description = "Analysis: nights of history per instance (default 90; quick 30).")
    Integer analysisNights;

    @Option(names = "--cold-instances", description = "Analysis: instances of the cold start on a real SQLite store, "
            + "--analysis-nights each (default: --instances; 0 skips it).")
    Integer coldInstances;

    @Option(names = "--restarts", description = "Analysis: restarts from the summaries measured by the cold start, each "
            + "a new stage on the same store (default 1); the table gives the median by wall time, and the range.")
    Integer restarts;

    @Option(names = "--analysis-split", split = ",", description = "Analysis: also run the stage as one of N collectors "
            + "sharing the fleet on PostgreSQL, for each N given (e.g. 2,3): one collector's share of the slices.")
    List<Integer> analysisSplits;

    @Option(names = "--morning-rounds", description = "Morning: rounds measured, each on a fleet built anew (default 7; "
            + "quick 2); the first round before them is not counted.")
    Integer morningRounds;

    @Option(names = "--morning-profile", description = "Morning: also JFR's execution and allocation samples of each "
            + "measured morning, by method.")
    boolean morningProfile;

    @Option(names = "--morning-quiet", description = "Morning: measure a quiet minute after the morning instead (once the "
            + "summaries the morning made due are written, a minute in which only the agents' heartbeats moved).")
    boolean morningQuiet;

    @Option(names = "--fleet-sizes", split = ",", description = "Growth: agents per store (default 1000,10000,100000; quick 100,1000).")
    List<Integer> fleetSizes;

    @Option(names = "--nights", description = "Growth: nights of history per agent (default 14; quick 7).")
    Integer nights;

    @Option(names = "--fleet-instances", description = "Fleet100k: instances in the store (default 100000; quick 2000).")
    Integer fleetInstances;

    @Option(names = "--fleet-nights", description = "Fleet100k: nights of history per instance (default 30; quick 7).")
    Integer fleetNights;

    @Option(names = "--fleet-collectors", description = "Fleet100k: collectors sharing the store (default 3).")
    Integer fleetCollectors;

    @Option(names = "--fleet-reuse", description = "Fleet100k: measure the store an earlier run filled, when its marker "
            + "says it holds this many instances and nights (then its summaries are deleted and the fill skipped); with "
            + "--pg-url of a PostgreSQL you keep, since scripts/bench.sh's own is removed after the run.")
    boolean fleetReuse;

    @Option(names = "--pages-instances", description = "Pages: instances in the store (default 10000; quick 200).")
    Integer pagesInstances;

    @Option(names = "--pages-nights", description = "Pages: nights of history per instance (default 30; quick 7).")
    Integer pagesNights;

    @Option(names = "--pages-repeats", description = "Pages: timed requests per page (default 100; quick 10).")
    Integer pagesRepeats;

    @Option(names = "--pages-warmup", description = "Pages: untimed requests per page before the timed ones (default 1): "
            + "more leave the JIT's compiling of the page's code out of the figures.")
    Integer pagesWarmup;

    @Option(names = "--server-jvm", description = "JVM options of the server processes (default: the launcher's collector "
            + "options, '${DEFAULT-VALUE}').", defaultValue = "-Xms64m -XX:MaxRAMPercentage=25 -XX:+UseG1GC -XX:G1PeriodicGCInterval=60000 -XX:+ExplicitGCInvokesConcurrent -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true")
    String serverJvm;

    @Option(names = "--note", description = "A line to print under the machine, e.g. 'busy machine: preliminary'.")
    String note;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        for (String part : only) {
            if (!PARTS.contains(part)) {
                System.err.println("bench: unknown part '" + part + "' in --only; choose from " + PARTS);
                return 2;
            }
        }
        BenchLog log = line -> System.err.println("[bench] " + line);
        Files.createDirectories(work);
        List<String> jvm = Arrays.asList(serverJvm.trim().split("\\s+"));
        StringBuilder md = new StringBuilder();
        md.append("### Run of ").append(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).append("\n\n");
        md.append(Machine.current(Instant.now()).markdown());
        md.append("- load average before the run: ").append(loadAverage()).append('\n');
        md.append("- command: `scripts/bench.sh ").append(String.join(" ", commandLine())).append("`\n");
        if (quick) {
            md.append("- **smoke run (--quick): sizes and durations too small for the figures to mean anything**\n");
        }
        if (note != null) {
            md.append("- ").append(note).append('\n');
        }
        md.append('\n');
        if (only.contains("ingest")) {
            IngestBenchmark ingest = new IngestBenchmark(new IngestBenchmark.Settings(
                    or(agents, quick ? 50 : 1000), or(rates, quick ? List.of(100) : List.of(100, 1000)),
                    Duration.ofSeconds(quick ? 2 : 15), Duration.ofSeconds(or(durationSeconds, quick ? 3 : 30)),
                    or(connections, quick ? 16 : 64), jvm, work.resolve("ingest"), !noInflux));
            md.append("#### Collector ingest\n\n").append(ingest.markdown(ingest.run(log))).append('\n');
        }
        if (only.contains("rebuild")) {
            RebuildIngestBenchmark rebuild = new RebuildIngestBenchmark(new RebuildIngestBenchmark.Settings(
                    or(agents, quick ? 50 : 1000), or(rebuildNew, quick ? 50 : 1000), or(rebuildNights, quick ? 7 : 30),
                    // 56: as many reports in flight as the collector's defaults take at once (64 connections from one
                    // address, 64 bodies being received) less the bench's own (the new agents' 2, /metrics); 1,000 agents
                    // have a connection each, and 32 capped what was in flight whenever a report took 32 ms
                    or(rebuildRate, quick ? 100 : 1000), Math.min(56, or(connections, quick ? 16 : 56)), jvm, work.resolve("rebuild"),
                    or(rebuildShares, List.of(0.25, 1024.0))));
            md.append("#### Ingest while the alert stage rebuilds new instances\n\n").append(rebuild.markdown(rebuild.run(log)))
                    .append('\n');
        }
        if (only.contains("morning")) {
            MorningMinute morning = new MorningMinute(new MorningMinute.Settings(or(instances, quick ? 200 : 10_000),
                    or(analysisNights, quick ? 30 : 90), or(morningRounds, quick ? 2 : 7), 1, morningProfile, morningQuiet));
            md.append("#### The morning minute, repeated\n\n").append(morning.markdown(morning.run(log))).append('\n');
        }
        if (only.contains("analysis")) {
            AnalysisBenchmark analysis = new AnalysisBenchmark(new AnalysisBenchmark.Settings(
                    or(instances, quick ? 200 : 10_000), or(analysisNights, quick ? 30 : 90), quick ? 1 : 2, 1 / 9.0));
            md.append("#### Analysis scale\n\n").append(analysis.markdown(analysis.run(log))).append('\n');
            int cold = or(coldInstances, or(instances, quick ? 200 : 10_000));
            if (cold > 0) {
                ColdStartBenchmark start = new ColdStartBenchmark(cold, or(analysisNights, quick ? 30 : 90),
                        or(restarts, 1), work.resolve("analysis"));
                md.append("#### Cold start on SQLite\n\n").append(start.markdown(start.run(analysis.config(), log)))
                        .append('\n');
            }
            for (int split : analysisSplits == null ? List.<Integer>of() : analysisSplits) {
                if (split < 2) {
                    throw new CommandLine.ParameterException(new CommandLine(this),
                            "--analysis-split takes collector counts of 2 or more, got " + split);
                }
                AnalysisBenchmark share = new AnalysisBenchmark(new AnalysisBenchmark.Settings(
                        or(instances, quick ? 200 : 10_000), or(analysisNights, quick ? 30 : 90), quick ? 1 : 2, 1 / 9.0,
                        split));
                md.append("#### Analysis scale, one collector of ").append(split).append("\n\n")
                        .append(share.markdown(share.run(log))).append('\n');
            }
        }
        if (only.contains("growth")) {
            GrowthBenchmark growth = new GrowthBenchmark(new GrowthBenchmark.Settings(
                    or(fleetSizes, quick ? List.of(100, 1000) : List.of(1000, 10_000, 100_000)),
                    or(nights, quick ? 7 : 14), jvm, work.resolve("growth"), Duration.ofSeconds(quick ? 3 : 15)));
            md.append("#### Growth with fleet size\n\n").append(growth.markdown(growth.run(log))).append('\n');
        }
        if (only.contains("pages")) {
            PagesBenchmark pages = new PagesBenchmark(new PagesBenchmark.Settings(or(pagesInstances, quick ? 200 : 10_000),
                    or(pagesNights, quick ? 7 : 30), or(pagesRepeats, quick ? 10 : 100), or(pagesWarmup, 1), jvm,
                    work.resolve("pages")));
            md.append("#### Status pages at fleet size\n\n").append(pages.markdown(pages.run(log))).append('\n');
        }
        if (only.contains("collectors")) {
            if (pgUrl == null || pgPasswordFile == null) {
                System.err.println("bench: --only collectors needs --pg-url and --pg-password-file (scripts/bench.sh starts a "
                        + "PostgreSQL and passes them)");
                return 2;
            }
            CollectorsIngestBenchmark collectors = new CollectorsIngestBenchmark(new CollectorsIngestBenchmark.Settings(
                    or(agents, quick ? 50 : 1000), Duration.ofSeconds(quick ? 2 : 15),
                    Duration.ofSeconds(or(durationSeconds, quick ? 3 : 30)), or(connections, quick ? 16 : 48), jvm,
                    work.resolve("collectors"), or(collectorCounts, List.of(1, 2, 3)), pgUrl, pgUser, pgPasswordFile, pgPid));
            md.append("#### Ingest into several collectors on PostgreSQL\n\n")
                    .append(collectors.markdown(collectors.run(log))).append('\n');
        }
        if (only.contains("fleet100k")) {
            if (pgUrl == null || pgPasswordFile == null) {
                System.err.println("bench: --only fleet100k needs --pg-url and --pg-password-file (scripts/bench.sh starts a "
                        + "PostgreSQL and passes them)");
                return 2;
            }
            LargeFleetBenchmark fleet = new LargeFleetBenchmark(new LargeFleetBenchmark.Settings(
                    or(fleetInstances, quick ? 2_000 : 100_000), or(fleetNights, quick ? 7 : 30), or(fleetCollectors, 3),
                    jvm, work.resolve("fleet100k"), pgUrl, pgUser, pgPasswordFile,
                    Duration.ofMinutes(quick ? 5 : 15), Duration.ofMinutes(1), Duration.ofMinutes(quick ? 1 : 2),
                    fleetReuse));
            md.append("#### A large fleet over several collectors on PostgreSQL\n\n")
                    .append(fleet.markdown(fleet.run(log))).append('\n');
        }
        if (only.contains("jmh")) {
            JmhBenchmarks jmh = new JmhBenchmarks(new JmhBenchmarks.Settings("io\\.qatwatch\\.bench\\.jmh\\..*",
                    1, quick ? 1 : 3, quick ? 1 : 5, TimeValue.seconds(quick ? 1 : 2), List.of("-Xmx512m"), work.resolve("jmh.log")));
            log.say("jmh: running; JMH's own output goes to " + work.resolve("jmh.log"));
            md.append("#### Hot functions (JMH)\n\n").append(jmh.markdown(jmh.run())).append('\n');
        }
        if (only.contains("stalled")) {
            StalledUploadsBenchmark stalled = new StalledUploadsBenchmark(new StalledUploadsBenchmark.Settings(
                    40, 8 * 1024 * 1024 - 1, 1024 * 1024, Duration.ofSeconds(quick ? 13 : 15), jvm, work.resolve("stalled")));
            md.append("#### Stalled uploads\n\n").append(stalled.markdown(stalled.run(log))).append('\n');
        }
        if (only.contains("agent")) {
            AgentFootprintBenchmark agent = new AgentFootprintBenchmark(AgentFootprintBenchmark.settings(quick));
            md.append("#### Agent footprint\n\n").append(agent.markdown(agent.run(log))).append('\n');
        }
        System.out.print(md);
        if (out != null) {
            writeOut(md.toString());
        }
        return 0;
    }

    /** The options this run was given, as typed after {@code scripts/bench.sh} (the script's own {@code --out} left out). */
    private List<String> commandLine() {
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        List<String> args = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String a = given.get(i);
            if (a.equals("--out")) {
                i++;
            } else if (!a.startsWith("--out=")) {
                args.add(a);
            }
        }
        return args;
    }

    private void writeOut(String md) throws IOException {
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, md);
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2] + " (1, 5, 15 min)";
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
