package io.qatwatch.collector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TheilSenTest {

    @Test
    void oneBadNightBarelyMovesTheLine() {
        double[] x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        double[] y = {90, 89, 88, 87, 86, -40, 84, 83, 82, 81}; // night 5: a blocked backup ran into the morning
        TheilSen line = TheilSen.fit(x, y);
        assertThat(line.slope()).isCloseTo(-1.0, within(1e-9));
        assertThat(line.at(0)).isCloseTo(90.0, within(1e-9));
    }

    @Test
    void medianOfEvenCountAveragesTheMiddle() {
        assertThat(TheilSen.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }
}
