package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.AgFailover;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.testing.Restores;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When ag-failover names a backup kind as stopped (issue 31): once it is overdue by the database's own schedule on the old
 * primary (its usual gap and a quarter, at most an hour more), not after a fixed delay; with no schedule known (one backup
 * of the kind), a fixed delay after the move. Judged at instants the test chooses.
 */
class AgFailoverStoppedBackupsTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();
    /** The move: SQLAG02 became primary at 06:20 UTC. */
    private static final Instant MOVE = Instant.parse("2026-11-30T06:20:00Z");
    private static final Instant MIDNIGHT = Instant.parse("2026-11-30T00:00:00Z");

    /**
     * SQLAG01's backups until the move: Orders' nightly full at 01:00 for a week and its log every 15 minutes (at :05, :20,
     * :35, :50) since midnight, the last at 06:05; Payments' one full, on the 29th at 01:30.
     */
    private static List<BackupRecord> oldPrimary() {
        List<BackupRecord> out = new ArrayList<>();
        long id = 1;
        long checkpoint = 0;
        long lsn = 1_000_000;
        for (int day = 6; day >= 0; day--) {
            Instant at = MIDNIGHT.minus(Duration.ofDays(day)).plus(Duration.ofHours(1));
            if (day == 0) {
                // today's logs before the full
                for (Instant log = MIDNIGHT.plusSeconds(300); log.isBefore(at); log = log.plusSeconds(900)) {
                    out.add(log(id++, log, lsn, lsn + 100, checkpoint));
                    lsn += 100;
                }
            }
            checkpoint = lsn + 50;
            out.add(Restores.backup(id++, "Orders", "D", at, 600, 10L << 30, 4L << 30, "MS_XPRESS", "UNC", Long.toString(lsn),
                    Long.toString(lsn + 100), Long.toString(checkpoint), null, null));
            lsn += 100;
        }
        for (Instant log = MIDNIGHT.plus(Duration.ofMinutes(65)); log.isBefore(MOVE); log = log.plusSeconds(900)) {
            out.add(log(id++, log, lsn, lsn + 100, checkpoint));
            lsn += 100;
        }
        out.add(Restores.backup(id, "Payments", "D", MIDNIGHT.minus(Duration.ofMinutes(1350)), 600, 1L << 30, 1L << 28,
                "MS_XPRESS", "UNC", "5000", "5100", "5050", null, null));
        out.sort(java.util.Comparator.comparing(BackupRecord::startedAt));
        return out;
    }

    private static BackupRecord log(long id, Instant at, long first, long last, long full) {
        return Restores.backup(id, "Orders", "L", at, 5, 50L << 20, 20L << 20, "MS_XPRESS", "UNC", Long.toString(first),
                Long.toString(last), Long.toString(first), Long.toString(full), null);
    }

    /** What ag-failover says had stopped, judged at {@code now}; empty when nothing has. */
    private static String stopped(Instant now) {
        FleetState fleet = new FleetState(List.of(
                Histories.host("sqlag01", now, Histories.instance("PROD", now, List.of(
                        Histories.agDb("Orders", "AG_Orders", "SECONDARY"), Histories.agDb("Payments", "AG_Orders", "SECONDARY")),
                        oldPrimary(), List.of())),
                Histories.host("sqlag02", now, Histories.instance("PROD", now, List.of(
                        Histories.agDb("Orders", "AG_Orders", "PRIMARY"), Histories.agDb("Payments", "AG_Orders", "PRIMARY")),
                        List.of(), List.of()))),
                List.of(new AgFailover("AG_Orders", "sqlag01/PROD", "sqlag02/PROD", MOVE)));
        Alert alert = CONFIG.evaluator().evaluate(fleet, now).alerts().stream().filter(a -> a.rule().equals("ag-failover"))
                .findFirst().orElseThrow();
        return alert.facts().stream().filter(f -> f.label().equals("Stopped since the failover")).map(Alert.Fact::value)
                .findFirst().orElse("");
    }

    @Test
    void logsEveryFifteenMinutesAreStoppedOnceTheyAreOverdueByTheirOwnSchedule() {
        // the last log started at 06:05; every 15 min, a quarter late: overdue after 18 min 45 s
        assertThat(stopped(Instant.parse("2026-11-30T06:23:40Z"))).isEmpty();
        assertThat(stopped(Instant.parse("2026-11-30T06:24:00Z"))).isEqualTo("log backups of Orders (last on sqlag01/PROD at "
                + "2026-11-30T06:05:05Z, usually every 15 min, none on any replica since)");
    }

    @Test
    void nightlyFullsAreStoppedAnHourAfterTheirUsualTime() {
        // the last full started at 01:00; daily, at most an hour late: overdue after 25 h, within the alert's day
        assertThat(stopped(Instant.parse("2026-12-01T01:59:00Z"))).doesNotContain("full backups of Orders");
        assertThat(stopped(Instant.parse("2026-12-01T02:01:00Z"))).contains("full backups of Orders (last on sqlag01/PROD at "
                + "2026-11-30T01:10:00Z, usually every 24 h 00 min, none on any replica since)");
    }

    @Test
    void aKindWithoutAScheduleCountsAsStoppedTwelveHoursAfterTheMove() {
        // Payments' one full tells no gap: the fixed delay
        assertThat(stopped(MOVE.plus(Duration.ofHours(12)).minusSeconds(60))).doesNotContain("Payments");
        assertThat(stopped(MOVE.plus(Duration.ofHours(12)))).contains("full backups of Payments (last on sqlag01/PROD at "
                + "2026-11-29T01:40:00Z, none on any replica since)");
    }

    @Test
    void theOverdueWaitHasAFloorAndACap() {
        assertThat(AvailabilityGroupRules.overdue('L', Duration.ofMinutes(1))).isEqualTo(Duration.ofMinutes(15));
        assertThat(AvailabilityGroupRules.overdue('D', Duration.ofMinutes(30))).isEqualTo(Duration.ofHours(1));
        assertThat(AvailabilityGroupRules.overdue('D', Duration.ofDays(7))).isEqualTo(Duration.ofDays(7).plusHours(1));
    }
}
