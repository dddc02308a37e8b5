package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written by the previous release ({@code src/test/resources/stores/previous-release/}: a small SQLite file
 * of the last released schema, with the fleet and alerts its collector showed) opens in this one: its migrations run,
 * and it shows the same fleet and alerts. When a release changes the schema, regenerate the fixture from the release
 * before on purpose ({@code -Dqatwatch.regenerateStore=true}, run on that release's code) and commit it.
 */
class PreviousReleaseStoreTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);
    private static final Path FIXTURE = Path.of("src/test/resources/stores/previous-release");

    @TempDir
    Path dir;

    @Test
    void aStoreOfThePreviousReleaseMigratesAndShowsTheSameFleetAndAlerts() throws Exception {
        if (Boolean.getBoolean("qatwatch.regenerateStore")) {
            regenerate();
        }
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Files.copy(FIXTURE.resolve("qatwatch.db"), data.resolve("qatwatch.db"));
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            String read = running.token("grafana-now", TokenStore.Kind.READ);
            running.evaluate();
            assertThat(new JsonArray(running.get("/api/v1/fleet", read).bodyAsString()))
                    .isEqualTo(new JsonArray(Files.readString(FIXTURE.resolve("fleet.json"))));
            assertThat(new JsonArray(running.get("/api/v1/alerts", read).bodyAsString()))
                    .isEqualTo(new JsonArray(Files.readString(FIXTURE.resolve("alerts.json"))));
            Database db = running.collector().database();
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM tokens WHERE name = 'sql01'")).isEqualTo(1);
            assertThat(StoreKinds.text(db, "PRAGMA integrity_check")).isEqualTo("ok");
        }
    }

    /** The fixture as this code writes it: one host's golden report, one evaluation, what the API showed. */
    private void regenerate() throws Exception {
        Path data = dir.resolve("generate");
        Files.createDirectories(FIXTURE);
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            String agent = running.token("sql01", TokenStore.Kind.AGENT);
            String read = running.token("grafana", TokenStore.Kind.READ);
            assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode())
                    .isEqualTo(202);
            running.evaluate();
            Files.writeString(FIXTURE.resolve("fleet.json"), running.get("/api/v1/fleet", read).bodyAsString() + "\n");
            Files.writeString(FIXTURE.resolve("alerts.json"), running.get("/api/v1/alerts", read).bodyAsString() + "\n");
        }
        Files.deleteIfExists(FIXTURE.resolve("qatwatch.db"));
        SqliteBackup.copy(data.resolve("qatwatch.db"), FIXTURE.resolve("qatwatch.db"));
    }
}
