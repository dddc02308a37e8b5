package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(2), Duration.ofSeconds(300));

    @Test
    void doublesWithJitterInTheUpperHalfAndStopsAtTheCap() {
        assertThat(policy.delay(1, null, 0.0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delay(1, null, 0.999)).isBetween(Duration.ofMillis(1990), Duration.ofSeconds(2));
        assertThat(policy.delay(3, null, 0.5)).isEqualTo(Duration.ofSeconds(6));
        assertThat(policy.delay(20, null, 0.999)).isBetween(Duration.ofSeconds(299), Duration.ofSeconds(300));
    }

    @Test
    void retryAfterWinsWhenItAsksForLonger() {
        assertThat(policy.delay(1, Duration.ofSeconds(30), 0.5)).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.delay(8, Duration.ofSeconds(3), 0.5)).isEqualTo(Duration.ofMillis(192_000));
    }
}
