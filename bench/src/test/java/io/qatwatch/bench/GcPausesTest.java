package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcPausesTest {

    /** Lines of a collector's log from the pages bench's store (JDK 17, G1, {@code -Xlog:gc:file=F:time}). */
    private static final List<String> COLLECTOR_LOG = List.of(
            "[2026-12-05T11:13:29.562+0000] GC(84) Pause Young (Concurrent Start) (System.gc()) 1188M->1017M(5104M) 516.940ms",
            "[2026-12-05T11:13:29.562+0000] GC(85) Concurrent Mark Cycle",
            "[2026-12-05T11:13:34.033+0000] GC(85) Pause Remark 1057M->1045M(1504M) 29.511ms",
            "[2026-12-05T11:13:35.134+0000] GC(85) Pause Cleanup 1078M->1078M(1504M) 0.133ms",
            "[2026-12-05T11:13:35.375+0000] GC(85) Concurrent Mark Cycle 5811.484ms",
            "[2026-12-05T11:13:36.534+0000] GC(87) Pause Young (Prepare Mixed) (G1 Evacuation Pause) 1245M->1008M(1504M) 107.124ms",
            "[2026-12-05T11:13:36.705+0000] GC(88) Pause Young (Mixed) (G1 Evacuation Pause) 1064M->997M(1504M) 56.369ms");

    @Test
    void everyStopTheWorldPauseWithItsKindAndSpanNotTheConcurrentPhases() {
        List<GcPauses.Pause> pauses = GcPauses.parse(COLLECTOR_LOG);
        assertThat(pauses).extracting(GcPauses.Pause::kind).containsExactly("Pause Young (Concurrent Start)", "Pause Remark",
                "Pause Cleanup", "Pause Young (Prepare Mixed)", "Pause Young (Mixed)");
        GcPauses.Pause first = pauses.get(0);
        // logged when it ends: it began its duration earlier
        assertThat(first.endMillis()).isEqualTo(java.time.Instant.parse("2026-12-05T11:13:29.562Z").toEpochMilli());
        assertThat(first.millis()).isEqualTo(516.940, org.assertj.core.data.Offset.offset(1e-3));
    }

    @Test
    void aPauseCountsForTheRequestsItOverlapsOnly() {
        List<GcPauses.Pause> pauses = GcPauses.parse(COLLECTOR_LOG);
        long remarkEnd = java.time.Instant.parse("2026-12-05T11:13:34.033Z").toEpochMilli();
        List<GcPauses.Pause> in = GcPauses.within(pauses, List.of(new long[] {remarkEnd - 20, remarkEnd + 5},
                new long[] {remarkEnd + 100, remarkEnd + 200}));
        assertThat(in).extracting(GcPauses.Pause::kind).containsExactly("Pause Remark");
    }

    @Test
    void readsTheLogARealJvmWritesWithTheBenchsOption(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Path source = dir.resolve("Collect.java");
        java.nio.file.Files.writeString(source, "class Collect { public static void main(String[] a) { System.gc(); } }");
        long before = System.currentTimeMillis();
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-XX:+UseG1GC",
                GcPauses.logOption(log), source.toString()).inheritIO().start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        long after = System.currentTimeMillis();
        List<GcPauses.Pause> pauses = GcPauses.read(log);
        assertThat(pauses).extracting(GcPauses.Pause::kind).contains("Pause Full (System.gc())");
        assertThat(pauses).allSatisfy(pause -> assertThat(pause.endMillis()).isBetween((double) before - 1_000, (double) after + 1_000));
    }
}
