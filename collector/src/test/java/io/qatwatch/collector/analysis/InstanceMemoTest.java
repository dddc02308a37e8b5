package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When a rule's kept result is given again, and when it is worked out anew. */
class InstanceMemoTest {

    private static final Instant T0 = Instant.parse("2026-11-02T06:00:00Z");
    private final InstanceMemo memo = new InstanceMemo();
    private final AtomicInteger computed = new AtomicInteger();
    private final Object config = new Object();

    private String get(InstanceState state, Object cfg, Object context, Instant now) {
        return memo.get("rule", state, cfg, context, now, () -> new InstanceMemo.Result<>(
                "result " + computed.incrementAndGet(), T0.plusSeconds(3600)));
    }

    private static InstanceState state() {
        return new InstanceState("MSSQLSERVER", T0, null, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of());
    }

    @Test
    void theKeptResultHoldsForTheSameStateConfigurationAndContextUntilItsDueTime() {
        InstanceState state = state();
        assertThat(get(state, config, "host", T0)).isEqualTo("result 1");
        assertThat(get(state, config, new String("host"), T0.plusSeconds(3599))).as("an equal context").isEqualTo("result 1");
        assertThat(get(state, config, "host", T0.plusSeconds(3600))).as("due").isEqualTo("result 2");
    }

    @Test
    void anotherStateConfigurationContextOrAnEarlierInstantWorksItOutAgain() {
        InstanceState state = state();
        get(state, config, "host", T0.plusSeconds(60));
        assertThat(get(state(), config, "host", T0.plusSeconds(60))).as("an equal state, another object").isEqualTo("result 2");
        assertThat(get(state, new Object(), "host", T0.plusSeconds(60))).as("another configuration").isEqualTo("result 3");
        assertThat(get(state, config, "other-host", T0.plusSeconds(60))).as("another context").isEqualTo("result 4");
        assertThat(get(state, config, "other-host", T0)).as("before it was worked out").isEqualTo("result 5");
        assertThat(computed).hasValue(5);
    }
}
