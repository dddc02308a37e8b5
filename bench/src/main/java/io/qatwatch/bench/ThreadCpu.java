package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A collector's CPU by kind of thread, from Linux's {@code /proc/<pid>/task/<tid>/stat}: what a measured minute was spent
 * on (the alert stage's evaluation, the store's threads, the JIT's compilers, G1, the rest). Thread names are the
 * kernel's {@code comm}, cut at 15 characters ({@code qatwatch-alert-stage-1} reads {@code qatwatch-alert-}).
 * Threads that ended between two samples lose their CPU from the difference, so the parts may add up to a little less
 * than the process's total.
 */
final class ThreadCpu {

    /** The kinds in the order they are printed. */
    static final String[] KINDS = {"stage", "store", "JIT", "GC", "other"};

    /** Linux's USER_HZ: {@code /proc}'s times are in these ticks (100 on every architecture Linux runs Java on). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ThreadCpu() {
    }

    /** CPU nanoseconds of {@code pid}'s live threads by kind; empty when the process is gone. */
    static Map<String, Long> sample(long pid) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String kind : KINDS) {
            out.put(kind, 0L);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended while we listed
                }
                out.merge(kind(name(stat)), cpuNanos(stat), Long::sum);
            }
        } catch (IOException e) {
            return Map.of();
        }
        return out;
    }

    /** What was spent between two samples, by kind, as "s / s / …" in {@link #KINDS}' order; "n/a" when either is empty. */
    static String secondsBetween(Map<String, Long> before, Map<String, Long> after) {
        if (before.isEmpty() || after.isEmpty()) {
            return "n/a";
        }
        StringBuilder out = new StringBuilder();
        for (String kind : KINDS) {
            if (out.length() > 0) {
                out.append(" / ");
            }
            out.append(String.format(Locale.ROOT, "%.2f", Math.max(0, after.get(kind) - before.get(kind)) / 1e9));
        }
        return out.toString();
    }

    /** What a sample holds since the process started, as {@link #secondsBetween} prints it; "n/a" when it is empty. */
    static String seconds(Map<String, Long> sample) {
        Map<String, Long> start = new LinkedHashMap<>();
        for (String kind : KINDS) {
            start.put(kind, 0L);
        }
        return secondsBetween(start, sample);
    }

    /** The thread's name: between the first '(' and the last ')', since a name may hold either. */
    static String name(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    /** utime + stime, fields 14 and 15 of the line, counted after the name's closing parenthesis (field 2). */
    static long cpuNanos(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is field 3 (state), so field 14 is fields[11] and field 15 fields[12]
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
    }

    static String kind(String name) {
        if (name.startsWith("qatwatch-alert-")) {
            return "stage";
        }
        if (name.startsWith("qatwatch-store") || name.startsWith("qatwatch-read-") || name.startsWith("qatwatch-cold-")) {
            return "store";
        }
        if (name.startsWith("C2 CompilerThre") || name.startsWith("C1 CompilerThre")) {
            return "JIT";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return "GC";
        }
        return "other";
    }
}
