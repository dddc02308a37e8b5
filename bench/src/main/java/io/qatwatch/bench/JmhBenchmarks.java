package io.qatwatch.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs the JMH benchmarks in {@code io.qatwatch.bench.jmh} (forked, as JMH intends) and tabulates them. */
public final class JmhBenchmarks {

    /** Iterations and their length; {@code include} is a JMH regex over benchmark names. */
    public record Settings(String include, int forks, int warmupIterations, int iterations, TimeValue iterationTime,
            List<String> jvmArgs, Path log) {
    }

    private final Settings settings;

    public JmhBenchmarks(Settings settings) {
        this.settings = settings;
    }

    public Collection<RunResult> run() throws Exception {
        Options options = new OptionsBuilder()
                .include(settings.include())
                .forks(settings.forks())
                .warmupIterations(settings.warmupIterations())
                .warmupTime(settings.iterationTime())
                .measurementIterations(settings.iterations())
                .measurementTime(settings.iterationTime())
                .jvmArgsAppend(settings.jvmArgs().toArray(String[]::new))
                .shouldFailOnError(true)
                .output(settings.log().toString())
                .build();
        return new Runner(options).run();
    }

    public String markdown(Collection<RunResult> results) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "JMH %s, %d fork(s), %d warm-up and %d measured iterations of %s.%n%n",
                "1.37", settings.forks(), settings.warmupIterations(), settings.iterations(), settings.iterationTime()));
        md.append("| benchmark | score | ± (99.9 %) | unit |\n|---|---:|---:|---|\n");
        List<RunResult> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> a.getParams().getBenchmark().compareTo(b.getParams().getBenchmark()));
        for (RunResult r : sorted) {
            var primary = r.getPrimaryResult();
            String name = r.getParams().getBenchmark().replace("io.qatwatch.bench.jmh.", "");
            double error = primary.getScoreError();
            md.append(String.format(Locale.ROOT, "| `%s` | %.3f | %s | %s |%n", name, primary.getScore(),
                    Double.isNaN(error) ? "n/a" : String.format(Locale.ROOT, "%.3f", error), primary.getScoreUnit()));
        }
        return md.toString();
    }
}
