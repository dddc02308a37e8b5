package io.qatwatch.collector.compression;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;

/**
 * The CPU one backup cost over its whole run, from what the agent's polls saw (issue 30). The SQL Server process's
 * figure when it is reliable (it counts preemptive work, an external compression library's included), else the
 * request's {@code cpu_time} (a lower bound). Each covers only part of the run (the request's from its start to the
 * last poll that saw it, the process's from the first poll that saw it to the end), so it is scaled to the whole run;
 * a figure covering less than {@link #MIN_COVERAGE} of the run is not used. Pure.
 */
public final class CpuEstimate {

    /** The share of a run a figure must cover to be scaled to the whole run. */
    public static final double MIN_COVERAGE = 0.5;

    private CpuEstimate() {
    }

    /** CPU milliseconds of {@code b}'s whole run; null when no figure covers enough of it. */
    public static Long millis(BackupRecord b) {
        BackupCpu cpu = b.cpu();
        if (cpu == null || b.startedAt() == null || b.finishedAt() == null) {
            return null;
        }
        long run = Duration.between(b.startedAt(), b.finishedAt()).toMillis();
        if (run <= 0) {
            return null;
        }
        if (cpu.processCpuMs() != null && Boolean.TRUE.equals(cpu.processReliable()) && cpu.firstSampleAt() != null) {
            Long scaled = scaled(cpu.processCpuMs(), covered(max(cpu.firstSampleAt(), b.startedAt()), b.finishedAt()), run);
            if (scaled != null) {
                return scaled;
            }
        }
        if (cpu.requestCpuMs() != null && cpu.lastSampleAt() != null) {
            return scaled(cpu.requestCpuMs(), covered(b.startedAt(), min(cpu.lastSampleAt(), b.finishedAt())), run);
        }
        return null;
    }

    private static Long scaled(long cpuMillis, long coveredMillis, long runMillis) {
        double coverage = Math.min(1.0, (double) coveredMillis / runMillis);
        return coverage < MIN_COVERAGE ? null : Math.round(cpuMillis / coverage);
    }

    private static long covered(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis());
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
