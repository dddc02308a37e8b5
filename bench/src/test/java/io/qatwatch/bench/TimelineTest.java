package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static final long MS = 1_000_000L;

    @Test
    void eachStepOfDueTimeGetsItsRequestsAndItsSlowest() {
        Timeline t = new Timeline();
        long origin = 5_000 * MS;
        // recorded in the order they completed, not the order they were due
        t.record(origin + 250 * MS, 900 * MS);
        t.record(origin + 10 * MS, 3 * MS);
        t.record(origin + 90 * MS, 7 * MS);
        t.record(origin + 260 * MS, 2 * MS);
        t.record(origin - 1 * MS, 5_000 * MS); // due before the origin: not in any step

        String csv = t.csv(origin, Instant.parse("2026-12-07T14:05:00Z"), 100 * MS);

        assertThat(csv.lines()).containsExactly(
                "seconds,utc,requests_due,max_latency_ms",
                "0.0,2026-12-07T14:05:00Z,2,7.0",
                "0.1,2026-12-07T14:05:00.100Z,0,0.0",
                "0.2,2026-12-07T14:05:00.200Z,2,900.0");
    }

    @Test
    void anEmptyRunIsOnlyTheHeader() {
        assertThat(new Timeline().csv(0, Instant.EPOCH, 100 * MS)).isEqualTo("seconds,utc,requests_due,max_latency_ms\n");
    }
}
