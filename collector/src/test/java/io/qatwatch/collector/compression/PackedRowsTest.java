package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The packed rows the alert stage keeps of each instance's series: smaller, and exactly the numbers given. */
class PackedRowsTest {

    @Test
    void givesBackEveryLongExactlyWhateverItsSizeOrSign() {
        Random random = new Random(33);
        long[] extremes = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 127, 128, -64, -65};
        for (int mode = 0; mode < 64; mode++) {
            int steady = mode & 7;
            int plain = mode >> 3;
            long[] values = new long[40 * 3];
            for (int n = 0; n < values.length; n++) {
                values[n] = n < extremes.length ? extremes[n] : random.nextLong() >> random.nextInt(64);
            }
            long[] back = new long[values.length];
            PackedRows.unpack(PackedRows.pack(values, 40, 3, steady, plain), 40, 3, steady, plain, back);
            assertThat(back).as("steady fields %s, plain %s", steady, plain).containsExactly(values);
            assertThat(PackedRows.first(PackedRows.pack(values, 40, 3, steady, plain))).isEqualTo(values[0]);
        }
    }

    @Test
    void tellsWhetherBytesHoldExactlyTheirRowsWithoutUnpackingThem() {
        long[] values = {5, -300, 1L << 40, 7, 0, Long.MIN_VALUE};
        byte[] packed = PackedRows.pack(values, 2, 3, 1, 2);
        assertThat(PackedRows.holds(packed, 2, 3)).isTrue();
        assertThat(PackedRows.holds(packed, 1, 3)).as("more numbers than the rows announced").isFalse();
        assertThat(PackedRows.holds(packed, 3, 3)).as("fewer").isFalse();
        assertThat(PackedRows.holds(java.util.Arrays.copyOf(packed, packed.length - 1), 2, 3))
                .as("the last number cut short").isFalse();
        assertThat(PackedRows.holds(PackedRows.pack(values, 0, 3, 1, 2), 0, 3)).as("no rows").isTrue();
    }

    @Test
    void eachNumberTakesTheBytesItsSevenBitGroupsNeedAndNotOneMore() {
        // zigzag: 0, -1, 1, -64 fit in one byte; 64, -65, 127 need two; the extremes ten (64 bits in groups of seven)
        long[] values = {0, -1, 1, -64, 64, -65, 127, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 55, -(1L << 55)};
        int[] bytes = {1, 1, 1, 1, 2, 2, 2, 10, 10, 9, 8};
        for (int n = 0; n < values.length; n++) {
            byte[] packed = PackedRows.pack(new long[] {values[n]}, 1, 1, 0, 1);
            assertThat(packed).as("%s", values[n]).hasSize(bytes[n]);
            assertThat(PackedRows.first(packed)).isEqualTo(values[n]);
        }
        long[] all = values.clone();
        int total = java.util.Arrays.stream(bytes).sum();
        assertThat(PackedRows.pack(all, all.length, 1, 0, 1)).as("the rows together, as they are").hasSize(total);
    }

    @Test
    void nightlyBackupsTakeUnderFifteenBytesEachInsteadOfForty() {
        // a nightly differential: start 22:00 give or take a second, ~20 min, ~30 GB growing, compressed to ~40 %
        Random random = new Random(12);
        long start = 1_790_000_000_000L;
        long[] values = new long[32 * 5];
        for (int r = 0; r < 32; r++) {
            long bytes = 30_000_000_000L + r * 40_000_000L + random.nextInt(20_000_000);
            values[r * 5] = (start + r * 86_400_000L + random.nextInt(1_000)) << 1;
            values[r * 5 + 1] = 1_200_000 + random.nextInt(60_000);
            values[r * 5 + 2] = bytes;
            values[r * 5 + 3] = bytes * 4 / 10 + random.nextInt(1_000_000);
            values[r * 5 + 4] = -1;
        }
        byte[] packed = PackedRows.pack(values, 32, 5, 1, 0);
        assertThat(packed.length).as("bytes for 32 backups of five longs (1,280 as longs)").isLessThan(32 * 15);
        long[] back = new long[values.length];
        PackedRows.unpack(packed, 32, 5, 1, 0, back);
        assertThat(back).containsExactly(values);
    }
}
