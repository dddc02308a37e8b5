package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.compression.AlgorithmStats.Quartiles;
import io.qatwatch.collector.compression.Comparison.Entry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Comparison} holds a one-method row without a list and an entry around its statistics, and its newest finish
 * (and each {@link AlgorithmStats}' latest) as numbers, but must give, compare, hash and print what the records they
 * were did: {@code Record} below is the comparison record, part for part, and every row here is checked against it.
 */
class ComparisonAsRecordTest {

    /** The record {@link Comparison} was until session 16, as it was declared. */
    private record Record(String database, BackupKind kind, String target, Boolean tde, boolean backupEncrypted,
                          List<Entry> algorithms, Method baseline, Method alternative, Verdict verdict,
                          Double speedGainPercent, Double sizeGainPercent, Double cpuGainPercent, Method current,
                          Instant currentAt) {

        Record {
            algorithms = List.copyOf(algorithms);
        }
    }

    private static final Method XPRESS = Method.shared(Method.MS_XPRESS, null, null);
    private static final Method QAT = Method.shared("QAT_DEFLATE", null, "HARDWARE");
    private static final Instant LATEST = Instant.parse("2026-03-02T01:42:17.123Z");

    private static AlgorithmStats stats(Method m, Instant latest, Quartiles cpu) {
        return new AlgorithmStats(m, 12, 1, new Quartiles(600, 700.5, 800), new Quartiles(90, 100, 110.25),
                new Quartiles(2.5, 3, 3.5), latest, cpu == null ? 0 : 4, cpu);
    }

    private static Comparison of(Record r) {
        return new Comparison(r.database(), r.kind(), r.target(), r.tde(), r.backupEncrypted(), r.algorithms(),
                r.baseline(), r.alternative(), r.verdict(), r.speedGainPercent(), r.sizeGainPercent(), r.cpuGainPercent(),
                r.current(), r.currentAt());
    }

    private static Record back(Comparison c) {
        return new Record(c.database(), c.kind(), c.target(), c.tde(), c.backupEncrypted(), c.algorithms(), c.baseline(),
                c.alternative(), c.verdict(), c.speedGainPercent(), c.sizeGainPercent(), c.cpuGainPercent(), c.current(),
                c.currentAt());
    }

    /** One-method rows (held without their list), rows of two, and rows that differ in one part each. */
    private static List<Record> variants() {
        AlgorithmStats base = stats(XPRESS, LATEST, null);
        AlgorithmStats qat = stats(QAT, LATEST.plusSeconds(86_400), new Quartiles(1, 2, 3));
        Judgement judged = new Judgement(Verdict.FASTER, 30.5, -2.25, 12.0);
        List<Record> out = new ArrayList<>();
        Record single = new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS,
                null, Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, LATEST);
        out.add(single);
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", true, false, List.of(new Entry(base, null)), XPRESS,
                null, Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, LATEST));
        out.add(new Record("Sales", BackupKind.DIFFERENTIAL, "UNC", false, true, List.of(new Entry(base, null)), XPRESS,
                null, Verdict.SINGLE_ALGORITHM, null, null, null, null, null));
        out.add(new Record("sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS,
                null, Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, LATEST.plusNanos(1)));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(stats(XPRESS,
                LATEST.plusNanos(999), null), null)), XPRESS, null, Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, LATEST));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(stats(XPRESS, null, null),
                null)), XPRESS, null, Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, Instant.parse("1960-01-01T00:00:00.5Z")));
        // one entry that is judged: kept as the list it was
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(qat, judged)), XPRESS,
                QAT, Verdict.FASTER, 30.5, -2.25, 12.0, QAT, LATEST));
        out.add(new Record(null, null, null, null, false, List.of(), null, null, null, null, null, null, null, null));
        // each of the alternative and the gains without the others, every verdict, TDE on with encryption
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS, QAT,
                Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, LATEST));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS, null,
                Verdict.SINGLE_ALGORITHM, 1.5, null, null, XPRESS, LATEST));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS, null,
                Verdict.SINGLE_ALGORITHM, null, -0.0, null, XPRESS, LATEST));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", null, false, List.of(new Entry(base, null)), XPRESS, null,
                Verdict.SINGLE_ALGORITHM, null, null, Double.NaN, XPRESS, LATEST));
        for (Verdict v : Verdict.values()) {
            out.add(new Record("Sales", BackupKind.DIFFERENTIAL, "URL", true, true, List.of(new Entry(base, null)), XPRESS,
                    null, v, null, null, null, XPRESS, LATEST));
        }
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", false, false, List.of(new Entry(base, null),
                new Entry(qat, judged)), XPRESS, QAT, Verdict.FASTER, 30.5, -2.25, 12.0, QAT, LATEST.plusSeconds(86_400)));
        out.add(new Record("Sales", BackupKind.FULL, "LOCAL", false, false, List.of(new Entry(base, null),
                new Entry(qat, judged)), XPRESS, QAT, Verdict.FASTER, 30.5, -2.25, null, QAT, Instant.MAX));
        return out;
    }

    @Test
    void everyPartComesBackAsTheRecordHeldIt() {
        for (Record r : variants()) {
            assertThat(back(of(r))).isEqualTo(r);
            assertThat(of(r).algorithms()).isEqualTo(r.algorithms()).isUnmodifiable();
        }
    }

    @Test
    void equalityHashAndPrintingAreTheRecords() {
        List<Record> all = variants();
        for (Record a : all) {
            Comparison c = of(a);
            assertThat(c.hashCode()).isEqualTo(a.hashCode());
            assertThat(c.toString()).isEqualTo(a.toString().replace("Record[", "Comparison["));
            for (Record b : all) {
                assertThat(c.equals(of(b))).as("%s against %s", a, b).isEqualTo(a.equals(b));
            }
        }
        assertThat(of(all.get(0))).isNotEqualTo(null).isNotEqualTo(all.get(0));
    }

    @Test
    void statsOfAMethodAsTheListGaveThem() {
        for (Record r : variants()) {
            for (Method m : new Method[] {XPRESS, QAT, null}) {
                assertThat(of(r).stats(m)).isEqualTo(r.algorithms().stream().map(Entry::stats)
                        .filter(s -> s.method().equals(m)).findFirst());
            }
        }
    }

    @Test
    void aStatisticsLatestFinishComesBackToTheNanosecond() {
        for (Instant at : new Instant[] {LATEST, LATEST.plusNanos(1), Instant.MIN, Instant.MAX, null}) {
            AlgorithmStats s = stats(QAT, at, null);
            assertThat(s.latest()).isEqualTo(at);
            assertThat(s).isEqualTo(stats(QAT, at, null)).hasSameHashCodeAs(stats(QAT, at, null));
            assertThat(s.toString()).contains("latest=" + at + ",");
        }
        assertThat(stats(QAT, LATEST, null)).isNotEqualTo(stats(QAT, LATEST.plusNanos(1), null));
    }

    @Test
    void aNullEntryIsRefusedAsTheRecordRefusedIt() {
        List<Entry> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> new Comparison("Sales", BackupKind.FULL, "LOCAL", null, false, withNull, XPRESS, null,
                Verdict.SINGLE_ALGORITHM, null, null, null, null, null)).isInstanceOf(NullPointerException.class);
    }
}
