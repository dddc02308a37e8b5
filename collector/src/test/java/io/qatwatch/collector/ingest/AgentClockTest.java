package io.qatwatch.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.MovableClock;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents whose clocks are an hour ahead and an hour behind the collector's: both reports are taken (within the day
 * the protocol allows), a host's last report is when the collector received it, so neither looks silent earlier or
 * later than it is, and the backup times are msdb's as the agent sent them, untouched by either clock.
 */
class AgentClockTest {

    private static final Instant NOW = Instant.parse(SchemaSamples.NOW);

    @TempDir
    Path data;

    @Test
    void anAgentAnHourAheadOrBehindIsSeenAtTheCollectorsTimeAndItsBackupTimesAreMsdbs() throws Exception {
        MovableClock clock = new MovableClock(NOW);
        try (RunningCollector running = RunningCollector.start(CollectorConfig.defaults(), data, clock)) {
            String ahead = running.token("sql-ahead", TokenStore.Kind.AGENT);
            String behind = running.token("sql-behind", TokenStore.Kind.AGENT);
            String read = running.token("grafana", TokenStore.Kind.READ);
            assertThat(running.postReport(ahead, skewed(Duration.ofHours(1), "1"), false).statusCode()).isEqualTo(202);
            assertThat(running.postReport(behind, skewed(Duration.ofHours(-1), "2"), false).statusCode()).isEqualTo(202);

            var db = running.collector().database();
            assertThat(StoreKinds.scalar(db, "SELECT MIN(received_at) FROM reports")).isEqualTo(NOW.toEpochMilli());
            assertThat(StoreKinds.scalar(db, "SELECT MAX(received_at) FROM reports")).isEqualTo(NOW.toEpochMilli());
            assertThat(StoreKinds.scalar(db, "SELECT created_at FROM reports WHERE host = 'sql-ahead'"))
                    .as("createdAt is kept as the agent said").isEqualTo(NOW.plus(Duration.ofHours(1)).toEpochMilli());
            Instant msdbStart = Instant.parse(backupStartedAt());
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(DISTINCT started_at) FROM backups WHERE backup_set_id = "
                    + backupSetId())).isEqualTo(1);
            assertThat(StoreKinds.scalar(db, "SELECT MIN(started_at) FROM backups WHERE backup_set_id = " + backupSetId()))
                    .as("msdb's time, the same from both hosts").isEqualTo(msdbStart.toEpochMilli());

            JsonArray fleet = new JsonArray(running.get("/api/v1/fleet", read).bodyAsString());
            for (Object o : fleet) {
                JsonObject host = (JsonObject) o;
                assertThat(host.getString("lastSeen")).as(host.getString("host")).isEqualTo(NOW.toString());
            }
            // just before and just after the silent threshold (15 min): both hosts alike, whatever their clocks say
            clock.advance(Duration.ofMinutes(14));
            assertThat(states(running, read)).hasSize(2).doesNotContain("silent");
            clock.advance(Duration.ofMinutes(2));
            assertThat(states(running, read)).containsExactly("silent", "silent");
        }
    }

    private static java.util.List<String> states(RunningCollector running, String read) throws Exception {
        return new JsonArray(running.get("/api/v1/fleet", read).bodyAsString()).stream()
                .map(o -> ((JsonObject) o).getString("state")).toList();
    }

    /** The golden report as an agent whose clock is off by {@code skew} sends it: its own times moved, msdb's not. */
    private static byte[] skewed(Duration skew, String idDigit) {
        JsonObject r = new JsonObject(new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8));
        r.put("reportId", r.getString("reportId").substring(0, r.getString("reportId").length() - 1) + idDigit);
        r.put("createdAt", NOW.plus(skew).toString());
        JsonObject instance = r.getJsonArray("instances").getJsonObject(0);
        instance.put("collectedAt", NOW.plus(skew).minusSeconds(2).toString());
        return r.encode().getBytes(StandardCharsets.UTF_8);
    }

    private static JsonObject firstBackup() {
        return new JsonObject(new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8))
                .getJsonArray("instances").getJsonObject(0).getJsonArray("backups").getJsonObject(0);
    }

    private static String backupStartedAt() {
        return firstBackup().getString("startedAt");
    }

    private static long backupSetId() {
        return firstBackup().getLong("backupSetId");
    }
}
