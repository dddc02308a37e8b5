package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void percentilesAreNearestRankOverAllValuesInAnyOrder() {
        LatencyRecorder r = new LatencyRecorder();
        for (int v = 1000; v >= 1; v--) {
            r.record(v);
        }
        assertThat(r.count()).isEqualTo(1000);
        assertThat(r.percentile(50)).isEqualTo(500);
        assertThat(r.percentile(99)).isEqualTo(990);
        assertThat(r.percentile(99.9)).isEqualTo(999);
        assertThat(r.percentile(100)).isEqualTo(1000);
        assertThat(r.percentile(0.01)).isEqualTo(1);
        assertThat(r.max()).isEqualTo(1000);
    }

    @Test
    void aFewSlowRequestsMoveP99ButNotTheMedian() {
        LatencyRecorder r = new LatencyRecorder();
        for (int i = 0; i < 98; i++) {
            r.record(2_000_000);
        }
        r.record(900_000_000);
        r.record(950_000_000);
        assertThat(r.percentile(50)).isEqualTo(2_000_000);
        assertThat(r.percentile(99)).isEqualTo(900_000_000);
        assertThat(r.max()).isEqualTo(950_000_000);
    }

    @Test
    void recordingAfterAPercentileStillCountsTheNewValue() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(5);
        r.record(1);
        assertThat(r.percentile(100)).isEqualTo(5);
        r.record(9);
        assertThat(r.percentile(100)).isEqualTo(9);
        assertThat(r.percentile(50)).isEqualTo(5);
    }

    @Test
    void emptyIsZeroAndNonsenseIsRefused() {
        LatencyRecorder r = new LatencyRecorder();
        assertThat(r.percentile(99)).isZero();
        assertThatThrownBy(() -> r.percentile(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.record(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
