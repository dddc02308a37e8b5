package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.AgFailover;
import io.qatwatch.collector.analysis.AgFailover.RoleChange;
import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What ag-failover knows without having watched the move (issue 31): the failovers the stored replica role changes show,
 * and the old primary's backup jobs that stopped running on their schedule.
 */
class AgFailoverMemoryTest {

    private static final Instant T = Instant.parse("2026-11-30T07:14:58Z");

    private static RoleChange change(String scope, String db, String before, String after, Instant at) {
        return new RoleChange(scope, new DatabaseEvent(at, db, DatabaseEvent.REPLICA_ROLE_CHANGED, before, after, null, "AG_Orders"));
    }

    @Test
    void roleChangesGiveEachFailoverOnceWhicheverReplicaReportedFirst() {
        List<AgFailover> moves = AgFailover.fromRoleChanges(List.of(
                // the new primary reported first, then the old one (both databases moved)
                change("sqlag02/PROD", "Orders", "SECONDARY", "PRIMARY", T),
                change("sqlag02/PROD", "Payments", "SECONDARY", "PRIMARY", T),
                change("sqlag01/PROD", "Orders", "PRIMARY", "SECONDARY", T.plusSeconds(30)),
                change("sqlag01/PROD", "Payments", "PRIMARY", "SECONDARY", T.plusSeconds(30)),
                // and back, the old primary reporting first this time
                change("sqlag02/PROD", "Orders", "PRIMARY", "SECONDARY", T.plusSeconds(7200)),
                change("sqlag01/PROD", "Orders", "SECONDARY", "PRIMARY", T.plusSeconds(7230))));
        assertThat(moves).containsExactly(new AgFailover("AG_Orders", "sqlag01/PROD", "sqlag02/PROD", T),
                new AgFailover("AG_Orders", "sqlag02/PROD", "sqlag01/PROD", T.plusSeconds(7230)));
        assertThat(AgFailover.fromRoleChanges(List.of(change("sqlag02/PROD", "Orders", "SECONDARY", "PRIMARY", T))))
                .as("a new primary whose predecessor the store never saw leave: unknown, no failover").isEmpty();
    }

    @Test
    void aBackupJobThatRanEveryHourOnTheOldPrimaryAndStoppedIsNamed() {
        AgFailover move = new AgFailover("AG_Orders", "sqlag01/PROD", "sqlag02/PROD", T);
        JobActivity jobs = new JobActivity("AVAILABLE", List.of(Jobs.backupJob("j1", "DatabaseBackup - LOG", List.of()),
                Jobs.backupJob("j2", "DatabaseBackup - FULL", List.of())),
                List.of(Jobs.outcome(1, "j1", "DatabaseBackup - LOG", "SUCCEEDED", T.minusSeconds(150 * 60), 20, null),
                        Jobs.outcome(2, "j1", "DatabaseBackup - LOG", "SUCCEEDED", T.minusSeconds(90 * 60), 20, null),
                        Jobs.outcome(3, "j1", "DatabaseBackup - LOG", "SUCCEEDED", T.minusSeconds(30 * 60), 20, null),
                        Jobs.outcome(4, "j2", "DatabaseBackup - FULL", "SUCCEEDED", T.minusSeconds(5 * 3600), 900, null)),
                List.of(), List.of());
        assertThat(AvailabilityGroupRules.stoppedJobs(jobs, move, T.plusSeconds(20 * 60))).as("within its usual hour").isEmpty();
        assertThat(AvailabilityGroupRules.stoppedJobs(jobs, move, T.plus(Duration.ofMinutes(31)))).containsExactly(
                "job DatabaseBackup - LOG on sqlag01/PROD (last run 2026-11-30T06:44:58Z, usually every 60 min)");
    }
}
