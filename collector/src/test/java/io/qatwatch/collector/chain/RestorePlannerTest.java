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
}
