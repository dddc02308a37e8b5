package io.qatwatch.collector.metrics;

import io.qatwatch.collector.metrics.PrometheusText.Type;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process and JVM figures a Prometheus user expects of a Java service (names as the Prometheus Java client
 * writes them), read from java.lang.management on each scrape: CPU, start time, file descriptors, memory by
 * area and pool, garbage collections, threads, classes.
 */
public final class JvmMetrics {

    private JvmMetrics() {
    }

    /** Writes the families above into {@code out}. */
    public static void writeTo(PrometheusText out) {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun && sun.getProcessCpuTime() >= 0) {
            out.family("process_cpu_seconds_total", Type.COUNTER, "CPU time the collector process used, user and system.")
                    .sample(sun.getProcessCpuTime() / 1e9);
        }
        out.family("process_start_time_seconds", Type.GAUGE, "When the collector process started, in seconds since the epoch.")
                .sample(runtime.getStartTime() / 1000.0);
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            out.family("process_open_fds", Type.GAUGE, "File descriptors the process has open.").sample(unix.getOpenFileDescriptorCount());
            out.family("process_max_fds", Type.GAUGE, "The process's limit of open file descriptors.").sample(unix.getMaxFileDescriptorCount());
        }

        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        Map<String, MemoryUsage> areas = new LinkedHashMap<>();
        areas.put("heap", memory.getHeapMemoryUsage());
        areas.put("nonheap", memory.getNonHeapMemoryUsage());
        out.family("jvm_memory_used_bytes", Type.GAUGE, "JVM memory in use, by area (heap, nonheap).");
        areas.forEach((area, usage) -> out.sample(Map.of("area", area), usage.getUsed()));
        out.family("jvm_memory_committed_bytes", Type.GAUGE, "JVM memory the operating system has committed, by area.");
        areas.forEach((area, usage) -> out.sample(Map.of("area", area), usage.getCommitted()));
        out.family("jvm_memory_max_bytes", Type.GAUGE, "The most memory the JVM may use, by area; -1 when unbounded.");
        areas.forEach((area, usage) -> out.sample(Map.of("area", area), usage.getMax()));

        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        out.family("jvm_memory_pool_used_bytes", Type.GAUGE, "JVM memory in use, by memory pool.");
        pools.forEach(pool -> out.sample(Map.of("pool", pool.getName()), pool.getUsage().getUsed()));
        out.family("jvm_memory_pool_max_bytes", Type.GAUGE, "The most memory a pool may use; -1 when unbounded.");
        pools.forEach(pool -> out.sample(Map.of("pool", pool.getName()), pool.getUsage().getMax()));

        out.family("jvm_gc_collection_seconds", Type.SUMMARY, "Garbage collections and the time they took, by collector.");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            out.sample("_count", Map.of("gc", gc.getName()), Math.max(0, gc.getCollectionCount()));
            out.sample("_sum", Map.of("gc", gc.getName()), Math.max(0, gc.getCollectionTime()) / 1000.0);
        }

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.family("jvm_threads_current", Type.GAUGE, "Live threads, daemon or not.").sample(threads.getThreadCount());
        out.family("jvm_threads_daemon", Type.GAUGE, "Live daemon threads.").sample(threads.getDaemonThreadCount());
        out.family("jvm_threads_peak", Type.GAUGE, "The most live threads since the JVM started.").sample(threads.getPeakThreadCount());
        out.family("jvm_classes_currently_loaded", Type.GAUGE, "Classes loaded now.")
                .sample(ManagementFactory.getClassLoadingMXBean().getLoadedClassCount());
        Map<String, String> info = new LinkedHashMap<>();
        info.put("runtime", runtime.getVmName());
        info.put("vendor", runtime.getVmVendor());
        info.put("version", Runtime.version().toString());
        out.family("jvm_info", Type.GAUGE, "The Java runtime: 1, labelled with its name, vendor and version.").sample(info, 1);
    }
}
