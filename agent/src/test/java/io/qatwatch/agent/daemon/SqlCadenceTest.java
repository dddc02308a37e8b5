package io.qatwatch.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlCadenceTest {

    private static final Instant T0 = Instant.parse("2026-11-30T07:00:00Z");
    /** Read every minute: new backups and running ones, and the job runs, CommandLog rows and restores of issue 15. */
    private static final Set<SqlSection> BACKUPS = EnumSet.of(SqlSection.BACKUP_HISTORY, SqlSection.RUNNING_BACKUPS,
            SqlSection.JOB_HISTORY, SqlSection.COMMAND_LOG, SqlSection.RESTORES);

    private final SqlCadence cadence = new SqlCadence(new AgentConfig.Schedule(Duration.ofHours(1), Duration.ofHours(1),
            Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofSeconds(5)));

    @Test
    void everythingAtStartThenEachGroupOnItsOwnPeriod() {
        Set<SqlSection> first = cadence.due(T0);
        assertThat(first).containsExactlyInAnyOrder(SqlSection.values());
        cadence.ran(first, T0, false);

        assertThat(cadence.due(T0.plusSeconds(30))).isEmpty();
        assertThat(cadence.untilNext(T0.plusSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(cadence.due(T0.plusSeconds(60))).containsExactlyInAnyOrderElementsOf(BACKUPS);
        cadence.ran(BACKUPS, T0.plusSeconds(60), false);
        assertThat(cadence.due(T0.plusSeconds(300))).contains(SqlSection.CONFIGURATION, SqlSection.ACCELERATORS,
                SqlSection.BACKUP_HISTORY, SqlSection.JOB_HISTORY).doesNotContain(SqlSection.SERVER, SqlSection.JOBS);
    }

    @Test
    void aFullPageOfHistoryBringsTheNextReadForwardUntilCaughtUp() {
        cadence.ran(cadence.due(T0), T0, true);
        assertThat(cadence.untilNext(T0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(cadence.due(T0.plusSeconds(5))).contains(SqlSection.BACKUP_HISTORY);
        cadence.ran(BACKUPS, T0.plusSeconds(5), false);
        assertThat(cadence.untilNext(T0.plusSeconds(5))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void whileTheOutboxIsBehindTheNextPageWaitsForADeliveryNotATimer() {
        cadence.ran(cadence.due(T0), T0, true);
        cadence.outboxBehind(true);
        assertThat(cadence.due(T0.plusSeconds(30))).doesNotContain(SqlSection.BACKUP_HISTORY);
        // the other groups keep their periods: configuration is next, in 5 minutes
        assertThat(cadence.untilNext(T0.plusSeconds(30))).isEqualTo(Duration.ofSeconds(270));
        cadence.outboxBehind(false);
        assertThat(cadence.due(T0.plusSeconds(30))).contains(SqlSection.BACKUP_HISTORY);
        assertThat(cadence.untilNext(T0.plusSeconds(30))).isEqualTo(Duration.ZERO);
    }

    @Test
    void aBehindOutboxDoesNotHoldRegularReads() {
        cadence.ran(cadence.due(T0), T0, false);
        cadence.outboxBehind(true);
        assertThat(cadence.due(T0.plusSeconds(60))).contains(SqlSection.BACKUP_HISTORY);
    }
}
