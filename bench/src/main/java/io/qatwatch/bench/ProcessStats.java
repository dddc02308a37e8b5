package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * CPU time and resident memory of a process, as Linux accounts them: CPU from {@link ProcessHandle}
 * (which reads {@code /proc/<pid>/stat}), RSS and its peak from {@code /proc/<pid>/status}.
 */
public final class ProcessStats {

    /** One reading. {@code rssBytes}/{@code peakRssBytes} are -1 where {@code /proc} is unavailable. */
    public record Sample(long nanoTime, boolean alive, Duration cpu, long rssBytes, long peakRssBytes) {

        /** Average cores used between {@code earlier} and this sample (1.0 = one core busy); NaN if the process died. */
        public double coresSince(Sample earlier) {
            long wall = nanoTime - earlier.nanoTime;
            if (!alive || !earlier.alive) {
                return Double.NaN;
            }
            return wall <= 0 ? 0 : (double) cpu.minus(earlier.cpu).toNanos() / wall;
        }
    }

    private ProcessStats() {
    }

    /** A reading of process {@code pid}; a process that is gone (e.g. killed by running out of memory) reads as -1. */
    public static Sample sample(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return new Sample(System.nanoTime(), false, Duration.ZERO, -1, -1);
        }
        Duration cpu = handle.get().info().totalCpuDuration().orElse(Duration.ZERO);
        String status;
        try {
            status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        } catch (IOException e) {
            status = "";
        }
        return new Sample(System.nanoTime(), true, cpu, kilobytes(status, "VmRSS") * 1024,
                kilobytes(status, "VmHWM") * 1024);
    }

    /** CPU time of {@code pid} and every process below it (PostgreSQL's postmaster and its backends), in nanoseconds. */
    public static long treeCpuNanos(long pid) {
        Optional<ProcessHandle> root = ProcessHandle.of(pid);
        if (root.isEmpty()) {
            return 0;
        }
        long total = root.get().info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
        for (ProcessHandle p : (Iterable<ProcessHandle>) root.get().descendants()::iterator) {
            total += p.info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
        }
        return total;
    }

    /** The value of a {@code Key:   1234 kB} line of {@code /proc/<pid>/status}, or -1 when absent. */
    static long kilobytes(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key + ":")) {
                String value = line.substring(key.length() + 1).trim();
                int space = value.indexOf(' ');
                return Long.parseLong(space < 0 ? value : value.substring(0, space));
            }
        }
        return -1;
    }
}
