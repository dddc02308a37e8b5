package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.dispatch.NotificationDecision.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationDecisionTest {

    private static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");
    private static final Duration REPEAT = Duration.ofHours(4);

    private static NotificationDecision decide(Map<String, Severity> firing, LogEntry last, Instant now) {
        return NotificationDecision.decide(firing, last, now, REPEAT);
    }

    @Test
    void everyReasonFromTheTable() {
        Map<String, Severity> one = Map.of("a", Severity.WARNING);
        LogEntry sentOne = new LogEntry(one, T0);
        assertThat(decide(Map.of(), null, T0)).isEqualTo(new NotificationDecision(false, Reason.NOTHING));
        assertThat(decide(one, null, T0)).isEqualTo(new NotificationDecision(true, Reason.FIRST));
        assertThat(decide(one, sentOne, T0.plusSeconds(60))).isEqualTo(new NotificationDecision(false, Reason.UNCHANGED));
        assertThat(decide(Map.of("a", Severity.CRITICAL), sentOne, T0.plusSeconds(60)).reason()).isEqualTo(Reason.CHANGED);
        assertThat(decide(Map.of("a", Severity.WARNING, "b", Severity.WARNING), sentOne, T0.plusSeconds(60)).reason())
                .isEqualTo(Reason.CHANGED);
        assertThat(decide(Map.of(), sentOne, T0.plusSeconds(60)).reason()).isEqualTo(Reason.RESOLVED);
        assertThat(decide(one, sentOne, T0.plus(REPEAT).minusSeconds(1)).send()).isFalse();
        assertThat(decide(one, sentOne, T0.plus(REPEAT))).isEqualTo(new NotificationDecision(true, Reason.REPEAT));
        // After the resolved announcement the log holds nothing firing: a new firing is a first again.
        assertThat(decide(one, new LogEntry(Map.of(), T0), T0.plusSeconds(60)).reason()).isEqualTo(Reason.FIRST);
    }
}
