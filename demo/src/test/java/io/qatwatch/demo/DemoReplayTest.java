package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qatwatch.agent.probe.sqlserver.JdbcSqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import io.qatwatch.collector.compression.CpuEstimate;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's CPU comes through the agent's own path (issue 30 item 8): the polls it would have made before the demo
 * started are replayed through its probe, over mssql-jdbc and the TDS test server, with each request's cpu_time growing;
 * its first real poll then hands on what it measured.
 */
class DemoReplayTest {

    private static final Instant NOW = Instant.parse("2026-12-01T09:40:00Z");
    private static final double GB = 1L << 30;

    @TempDir
    Path dir;

    /** The first real read of {@code host}'s instance after the replayed polls, at the demo's "now". */
    private SqlInstanceSnapshot firstRead(String host) throws Exception {
        ReplayClock clock = new ReplayClock(Clock.fixed(NOW, ZoneOffset.UTC));
        DemoFleet fleet = DemoFleet.at(clock);
        SimulatedServer server = fleet.members.stream().filter(m -> m.host().name.equals(host)).findFirst().orElseThrow().server();
        try (TdsTestServer tds = TdsTestServer.start(server.scenario())) {
            Path password = Files.writeString(dir.resolve(host + "-password"), "demo\n");
            JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(new SqlInstanceSettings(server.instance, tds.jdbcUrl(),
                    "qatwatch_demo", password, null, false, Duration.ofSeconds(5), Duration.ofSeconds(30), 5000), clock);
            Demo.replay(probe, server, clock, fleet.createdAt, Duration.ofMinutes(1));
            assertThat(tds.batches().stream().filter(b -> b.contains("running-backups.sql")).count())
                    .as("one running-requests query per replayed poll").isEqualTo(server.replayPolls(fleet.createdAt,
                            Duration.ofMinutes(1)).size());
            return probe.probe(EnumSet.allOf(SqlSection.class), null).snapshot();
        }
    }

    /** CPU seconds per GB of each algorithm's copy-only backups, as the verdicts weigh them. */
    private static Map<String, List<Double>> cpuPerGb(SqlInstanceSnapshot s, String database) {
        return s.backups().stream().filter(b -> b.databaseName().equals(database) && b.copyOnly())
                .collect(Collectors.groupingBy(BackupRecord::compressionAlgorithm,
                        Collectors.mapping(b -> CpuEstimate.millis(b) / 1000.0 / (b.backupSizeBytes() / GB), Collectors.toList())));
    }

    @Test
    void theQatHostsTestsCostFortyThreePercentOfMsXpressAndItsRestoreIsHandedOnAtTheFirstRealPoll() throws Exception {
        SqlInstanceSnapshot s = firstRead("demo-sql-qat01");

        Map<String, List<Double>> cpu = cpuPerGb(s, "Archive");
        assertThat(cpu.get("MS_XPRESS")).hasSize(3).allSatisfy(v -> assertThat(v).isCloseTo(8.0, within(0.1)));
        assertThat(cpu.get("QAT_DEFLATE")).hasSize(3).allSatisfy(v -> assertThat(v).isCloseTo(8.0 * 0.43, within(0.1)));
        assertThat(s.backups()).filteredOn(b -> !b.copyOnly()).as("the nightly history ran before the agent: no CPU")
                .allSatisfy(b -> assertThat(b.cpu()).isNull());

        assertThat(s.observedRestores()).singleElement().satisfies(r -> {
            assertThat(r.databaseName()).isEqualTo("SalesDW_Verify");
            assertThat(r.command()).isEqualTo("RESTORE DATABASE");
            assertThat(r.lastSeenAt()).isEqualTo(NOW.minusSeconds(30));
            assertThat(r.elapsedSeconds()).isEqualTo(510);
            assertThat(r.cpu().samples()).isEqualTo(9);
            assertThat(r.cpu().requestCpuMs()).as("900 ms of cpu_time a second for 510 s").isEqualTo(459_000);
        });
        assertThat(s.restores()).as("restorehistory names the backup set it restored").singleElement()
                .satisfies(r -> assertThat(r.sourceDatabase()).isEqualTo("SalesDW"));
    }

    @Test
    void theSoftwareModeHostsTestsCostQatSixtyPercentMoreCpuThanMsXpress() throws Exception {
        Map<String, List<Double>> cpu = cpuPerGb(firstRead("demo-sql-amd01"), "Reports");
        assertThat(cpu.get("MS_XPRESS")).hasSize(3).allSatisfy(v -> assertThat(v).isCloseTo(6.0, within(0.1)));
        assertThat(cpu.get("QAT_DEFLATE")).hasSize(3).allSatisfy(v -> assertThat(v).isCloseTo(9.6, within(0.1)));
    }
}
