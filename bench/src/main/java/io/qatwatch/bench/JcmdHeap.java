package io.qatwatch.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server JVM's heap as {@code jcmd} tells it: what it has committed ({@code GC.heap_info}, no collection) and what is
 * live ({@code GC.class_histogram}, which collects fully first). So a resident size can be split into the heap G1 has
 * grown to, the part of it that is live, and the rest of the process.
 */
final class JcmdHeap {

    /** G1's first line: {@code garbage-first heap   total 262144K, used 123456K [...} (the serial collector's differs). */
    private static final Pattern HEAP_TOTAL = Pattern.compile("heap\\s+total (\\d+)K, used (\\d+)K");
    private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern NMT_CATEGORY = Pattern.compile("^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

    private JcmdHeap() {
    }

    /** The live heap of process {@code pid}: the "Total" of its class histogram, taken after a full collection; -1 when it failed. */
    static long liveBytes(long pid) throws InterruptedException {
        String out = jcmd(pid, "GC.class_histogram");
        return out == null ? -1 : histogramTotalBytes(out);
    }

    /** The heap process {@code pid} has committed, without collecting; -1 when it failed. */
    static long committedBytes(long pid) throws InterruptedException {
        String out = jcmd(pid, "GC.heap_info");
        return out == null ? -1 : heapInfoTotalBytes(out);
    }

    /**
     * What native memory tracking says process {@code pid} has committed, per category in its order (with "Total"
     * first), in bytes; empty when the JVM runs without {@code -XX:NativeMemoryTracking} or jcmd failed.
     */
    static Map<String, Long> nativeCommitted(long pid) throws InterruptedException {
        String out = jcmd(pid, "VM.native_memory summary");
        return out == null ? Map.of() : nativeSummaryCommitted(out);
    }

    /**
     * The committed bytes of each category of a {@code VM.native_memory summary} (JDK 17: {@code Total: reserved=...KB,
     * committed=...KB} and {@code -  Java Heap (reserved=...KB, committed=...KB)} lines), "Total" first.
     */
    static Map<String, Long> nativeSummaryCommitted(String summary) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : summary.split("\n")) {
            Matcher total = NMT_TOTAL.matcher(line);
            if (total.find()) {
                out.put("Total", Long.parseLong(total.group(1)) << 10);
                continue;
            }
            Matcher category = NMT_CATEGORY.matcher(line);
            if (category.find()) {
                out.put(category.group(1).trim(), Long.parseLong(category.group(2)) << 10);
            }
        }
        return out;
    }

    /** The bytes of a class histogram's {@code Total <instances> <bytes>} line; -1 when it has none. */
    static long histogramTotalBytes(String histogram) {
        for (String line : histogram.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length == 3 && fields[0].equals("Total")) {
                return Long.parseLong(fields[2]);
            }
        }
        return -1;
    }

    /** The committed bytes of {@code GC.heap_info}'s first heap line; -1 when it has none. */
    static long heapInfoTotalBytes(String heapInfo) {
        Matcher m = HEAP_TOTAL.matcher(heapInfo);
        return m.find() ? Long.parseLong(m.group(1)) << 10 : -1;
    }

    private static String jcmd(long pid, String command) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        }
    }
}
