package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesWithJitterBetweenHalfAndAllOfTheCeilingUpToTheMaximum() {
        Backoff low = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.0);
        Backoff high = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.999_999);
        long[] lows = new long[7];
        long[] highs = new long[7];
        for (int i = 0; i < 7; i++) {
            lows[i] = low.next().toMillis();
            highs[i] = high.next().toMillis();
        }
        assertThat(lows).containsExactly(500, 1000, 2000, 4000, 8000, 15000, 15000);
        assertThat(highs).containsExactly(999, 1999, 3999, 7999, 15999, 29999, 29999);
    }

    @Test
    void resetStartsOverAndLongestIsTheMaximum() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMinutes(5), () -> 0.0);
        b.next();
        b.next();
        b.reset();
        assertThat(b.next()).isEqualTo(Duration.ofMillis(50));
        assertThat(b.longest()).isEqualTo(Duration.ofMinutes(5));
    }
}
