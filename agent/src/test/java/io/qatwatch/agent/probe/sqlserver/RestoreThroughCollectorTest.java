package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.analysis.RestoreEstimate;
import io.qatwatch.collector.analysis.RestoreEstimates;
import io.qatwatch.collector.analysis.RestorePlans;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RESTORE from the server to the restore estimate (issue 30), end to end: the agent polls sql2022-restore-test-job
 * through mssql-jdbc once a minute while a restore-test job restores Sales's QAT_DEFLATE full as SalesVerify, the
 * collector stores the reports, matches the observed restore to the full through msdb's restorehistory row, and Sales's
 * restore estimate (the API's and the alert stage's) then goes by this host's measured restore speed.
 */
class RestoreThroughCollectorTest {

    private static final Instant FIRST_POLL = Instant.parse("2026-11-30T01:00:00Z");
    private static final int POLLS = 6;
    /** The full's backup_size (100 GiB) in MB, over the run the polls saw: 170 s at 71 %. */
    private static final double MBPS = 102_400 / (170 * 100 / 71.0);

    @TempDir
    Path dir;

    @Test
    void aRestoreSeenByThePollsSetsTheRestoreSpeedOfTheEstimate() throws Exception {
        ReadClock clock = new ReadClock(FIRST_POLL);
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2022-restore-test-job"));
             Database db = Database.open(dir.resolve("collector"))) {
            SqlReportStore store = new SqlReportStore(db);
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 1000), clock);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < POLLS; i++) {
                times.add(FIRST_POLL.plus(Duration.ofMinutes(i)));
            }
            List<SqlInstanceSnapshot> snapshots = ScenarioReads.readAndStore(probe, clock, times, store, "sqlrst01");
            String instance = snapshots.get(0).name();
            assertThat(server.batches().stream().filter(b -> b.contains("database-guids.sql")))
                    .as("GUIDs asked at the first poll and when SalesVerify came back online, never while it was restoring")
                    .hasSize(2);

            // the agent: the restore is handed on once, by the poll that no longer sees it
            assertThat(snapshots).extracting(s -> s.observedRestores() == null ? 0 : s.observedRestores().size())
                    .containsExactly(0, 0, 0, 0, 1, 0);
            ObservedRestore seen = snapshots.get(4).observedRestores().get(0);
            assertThat(List.of(seen.databaseName(), seen.command(), seen.startedAt(), seen.lastSeenAt()))
                    .containsExactly("SalesVerify", "RESTORE DATABASE", Instant.parse("2026-11-30T01:00:10Z"),
                            Instant.parse("2026-11-30T01:03:00Z"));
            assertThat(seen.elapsedSeconds()).isEqualTo(170);
            assertThat(seen.cpu().requestCpuMs()).isEqualTo(20_000);

            // the collector: matched through restorehistory to the full it restored, on the host that took it
            assertThat(store.observedRestores(Instant.EPOCH)).singleElement().satisfies(r -> {
                assertThat(r.restoredBackup()).as("restorehistory's row names Sales's full of 00:37 local").isNotNull();
                assertThat(r.restoredBackup().host()).isEqualTo("sqlrst01");
                assertThat(r.restoredBackup().backup().backupSetId()).isEqualTo(7001);
                assertThat(r.mbps()).isCloseTo(MBPS, within(0.01));
            });

            RestorePlans.Found found = RestorePlans.read(store, "sqlrst01", instance, "Sales", Instant.EPOCH).orElseThrow();
            RestoreEstimate estimate = RestoreEstimates.read(store, found, Instant.EPOCH, null);
            assertThat(estimate.basis()).as("every part at the measured restore speed").isEqualTo(RestoreEstimate.RESTORE_SPEED);
            assertThat(estimate.parts()).extracting(RestoreEstimate.Part::kind, RestoreEstimate.Part::backups,
                    RestoreEstimate.Part::algorithm, RestoreEstimate.Part::target, RestoreEstimate.Part::basis,
                    RestoreEstimate.Part::samples).containsExactly(
                    tuple("FULL", 1, "QAT_DEFLATE", "LOCAL", RestoreEstimate.RESTORE_SPEED, 1),
                    tuple("LOG", 2, "QAT_DEFLATE", "LOCAL", RestoreEstimate.RESTORE_SPEED, 1));
            assertThat(estimate.dataBytes()).isEqualTo(107_374_182_400L + 2 * 1_073_741_824L);
            assertThat(estimate.minutes()).isCloseTo((102_400 + 2 * 1_024) / MBPS / 60, within(0.05));

            // the alert stage: the same estimate against a host group's goal of 3 minutes
            Path file = dir.resolve("collector.yaml");
            Files.writeString(file, """
                    alerts:
                      hostGroups:
                        - { name: restore-tested, calendar: default, hosts: ["sqlrst01"], rtoMinutes: 3 }
                      rules:
                        restoreTimeOverGoal: { enabled: true }
                    """);
            AlertsConfig config = ConfigLoader.load(file).alerts().validate();
            var fleet = new LiveFleet(config.analysis(), h -> Set.of()).refresh(store, FIRST_POLL.plus(Duration.ofMinutes(POLLS)))
                    .analysis();
            assertThat(config.evaluator().evaluate(fleet).alerts()).filteredOn(a -> a.rule().equals("restore-time-over-goal"))
                    .singleElement().satisfies(a -> {
                        assertThat(a.database()).isEqualTo("Sales");
                        assertThat(a.summary()).isEqualTo("Restore of Sales would take about 4.1 min, over its 3 min goal");
                        assertThat(a.details()).contains("Basis: restore-speed").contains("(measured restore speed)");
                    });
        }
    }
}
