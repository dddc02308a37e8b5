package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.dispatch.PipelineConfig;
import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.notify.all.Notifiers;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore.HostSeen;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.collector.web.HostState;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The active alerts' heads, which {@code /metrics} and the fleet's states count, are the active alerts' views cut down:
 * the same alerts (resolved ones left out), the same hosts, rules and severities, and so the same host states.
 */
@ExtendWith(VertxExtension.class)
class AlertHeadsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T02:00:00Z");

    private static Alert alert(String rule, Severity severity, String host, String database) {
        return new Alert(rule, severity, host, "MSSQLSERVER", database, null, rule + " on " + host, "why", List.of(), List.of());
    }

    @Test
    void headsAreTheActiveAlertsWithoutTheirViews(Vertx vertx, @TempDir Path dir) throws Exception {
        AtomicReference<List<Alert>> firing = new AtomicReference<>();
        AlertsConfig config = new AlertsConfig(null, null, null, null, null,
                new PipelineConfig(List.of("rule", "host"), 240, 1, 4, "https://qatwatch.example.test/", 3, 3, 360),
                List.of()).validate();
        try (Database db = Database.open(dir)) {
            AlertService service = new AlertService(vertx, db, new AlertEvaluator(config.analysis(), config.rules(),
                    Map.of("scripted", (fleet, rules) -> firing.get())), config.pipeline(),
                    Notifiers.create(vertx, config.channels(), new Secrets(Map.of())), new Random(3), new CollectorMetrics());
            service.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Alert resolvesLater = alert("backup-missing", Severity.CRITICAL, "sql03", "Sales");
            firing.set(List.of(alert("backup-missing", Severity.CRITICAL, "sql01", "Sales"),
                    alert("backup-missing", Severity.CRITICAL, "sql01", "Stock"),
                    alert("backup-window-creep", Severity.WARNING, "sql02", null),
                    alert("qat-fallback", Severity.INFO, "sql02", "Sales"), resolvesLater));
            evaluate(service, T0);
            firing.set(firing.get().subList(0, 4));
            evaluate(service, T0.plusSeconds(60));

            AlertsView view = AlertViews.alerts(service, Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC));
            List<AlertsView.ActiveHead> fromViews = view.active().stream()
                    .map(a -> new AlertsView.ActiveHead(a.host(), a.rule(), a.severity())).toList();
            assertThat(view.heads()).hasSize(4).containsExactlyInAnyOrderElementsOf(fromViews)
                    .doesNotContain(new AlertsView.ActiveHead("sql03", "backup-missing", "critical"));

            List<HostSeen> hosts = List.of(new HostSeen("sql01", T0), new HostSeen("sql02", T0), new HostSeen("sql03", T0));
            FleetStatus.Summary byHeads = FleetStatus.fromHeads(view.heads(), T0.plusSeconds(60), 60, h -> null, h -> Set.of())
                    .summarise(hosts);
            FleetStatus.Summary byViews = FleetStatus.of(view.active(), T0.plusSeconds(60), 60, h -> null, h -> Set.of())
                    .summarise(hosts);
            assertThat(byHeads).isEqualTo(byViews);
            assertThat(byHeads.count(HostState.CRITICAL)).isEqualTo(1);
            assertThat(byHeads.count(HostState.WARNING)).isEqualTo(1);
            assertThat(byHeads.count(HostState.OK)).isEqualTo(1);
        }
    }

    private static void evaluate(AlertService service, Instant at) throws Exception {
        service.evaluate(new FleetState(List.of()), at).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
