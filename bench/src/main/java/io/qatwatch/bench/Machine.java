package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The machine a benchmark ran on, as the results page states it: cores, memory, CPU model, JDK, OS, date. */
public record Machine(int cores, long memoryBytes, String cpuModel, String jdk, String os, Instant date) {

    public static Machine current(Instant now) {
        return new Machine(Runtime.getRuntime().availableProcessors(), readMemTotal(), readCpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                now.truncatedTo(ChronoUnit.SECONDS));
    }

    public String markdown() {
        return "- date: " + date + "\n"
                + "- machine: " + cores + " cores (" + cpuModel + "), "
                + (memoryBytes > 0 ? (memoryBytes >> 20) + " MiB memory" : "memory unknown") + "\n"
                + "- JDK: " + jdk + "\n"
                + "- OS: " + os + "\n";
    }

    private static long readMemTotal() {
        try {
            return ProcessStats.kilobytes(Files.readString(Path.of("/proc/meminfo")), "MemTotal") * 1024;
        } catch (IOException e) {
            return -1;
        }
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            return "unknown CPU";
        }
        return "unknown CPU";
    }
}
