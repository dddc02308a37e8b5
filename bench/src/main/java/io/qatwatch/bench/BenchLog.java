package io.qatwatch.bench;

/** Where a benchmark reports its progress (stderr for the CLI), so long runs show they are alive. */
@FunctionalInterface
public interface BenchLog {

    void say(String line);
}
