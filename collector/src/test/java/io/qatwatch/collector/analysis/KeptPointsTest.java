package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.compression.PackedRows;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A finished night's points as the creep drivers read them back: exactly the numbers given, packed, and through a
 * persisted summary, which holds the packed bytes as they are (format 6), whatever the numbers (a backup of 4 TiB or
 * more, a series number of 2^21, none at all).
 */
class KeptPointsTest {

    private static final long FIVE_TIB = 5L << 40;
    /** How {@code KeptHistory.Points} packs its rows: the seconds and bytes as they are. */
    private static final int PLAIN = 0b110;

    @Test
    void readsBackWhatItWasGivenPackedAndThroughASummary() {
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
            KeptHistory.Points read = KeptHistory.Points.read(in);
            in.end();
            assertThat(read.size()).isEqualTo(rows.length / 3);
            assertThat(read.rows()).containsExactly(rows);
        }
    }

    @Test
    void aSummaryHoldsThePackedBytesAsTheyAreHeld() {
        long[] rows = {0, 3_600, 123_456_789_012L, 1, 1_800, 2_048, 2, 60, FIVE_TIB};
        SummaryOutput out = new SummaryOutput(Instant.EPOCH);
        new KeptHistory.Points(rows).write(out);
        SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
        assertThat(in.readCount()).as("the packed form").isEqualTo(1);
        assertThat(in.readBytes()).containsExactly(PackedRows.pack(rows, 3, 3, 0, PLAIN));
        in.end();
    }

    @Test
    void packedBytesThatDoNotHoldTheirBackupsAreADamagedBody() {
        byte[] packed = PackedRows.pack(new long[] {0, 3_600, 1L << 40, 1, 1_800, 2_048}, 2, 3, 0, PLAIN);
        byte[] moreAnnounced = packed.clone();
        moreAnnounced[0]++;
        for (byte[] damaged : new byte[][] {moreAnnounced, Arrays.copyOf(packed, packed.length - 1)}) {
            SummaryOutput out = new SummaryOutput(Instant.EPOCH);
            out.writeCount(1);
            out.writeBytes(damaged);
            SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
            assertThatThrownBy(() -> KeptHistory.Points.read(in)).as("%s", Arrays.toString(damaged))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("points");
        }
        SummaryOutput out = new SummaryOutput(Instant.EPOCH);
        out.writeCount(2);
        SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
        assertThatThrownBy(() -> KeptHistory.Points.read(in)).as("a form of another format")
                .isInstanceOf(IllegalArgumentException.class);
    }
}
