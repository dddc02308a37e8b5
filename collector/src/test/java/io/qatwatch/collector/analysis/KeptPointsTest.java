package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A finished night's points as the creep drivers read them back: exactly the numbers set, in the narrow form and after a
 * number that does not fit it (a backup of 4 TiB or more) widened the night's points, those set before it included.
 */
class KeptPointsTest {

    private static final long FIVE_TIB = 5L << 40;

    @Test
    void readsBackWhatWasSetNarrowOrWidened() {
        KeptHistory.Points narrow = new KeptHistory.Points(2);
        narrow.set(0, 0, 3_600, 123_456_789_012L);
        narrow.set(1, 7, Integer.MAX_VALUE, 1_023);
        assertThat(read(narrow)).containsExactly(0L, 3_600L, 123_456_789_012L, 7L, (long) Integer.MAX_VALUE, 1_023L);

        KeptHistory.Points widened = new KeptHistory.Points(3);
        widened.set(0, 2, 59, 987_654_321L);
        widened.set(1, 3, 86_400, FIVE_TIB + 17);
        widened.set(2, 4, 1, 0);
        assertThat(read(widened)).containsExactly(2L, 59L, 987_654_321L, 3L, 86_400L, FIVE_TIB + 17, 4L, 1L, 0L);
    }

    private static long[] read(KeptHistory.Points points) {
        long[] out = new long[3 * points.size()];
        for (int p = 0; p < points.size(); p++) {
            out[3 * p] = points.series(p);
            out[3 * p + 1] = points.seconds(p);
            out[3 * p + 2] = points.sizeBytes(p);
        }
        return out;
    }
}
