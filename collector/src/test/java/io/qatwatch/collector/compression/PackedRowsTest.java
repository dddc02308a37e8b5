package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The packed rows the alert stage keeps of each instance's series: smaller, and exactly the numbers given. */
class PackedRowsTest {

    @Test
    void givesBackEveryLongExactlyWhateverItsSizeOrSign() {
        Random random = new Random(33);
        long[] extremes = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 127, 128, -64, -65};
        for (int rows : new int[] {1, 2, 3, 40}) {
            for (int mode = 0; mode < 64; mode++) {
                int steady = mode & 7;
                int plain = mode >> 3;
                long[] values = new long[rows * 3];
                for (int n = 0; n < values.length; n++) {
                    values[n] = n < extremes.length ? extremes[n] : random.nextLong() >> random.nextInt(64);
                }
                assertGivesBack(values, rows, 3, steady, plain);
            }
        }
    }

    @Test
    void givesBackNumbersThatFallRiseOrStayAndMultiplesOfAnything() {
        Random random = new Random(17);
        long[][] columns = {
            {5, 5, 5, 5, 5, 5},                                  // never changes: no bits
            {9_000, 8_000, 7_000, 6_000, 5_000, 4_000},          // falls by the same step
            {3_000, -4_000, 11_000, 0, 1_000_000, -7_000},       // multiples of 1,000 either side of zero
            {1L << 40, (1L << 40) - 3, (1L << 41) + 5, 17, -1, Long.MAX_VALUE},
            {Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, 0, Long.MAX_VALUE, Long.MIN_VALUE + 1},
            {0, 86_400_000, 172_800_000, 345_600_000, 432_000_000, 518_400_000},
        };
        for (int mode = 0; mode < 4; mode++) {
            for (long[] a : columns) {
                for (long[] b : columns) {
                    long[] values = new long[a.length * 2];
                    for (int r = 0; r < a.length; r++) {
                        values[2 * r] = a[r];
                        values[2 * r + 1] = random.nextBoolean() ? b[r] : -b[r];
                    }
                    assertGivesBack(values, a.length, 2, mode & 3, 3 - (mode & 3));
                    assertGivesBack(values, a.length, 2, mode & 3, 0);
                }
            }
        }
    }

    private static void assertGivesBack(long[] values, int rows, int width, int steady, int plain) {
        byte[] packed = PackedRows.pack(values, rows, width, steady, plain);
        long[] back = new long[values.length];
        PackedRows.unpack(packed, width, steady, plain, back);
        assertThat(back).as("%s: steady fields %s, plain %s", Arrays.toString(values), steady, plain).containsExactly(values);
        assertThat(PackedRows.rows(packed)).isEqualTo(rows);
        assertThat(PackedRows.first(packed)).isEqualTo(values[0]);
        assertThat(PackedRows.holds(packed, width)).isTrue();
    }

    @Test
    void noRowsAreNoBytes() {
        byte[] packed = PackedRows.pack(new long[0], 0, 3, 1, 2);
        assertThat(packed).isEmpty();
        assertThat(PackedRows.rows(packed)).isZero();
        assertThat(PackedRows.holds(packed, 3)).isTrue();
        PackedRows.unpack(packed, 3, 1, 2, new long[0]);
    }

    @Test
    void tellsWhetherBytesHoldWholeRowsWithoutUnpackingThem() {
        long[] values = {5, -300, 1L << 40, 7, 0, Long.MIN_VALUE, 9, 3, 3};
        byte[] packed = PackedRows.pack(values, 3, 3, 1, 2);
        assertThat(PackedRows.holds(packed, 3)).isTrue();
        assertThat(PackedRows.holds(packed, 2)).as("fewer fields than written: bytes left over").isFalse();
        assertThat(PackedRows.holds(packed, 4)).as("more fields than written").isFalse();
        assertThat(PackedRows.holds(Arrays.copyOf(packed, packed.length - 1), 3)).as("the last number cut short").isFalse();
        assertThat(PackedRows.holds(Arrays.copyOf(packed, packed.length + 1), 3)).as("a byte after").isFalse();
        byte[] more = packed.clone();
        more[0]++;
        assertThat(PackedRows.holds(more, 3)).as("more rows announced than written").isFalse();
        assertThat(PackedRows.holds(new byte[] {0}, 3)).as("no rows in a byte").isFalse();
        assertThat(PackedRows.holds(new byte[] {(byte) 0x81}, 3)).as("a count that never ends").isFalse();
    }

    @Test
    void aSummaryHandsBackWholeRowsOrADamagedBodyNamingWhatItHeld() {
        byte[] packed = PackedRows.pack(new long[] {1, 2, 3, 4, 5, 6}, 3, 2, 0, 0);
        SummaryOutput out = new SummaryOutput(Instant.EPOCH);
        out.writeBytes(packed);
        out.writeBytes(packed);
        out.writeBytes(Arrays.copyOf(packed, packed.length - 1));
        SummaryInput in = new SummaryInput(out.toByteArray(), s -> s);
        assertThat(PackedRows.read(in, 2, 3, "tests' rows")).containsExactly(packed);
        assertThatThrownBy(() -> PackedRows.read(in, 2, 2, "tests' rows")).as("more rows than may be")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tests' rows");
        assertThatThrownBy(() -> PackedRows.read(in, 2, 3, "tests' rows")).as("cut short")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tests' rows");
    }

    @Test
    void aFieldThatNeverChangesTakesNoBitsAndMultiplesAreDivided() {
        long[] values = new long[32 * 2];
        long start = 1_790_000_000_000L;
        for (int r = 0; r < 32; r++) {
            // a backup every night, every third night skipped
            start += 86_400_000L * (r % 3 == 0 ? 2 : 1);
            values[2 * r] = -1;
            values[2 * r + 1] = start;
        }
        byte[] packed = PackedRows.pack(values, 32, 2, 2, 0);
        // rows; -1's header, first number and least change (0, in no bits); the start's header, first number (six
        // bytes), the divisor of its changes in change (a day: four bytes), their least and 31 of them in two bits each
        assertThat(packed).as("32 rows of two longs (512 bytes as longs)").hasSize(1 + (1 + 1 + 1) + (1 + 6 + 4 + 1 + 8));
    }

    @Test
    void nightlyBackupsTakeUnderTwelveBytesEachInsteadOfForty() {
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
        assertThat(packed.length).as("bytes for 32 backups of five longs (1,280 as longs)").isLessThan(32 * 12);
        long[] back = new long[values.length];
        PackedRows.unpack(packed, 5, 1, 0, back);
        assertThat(back).containsExactly(values);
    }
}
