package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SchemaSamples;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qatwatch collector store backup --to FILE}: a copy of a running store taken while reports keep arriving is
 * consistent and checked, and a collector started on the copy shows the same fleet and the same alerts.
 */
class StoreBackupCommandTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void aBackupOfARunningStoreRestoresToTheSameFleetAndAlerts() throws Exception {
        Path data = dir.resolve("data");
        Path copy = dir.resolve("backups/qatwatch-copy.db");
        String fleet;
        String alerts;
        try (RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, CLOCK)) {
            String agent = running.token("sql01", TokenStore.Kind.AGENT);
            String read = running.token("grafana", TokenStore.Kind.READ);
            assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode())
                    .isEqualTo(202);
            running.evaluate();
            // reports keep arriving while the copy is taken: the copy is one moment, whichever
            AtomicBoolean copying = new AtomicBoolean(true);
            AtomicInteger during = new AtomicInteger();
            CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
                for (int n = 1; copying.get() && n < 10_000; n++) {
                    try {
                        // the same facts under a new id: the reports table grows, the fleet and its alerts stay
                        running.postReport(agent, ReportJson.toBytes(TestReports.tagged(GoldenReports.complete(),
                                String.format("report-%04d-0000-4000-8000-000000000001", n), GoldenReports.complete().agent().tags())), false);
                        during.incrementAndGet();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            while (during.get() < 3) {
                Thread.onSpinWait();
            }
            CliRun backup = CliRun.of("collector", "store", "backup", "--data", data.toString(), "--to", copy.toString());
            copying.set(false);
            stream.get(60, TimeUnit.SECONDS);
            assertThat(backup.exit()).as(backup.err()).isZero();
            assertThat(backup.out()).contains("Backed up to " + copy).contains("quick_check ok").containsPattern("hosts\\s+1 rows");

            CliRun again = CliRun.of("collector", "store", "backup", "--data", data.toString(), "--to", copy.toString());
            assertThat(again.exit()).isEqualTo(1);
            assertThat(again.err()).contains("exists already");

            // what the copy should show: the store as the test saw it last, less what came after the copy
            fleet = running.get("/api/v1/fleet", read).bodyAsString();
            alerts = running.get("/api/v1/alerts", read).bodyAsString();
        }
        assertThat(new JsonArray(alerts)).as("the golden report raises alerts").isNotEmpty();

        Path restored = dir.resolve("restored");
        Files.createDirectories(restored);
        Files.copy(copy, restored.resolve("qatwatch.db"));
        try (RunningCollector back = RunningCollector.withAlertStage(CollectorConfig.defaults(), restored, CLOCK)) {
            String read = back.token("grafana-2", TokenStore.Kind.READ);
            back.evaluate();
            assertThat(back.get("/api/v1/alerts", read).bodyAsString()).isEqualTo(alerts);
            assertThat(back.get("/api/v1/fleet", read).bodyAsString()).isEqualTo(fleet);
            Database db = back.collector().database();
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM reports")).isPositive();
            assertThat(StoreKinds.text(db, "PRAGMA integrity_check")).isEqualTo("ok");
        }
    }

    @Test
    void aPostgresqlStoreIsPointedToPgDump() throws Exception {
        Path config = Files.writeString(dir.resolve("collector.yaml"), """
                store:
                  kind: postgresql
                  url: jdbc:postgresql://127.0.0.1:5432/qatwatch
                  user: qatwatch
                """);
        CliRun run = CliRun.of("collector", "store", "backup", "--config", config.toString(), "--to",
                dir.resolve("x.db").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("pg_dump");
    }
}
