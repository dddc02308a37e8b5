package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A finished night's points as the creep drivers read them back: exactly the numbers given, packed, and through a
 * persisted summary in either of its forms (three ints a backup, or two longs once a number does not fit the ints: a
 * backup of 4 TiB or more, or a series number of 2^21).
 */
class KeptPointsTest {

    private static final long FIVE_TIB = 5L << 40;

    @Test
    void readsBackWhatItWasGivenPackedAndThroughASummaryInEitherForm() {
        long[] narrow = {0, 3_600, 123_456_789_012L, 7, Integer.MAX_VALUE, 1_023, 6, 0, 0};
        long[] wide = {2, 59, 987_654_321L, 3, 86_400, FIVE_TIB + 17, 4, 1, 0};
        long[] manySeries = {(1 << 21) + 5, 600, 4_096, 1, 600, 4_096};
        for (long[] rows : new long[][] {narrow, wide, manySeries, {}}) {
            KeptHistory.Points points = new KeptHistory.Points(rows.clone());
            assertThat(points.size()).isEqualTo(rows.length / 3);
            assertThat(points.rows()).containsExactly(rows);
            SummaryOutput out = new SummaryOutput(Instant.EPOCH);
            points.write(out);
            SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
            assertThat(KeptHistory.Points.read(in).rows()).containsExactly(rows);
            in.end();
        }
        SummaryOutput out = new SummaryOutput(Instant.EPOCH);
        new KeptHistory.Points(narrow).write(out);
        new KeptHistory.Points(wide).write(out);
        SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
        assertThat(in.readCount()).as("ints while every number fits").isEqualTo(1);
        assertThat(in.readCount()).isEqualTo(9);
        for (int n = 0; n < 9; n++) {
            in.readInt();
        }
        assertThat(in.readCount()).as("longs for a backup of 5 TiB").isEqualTo(2);
        assertThat(in.readCount()).isEqualTo(6);
    }
}
