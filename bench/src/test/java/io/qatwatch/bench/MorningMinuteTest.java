package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MorningMinuteTest {

    @Test
    void itMeasuresEachRoundsMorningByPartAndRule() throws Exception {
        MorningMinute bench = new MorningMinute(new MorningMinute.Settings(10, 30, 2, 1, true, false));

        MorningMinute.Result result = bench.run(line -> { });

        assertThat(result.parts()).containsKeys("morning (refresh + rules)", "refresh (LiveFleet)", "rules (all)",
                "rule backup-window-creep", "rule log-chain-broken");
        List<long[]> refresh = result.parts().get("refresh (LiveFleet)");
        assertThat(refresh).hasSize(2);
        assertThat(refresh.get(0)[1]).as("bytes allocated by the refresh").isPositive();
        assertThat(bench.markdown(result)).contains("| refresh (LiveFleet) |").contains("rule backup-window-creep")
                .contains("JFR, inclusive");
    }

    @Test
    void itMeasuresTheQuietMinuteAfterTheMorningWhenAsked() throws Exception {
        MorningMinute bench = new MorningMinute(new MorningMinute.Settings(10, 30, 1, 1, false, true));

        MorningMinute.Result result = bench.run(line -> { });

        assertThat(result.parts()).containsKeys("quiet (refresh + rules)", "refresh (LiveFleet)", "rules (all)")
                .doesNotContainKey("morning (refresh + rules)");
        assertThat(bench.markdown(result)).contains("quiet minute");
        assertThat(result.parts().get("refresh (LiveFleet)").get(0)[1]).as("bytes allocated by the quiet refresh").isPositive();
    }
}
