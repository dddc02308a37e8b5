package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.compression.AlgorithmStats.Quartiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * {@link AlgorithmStats} holds its quartiles as numbers (the first three in fields, the CPU's in an array only when
 * given) and its newest finish as numbers, but must give, compare and print what the record it was did: {@code Record}
 * below is that record, part for part, and every one here is checked against it (the hash is {@code Objects.hash} of
 * the parts, as since session 12).
 */
class AlgorithmStatsAsRecordTest {

    /** The record {@link AlgorithmStats} was until session 12, as it was declared. */
    private record Record(Method method, int backups, int copyOnlyBackups, Quartiles seconds, Quartiles mbps,
                          Quartiles ratio, Instant latest, int cpuBackups, Quartiles cpuSecondsPerGb) {
    }

    private static final Method XPRESS = Method.shared(Method.MS_XPRESS, null, null);
    private static final Method QAT = Method.shared("QAT_DEFLATE", null, "SOFTWARE");
    private static final Instant LATEST = Instant.parse("2026-03-02T01:42:17.123Z");

    private static AlgorithmStats of(Record r) {
        return new AlgorithmStats(r.method(), r.backups(), r.copyOnlyBackups(), r.seconds(), r.mbps(), r.ratio(),
                r.latest(), r.cpuBackups(), r.cpuSecondsPerGb());
    }

    private static List<Record> variants() {
        Quartiles s = new Quartiles(600, 700.5, 800);
        Quartiles m = new Quartiles(90, 100, 110.25);
        Quartiles r = new Quartiles(2.5, 3, 3.5);
        Quartiles c = new Quartiles(1.25, 2, 3.75);
        List<Record> out = new ArrayList<>();
        out.add(new Record(XPRESS, 12, 1, s, m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, m, r, LATEST, 4, c));
        out.add(new Record(QAT, 12, 1, s, m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 13, 1, s, m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 0, s, m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, null, m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, null, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, m, null, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, null, null, null, null, 4, c));
        out.add(new Record(null, 0, 0, null, null, null, null, 0, null));
        // a quartile of 0 is not the same as none; -0.0 and NaN as a record compares them
        out.add(new Record(XPRESS, 12, 1, new Quartiles(0, 0, 0), m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, new Quartiles(-0.0, 0, 0), m, r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, m, new Quartiles(Double.NaN, 1, Double.POSITIVE_INFINITY), LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, new Quartiles(90, 100, 110.5), r, LATEST, 0, null));
        out.add(new Record(XPRESS, 12, 1, s, m, r, LATEST, 4, new Quartiles(1.25, 2, 3.5)));
        out.add(new Record(XPRESS, 12, 1, s, m, r, LATEST.plusNanos(1), 0, null));
        return out;
    }

    @Test
    void everyPartComesBackAsTheRecordHeldIt() {
        for (Record r : variants()) {
            AlgorithmStats a = of(r);
            assertThat(new Record(a.method(), a.backups(), a.copyOnlyBackups(), a.seconds(), a.mbps(), a.ratio(),
                    a.latest(), a.cpuBackups(), a.cpuSecondsPerGb())).isEqualTo(r);
        }
    }

    @Test
    void equalityHashAndPrintingAreTheRecords() {
        List<Record> all = variants();
        for (Record a : all) {
            AlgorithmStats s = of(a);
            assertThat(s.hashCode()).isEqualTo(Objects.hash(a.method(), a.backups(), a.copyOnlyBackups(), a.seconds(),
                    a.mbps(), a.ratio(), a.latest(), a.cpuBackups(), a.cpuSecondsPerGb()));
            assertThat(s.toString()).isEqualTo(a.toString().replace("Record[", "AlgorithmStats["));
            for (Record b : all) {
                assertThat(s.equals(of(b))).as("%s against %s", a, b).isEqualTo(a.equals(b));
            }
        }
    }
}
