package io.qatwatch.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The agent's footprint (issue 33's last two rows: RSS with a SQL Server and the class-data archive, CPU at a 60 s
 * cycle), measured by {@code scripts/agent-footprint.sh}: a real collector, the project's TDS test server answering as
 * SQL Server 2022 with a msdb of {@code sqlRows} backup rows, and the agent started with the launcher's flags and its
 * class-data archive. The script stays the one measurement (it also runs on its own, with other flags); this part runs
 * it with the settings so that {@code scripts/bench.sh} measures every row, and takes its Markdown as it is:
 * the row (RSS, private part, CPU % and per cycle, the first sync) and the window's CPU by thread.
 */
final class AgentFootprintBenchmark {

    /**
     * @param script  {@code scripts/agent-footprint.sh}
     * @param warmup  seconds before the measured window (the first sync of the backup rows happens in them)
     * @param seconds the measured window
     * @param cycle   the agent's host cycle, seconds
     * @param sqlRows msdb's backup rows on the TDS test server
     */
    record Settings(Path script, int warmup, int seconds, int cycle, int sqlRows) {
    }

    private final Settings settings;

    AgentFootprintBenchmark(Settings settings) {
        this.settings = settings;
    }

    /** Runs the script (its progress to this process's stderr) and returns its Markdown. */
    String run(BenchLog log) throws IOException, InterruptedException {
        if (!Files.isExecutable(settings.script())) {
            throw new IOException("agent: " + settings.script() + " is missing or not executable (run the bench from the "
                    + "repository, as scripts/bench.sh does)");
        }
        log.say(String.format("agent: %d s warm-up, then %d s measured at a %d s cycle, SQL Server with %,d backup rows, "
                + "class-data archive", settings.warmup(), settings.seconds(), settings.cycle(), settings.sqlRows()));
        ProcessBuilder pb = new ProcessBuilder(settings.script().toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = pb.environment();
        env.put("FOOTPRINT_CDS", "1");
        env.put("FOOTPRINT_WARMUP", Integer.toString(settings.warmup()));
        env.put("FOOTPRINT_SECONDS", Integer.toString(settings.seconds()));
        env.put("FOOTPRINT_CYCLE", Integer.toString(settings.cycle()));
        env.put("FOOTPRINT_SQL_ROWS", Integer.toString(settings.sqlRows()));
        env.remove("QATWATCH_AGENT_JAVA_OPTS"); // the launcher's flags, which the rows are about
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        if (code != 0) {
            throw new IOException("agent: scripts/agent-footprint.sh exited with " + code + "; its output:\n" + out);
        }
        return out;
    }

    String markdown(String scriptOutput) {
        return String.format("`scripts/agent-footprint.sh` with `FOOTPRINT_CDS=1 FOOTPRINT_WARMUP=%d FOOTPRINT_SECONDS=%d "
                        + "FOOTPRINT_CYCLE=%d FOOTPRINT_SQL_ROWS=%d`: the agent with the launcher's flags and its class-data "
                        + "archive, watching the TDS test server as SQL Server 2022 with a msdb of %,d backup rows, reporting "
                        + "to a real collector on loopback. RSS and its private part sampled every 5 s in the window; CPU from "
                        + "`/proc/<pid>/stat` over the window (the reports-written count read from `/healthz` outside it, "
                        + "since serving it costs the agent CPU), and by thread from each thread's `schedstat`. Goals (issue "
                        + "33): RSS ≤ 64 MiB, CPU ≤ 0.05 %% of a core.%n%n%s",
                settings.warmup(), settings.seconds(), settings.cycle(), settings.sqlRows(), settings.sqlRows(),
                scriptOutput.strip() + "\n");
    }

    /** The settings, or a smoke run's. */
    static Settings settings(boolean quick) {
        Path script = Path.of("scripts", "agent-footprint.sh");
        return quick ? new Settings(script, 30, 30, 10, 1_000) : new Settings(script, 150, 600, 60, 100_000);
    }
}
