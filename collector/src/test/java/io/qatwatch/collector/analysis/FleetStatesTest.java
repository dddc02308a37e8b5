package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.AlertViews;
import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.protocol.GoldenReports;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From a stored report to alerts: the real SQLite report store feeds the rules. */
class FleetStatesTest {

    @Test
    void theGoldenReportStoredAndReadBackRaisesTheMissingLogBackupOnly(@TempDir Path dir) throws Exception {
        Instant now = Instant.parse("2026-11-30T06:20:00Z");
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql01", GoldenReports.complete(), Instant.parse("2026-11-30T06:15:01Z"));

            FleetState fleet = FleetStates.load(store, now, 60, host -> Set.of("emea"));

            FleetState.HostState host = fleet.hosts().get(0);
            assertThat(host.host()).isEqualTo("sql01");
            assertThat(host.tags()).containsExactly("emea");
            assertThat(host.licence().qatSoftwareInstalled()).isTrue();
            FleetState.InstanceState instance = host.instances().get(0);
            assertThat(instance.backups()).singleElement().satisfies(b -> assertThat(b.databaseName()).isEqualTo("Sales"));
            assertThat(instance.accelerators()).singleElement().satisfies(a -> assertThat(a.modeDesc()).isEqualTo("HARDWARE"));

            // Sales is in FULL recovery and the report carries a full but no log backup.
            AlertsConfig config = AlertsConfig.DEFAULTS.validate();
            assertThat(fired(config.evaluator().evaluate(fleet, now).alerts()))
                    .containsExactly("backup-missing sql01 / MSSQLSERVER / Sales [log]");
        }
    }

    @Test
    void theWebSeamsShowTheServicesAlertsAndWindows(@TempDir Path dir) throws Exception {
        Instant now = Instant.parse("2026-11-30T06:20:00Z");
        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql01", GoldenReports.complete(), Instant.parse("2026-11-30T06:15:01Z"));
            AlertService service = AlertStage.createService(vertx, db, AlertsConfig.DEFAULTS, Map.of())
                    .toCompletionStage().toCompletableFuture().get();
            service.evaluate(FleetStates.load(store, now, 60, h -> Set.of()), now).toCompletionStage().toCompletableFuture().get();

            List<AlertsView.ActiveAlert> active = AlertViews.alerts(service, java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).active();
            assertThat(active).singleElement().satisfies(a -> {
                assertThat(a.rule()).isEqualTo("backup-missing");
                assertThat(a.severity()).isEqualTo("critical");
                assertThat(a.since()).isEqualTo(now);
            });
            @SuppressWarnings("unchecked")
            Map<String, Object> windows = (Map<String, Object>) AlertViews.windows(service).windows("sql01", "MSSQLSERVER", now);
            assertThat(windows).containsEntry("calendar", "default");
            assertThat((List<?>) windows.get("windows")).hasSize(1);
            assertThat(AlertViews.windows(service).windows("sql01", "NOPE", now)).isNull();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }
}
