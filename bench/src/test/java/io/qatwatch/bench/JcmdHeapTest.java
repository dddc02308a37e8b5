package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JcmdHeapTest {

    @Test
    void aProcesssLiveHeapIsTheTotalOfItsClassHistogramAfterAFullCollection() throws Exception {
        byte[] held = new byte[32 << 20];

        long live = JcmdHeap.liveBytes(ProcessHandle.current().pid());

        assertThat(live).as("jcmd's histogram of this JVM, which holds a 32 MiB array")
                .isGreaterThan(held.length).isLessThanOrEqualTo(Runtime.getRuntime().totalMemory());
        assertThat(held).hasSize(32 << 20);
    }

    @Test
    void aProcesssCommittedHeapIsWhatItsRuntimeSaysItHas() throws Exception {
        byte[] held = new byte[32 << 20];

        long committed = JcmdHeap.committedBytes(ProcessHandle.current().pid());

        assertThat(committed).as("jcmd's heap info of this JVM, which holds a 32 MiB array")
                .isGreaterThan(held.length).isLessThanOrEqualTo(Runtime.getRuntime().maxMemory());
        assertThat(held).hasSize(32 << 20);
    }

    @Test
    void aHistogramWithoutItsTotalLineReadsAsNotMeasured() {
        assertThat(JcmdHeap.histogramTotalBytes("12345:\ncom.sun.tools.attach.AttachNotSupportedException")).isEqualTo(-1);
    }

    @Test
    void heapInfoReadsG1sCommittedTotalOnly() {
        // the first lines of JDK 17's `jcmd PID GC.heap_info` for G1 (the collector's) and for the serial collector (not read)
        assertThat(JcmdHeap.heapInfoTotalBytes("4242:\n garbage-first heap   total 262144K, used 123456K "
                + "[0x0000000080000000, 0x0000000100000000)\n  region size 1024K, 12 young (12288K), 0 survivors (0K)"))
                .isEqualTo(262144L << 10);
        assertThat(JcmdHeap.heapInfoTotalBytes("4242:\n def new generation   total 2496K, used 1024K [0x...)\n"
                + " tenured generation   total 5504K, used 2000K [0x...)")).isEqualTo(-1);
        assertThat(JcmdHeap.heapInfoTotalBytes("4242:\ncom.sun.tools.attach.AttachNotSupportedException")).isEqualTo(-1);
    }

    @Test
    void nativeMemoryTrackingIsReadPerCategoryFromAJvmThatTracksIt() throws Exception {
        // a real JVM with tracking on and a heap of exactly 64 MiB committed from its start
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:NativeMemoryTracking=summary", "-Xms64m", "-Xmx64m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), UntilStdinCloses.class.getName())
                .redirectErrorStream(true).start();
        try {
            assertThat(child.getInputStream().read()).as("the child's ready byte").isEqualTo('R');

            Map<String, Long> committed = JcmdHeap.nativeCommitted(child.pid());

            assertThat(committed.keySet()).first().isEqualTo("Total");
            assertThat(committed).containsEntry("Java Heap", 64L << 20).containsKeys("Class", "Thread", "Code", "GC");
            assertThat(committed.get("Total")).isGreaterThan(committed.get("Java Heap") + committed.get("Class"));
        } finally {
            child.getOutputStream().close();
            child.waitFor(30, TimeUnit.SECONDS);
            child.destroyForcibly();
        }
    }

    @Test
    void aJvmWithoutTrackingHasNoNativeCategories() throws Exception {
        assertThat(JcmdHeap.nativeCommitted(ProcessHandle.current().pid())).as("this test JVM runs without -XX:NativeMemoryTracking")
                .isEmpty();
    }

    /** The child JVM of the tracking test: says it is up, then waits for its stdin to close. */
    static final class UntilStdinCloses {
        public static void main(String[] args) throws Exception {
            System.out.print('R');
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes it
            }
        }
    }
}
