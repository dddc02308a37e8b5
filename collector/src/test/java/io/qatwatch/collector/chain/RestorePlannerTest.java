package io.qatwatch.collector.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The restore plan's rules on small chains: where links end, what a moved target is, what a gap's cause is. */
class RestorePlannerTest {

    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");
    private static long ids = 1;

    private static ChainBackup backup(char kind, int hour, long first, long last, long checkpoint, long base, String file,
                                      String device, String recovery, boolean begins) {
        return new ChainBackup("sql01/PROD", ids++, kind, false, T0.plusSeconds(hour * 3600L), T0.plusSeconds(hour * 3600L + 60),
                1000, "UNC", device, file, recovery, begins, BigInteger.valueOf(first), BigInteger.valueOf(last),
                BigInteger.valueOf(checkpoint), BigInteger.valueOf(base), kind == ChainBackup.DIFFERENTIAL ? BigInteger.valueOf(base) : null);
    }

    private static ChainBackup full(int hour, long first, long checkpoint, long last) {
        return backup(ChainBackup.FULL, hour, first, last, checkpoint, 1, "\\\\nas\\sql\\FULL\\db.bak", "DISK", "FULL", false);
    }

    private static ChainBackup log(int hour, long first, long last, long base, String folder) {
        return backup(ChainBackup.LOG, hour, first, last, first, base, folder + "\\db_" + hour + ".trn", "DISK", "FULL", false);
    }

    @Test
    void aPlanFromADifferentialCountsOnlyTheLogsAfterItThoughTheLogsAreMerged() {
        LogChain c = new LogChain();
        c.add(full(0, 100, 110, 120));
        c.add(log(1, 90, 200, 110, "\\\\nas\\sql\\LOG"));
        c.add(log(2, 200, 300, 110, "\\\\nas\\sql\\LOG"));
        c.add(backup(ChainBackup.DIFFERENTIAL, 3, 310, 330, 320, 110, "\\\\nas\\sql\\DIFF\\db.bak", "DISK", "FULL", false));
        c.add(log(4, 300, 400, 110, "\\\\nas\\sql\\LOG"));
        c.add(log(5, 400, 500, 110, "\\\\nas\\sql\\LOG"));
        assertThat(c.links()).as("two logs merged before the differential, two after").extracting(ChainLink::logs)
                .containsExactly(2, 2);
        RestorePlan plan = RestorePlanner.plan(List.of(c)).orElseThrow();
        assertThat(plan.differential()).isNotNull();
        assertThat(plan.logCount()).isEqualTo(2);
        assertThat(plan.files()).isEqualTo(4);
        assertThat(plan.whole()).isTrue();
        assertThat(plan.latestLsn()).isEqualTo(BigInteger.valueOf(500));
    }

    @Test
    void logsThatMoveToANewFolderForGoodAreNotAnotherTool() {
        LogChain c = new LogChain(true);
        c.add(full(0, 100, 110, 120));
        c.add(log(1, 90, 200, 110, "\\\\old\\sql\\LOG"));
        c.add(log(2, 200, 300, 110, "\\\\new\\sql\\LOG"));
        c.add(log(3, 300, 400, 110, "\\\\new\\sql\\LOG"));
        RestorePlan plan = RestorePlanner.plan(List.of(c)).orElseThrow();
        assertThat(plan.whole()).isTrue();
        assertThat(plan.logCount()).isEqualTo(3);
    }

    @Test
    void aGapBeforeALogThatBeginsANewChainIsASwitchToSimple() {
        LogChain c = new LogChain();
        c.add(full(0, 100, 110, 120));
        c.add(log(1, 90, 200, 110, "\\\\nas\\sql\\LOG"));
        c.add(backup(ChainBackup.LOG, 5, 600, 700, 600, 110, "\\\\nas\\sql\\LOG\\db_5.trn", "DISK", "FULL", true));
        RestorePlan plan = RestorePlanner.plan(List.of(c)).orElseThrow();
        assertThat(plan.broken().kind()).isEqualTo(RestorePlan.ChainBreak.GAP);
        assertThat(plan.broken().cause()).startsWith("a switch to SIMPLE recovery");
        assertThat(plan.latestLsn()).isEqualTo(BigInteger.valueOf(200));
        assertThat(plan.newestLog().lastLsn()).isEqualTo(BigInteger.valueOf(700));
    }

    /**
     * The store takes backups in the order agents send them, not the order they ran: a replica's agent that was away sends
     * its logs after another replica's newer ones, a report retried after a lost answer lands after the next, and msdb
     * numbers a full when it finishes, after the logs taken while it ran. Whatever the order a whole chain is stored in, its
     * plan is whole and reaches its last log.
     */
    @Test
    void aWholeChainStoredInAnyOrderIsWhole() {
        java.util.Random random = new java.util.Random(31);
        for (int round = 0; round < 500; round++) {
            List<ChainBackup> logs = new java.util.ArrayList<>();
            long lsn = 90;
            // logs every hour; the full of hour 2 ends at LSN 350, within the third log: the first two name the full before it
            for (int hour = 1; hour <= 8; hour++) {
                long base = hour <= 2 ? 50 : 110;
                logs.add(log(hour, lsn, lsn + 100, base, "\\\\nas\\sql\\LOG"));
                lsn += 100;
            }
            ChainBackup full = backup(ChainBackup.FULL, 2, 100, 350, 110, 50, "\\\\nas\\sql\\FULL\\db.bak", "DISK", "FULL",
                    false);
            List<ChainBackup> stored = new java.util.ArrayList<>(logs);
            stored.add(full);
            java.util.Collections.shuffle(stored, random);
            for (boolean everyLog : new boolean[] {false, true}) {
                LogChain c = new LogChain(everyLog);
                stored.forEach(c::add);
                RestorePlan plan = RestorePlanner.plan(List.of(c)).orElseThrow();
                assertThat(plan.whole()).as("stored as %s, every log a link: %s", stored.stream()
                        .map(b -> b.kind() + "" + b.firstLsn()).toList(), everyLog).isTrue();
                assertThat(plan.latestLsn()).isEqualTo(BigInteger.valueOf(lsn));
            }
        }
    }
}
