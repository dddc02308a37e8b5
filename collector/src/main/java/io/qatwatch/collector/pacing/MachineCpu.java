package io.qatwatch.collector.pacing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The CPU time the whole machine has spent busy since boot, in nanoseconds of one core: on Linux from the first line of
 * {@code /proc/stat} (user, nice, system, irq, softirq and steal ticks of every core, at {@code USER_HZ} = 100), so
 * the store's PostgreSQL or a neighbour on the same machine counts; elsewhere the collector process's own CPU time,
 * which is all the JVM can see.
 */
public final class MachineCpu {

    private static final Path PROC_STAT = Path.of("/proc/stat");
    /** {@code USER_HZ}: what /proc/stat counts in on every Linux architecture the JVM runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private MachineCpu() {
    }

    /** The busy time of the machine, or of this process where /proc/stat cannot be read. */
    public static LongSupplier busyNanos() {
        if (procStat() >= 0) {
            return MachineCpu::procStat;
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                && os.getProcessCpuTime() >= 0) {
            return os::getProcessCpuTime;
        }
        return () -> 0;
    }

    /** The busy ticks of /proc/stat's {@code cpu} line in nanoseconds, or -1 when it cannot be read. */
    static long procStat() {
        try (var lines = Files.lines(PROC_STAT)) {
            String first = lines.findFirst().orElse("");
            return first.startsWith("cpu ") ? busyTicks(first) * NANOS_PER_TICK : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** user + nice + system + irq + softirq + steal of a {@code cpu} line; idle and iowait are not busy. */
    static long busyTicks(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        long busy = 0;
        int[] fields = {1, 2, 3, 6, 7, 8};
        for (int i : fields) {
            if (i < f.length) {
                busy += Long.parseLong(f[i]);
            }
        }
        return busy;
    }
}
