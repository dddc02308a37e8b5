package io.qatwatch.collector.testing;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.window.CalendarConfig;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A collector with its alert stage over a fleet in two host groups: 5 hosts in Frankfurt reporting now and
 * 3 in London silent for a day (so the agent-silent rule fires for them), stored through the real store.
 * Started once an evaluation after the fill is served.
 */
public final class GroupedFleet implements AutoCloseable {

    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);
    public static final List<String> FRANKFURT = List.of("sql-fra-01", "sql-fra-02", "sql-fra-03", "sql-fra-04", "sql-fra-05");
    public static final List<String> LONDON = List.of("sql-lon-01", "sql-lon-02", "sql-lon-03");

    private final RunningCollector running;
    public final Vertx vertx;
    public final Collector collector;
    public final WebClient http;
    public final String reader;

    private GroupedFleet(RunningCollector running, String reader) {
        this.running = running;
        this.vertx = running.vertx();
        this.collector = running.collector();
        this.http = running.http();
        this.reader = reader;
    }

    public static GroupedFleet start(Path data) throws Exception {
        AlertsConfig alerts = new AlertsConfig(null, null, List.of(
                new HostGroupConfig("frankfurt", CalendarConfig.builtIn().name(), List.of("sql-fra-*"), null, null),
                new HostGroupConfig("london", CalendarConfig.builtIn().name(), List.of("sql-lon-*"), null, null)), null, null, null, null);
        RunningCollector running = RunningCollector.withAlertStage(CollectorConfig.defaults().withAlerts(alerts), data, CLOCK);
        Collector collector = running.collector();
        int n = 0;
        for (String host : all()) {
            Instant at = host.startsWith("sql-lon") ? CLOCK.instant().minus(Duration.ofDays(1)) : CLOCK.instant().minusSeconds(60);
            collector.store().store(host, TestReports.numbered(++n, 2, at.minus(Duration.ofHours(1))), at);
        }
        GroupedFleet fleet = new GroupedFleet(running, running.token("dba", TokenStore.Kind.READ));
        running.evaluate();
        fleet.awaitSilentAlerts();
        return fleet;
    }

    /** Every host, in host-name order. */
    public static List<String> all() {
        List<String> all = new ArrayList<>(FRANKFURT);
        all.addAll(LONDON);
        return all;
    }

    /** The first evaluation after the fill has run once the agent-silent alerts of London are active. */
    private void awaitSilentAlerts() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            long silent = http.get(collector.port(), "127.0.0.1", "/api/v1/alerts").putHeader("Authorization", "Bearer " + reader)
                    .send().await(10, TimeUnit.SECONDS).bodyAsJsonArray().stream()
                    .filter(a -> "agent-silent".equals(((io.vertx.core.json.JsonObject) a).getString("rule"))).count();
            if (silent == LONDON.size()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the agent-silent alerts of London did not appear within 60 s");
    }

    @Override
    public void close() throws Exception {
        running.close();
    }
}
