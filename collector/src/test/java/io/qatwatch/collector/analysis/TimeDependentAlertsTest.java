package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.RulesConfig;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts whose condition comes true with the passing of time alone, with no new report that says so: the alert
 * stage as it runs ({@link LiveFleet} then every rule), evaluated once a minute on an injected clock over a real
 * store, must raise each within one evaluation of the moment it is due. agent-silent: an agent stops reporting;
 * backup-missing: an agent keeps reporting but its newest log backup ages past the objective; spill forecast: a
 * running backup's progress crosses the forecast's minimum percent and elapsed time, and it would end inside
 * business hours.
 */
class TimeDependentAlertsTest {

    /** A Tuesday 04:00 UTC: inside the night before the default calendar's 07:00 business start. */
    private static final Instant T0 = Instant.parse("2026-12-01T04:00:00Z");
    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();
    private static final Duration EVERY = Duration.ofMinutes(1);

    @Test
    void eachFiresWithinOneEvaluationOfItsDueTime(@TempDir Path dir) throws Exception {
        RulesConfig rules = CONFIG.rules();
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            // the newest log backup of sql-logs finished 10 min 30 s before the first evaluation
            Instant logFinished = T0.minus(Duration.ofMinutes(10)).minusSeconds(30);
            store(store, "sql-logs", T0, List.of(
                    backup("Sales", "D", T0.minus(Duration.ofHours(3)), 600, 10L << 30, "MS_XPRESS", "UNC"),
                    backup("Sales", "L", logFinished.minusSeconds(20), 20, 1L << 20, "MS_XPRESS", "UNC")), List.of());
            // sql-silent's agent reports for the last time at 04:07
            Instant lastReport = T0.plus(Duration.ofMinutes(7));
            Instant backupStart = T0.plusSeconds(45);
            // 0.4 % a minute: 250 minutes in all, far past 07:00
            double percentPerMinute = 0.4;

            Map<String, Instant> due = new TreeMap<>();
            due.put("backup-missing", logFinished.plus(Duration.ofMinutes(rules.backupMissing().logMaxAgeMinutes())));
            due.put("agent-silent", lastReport.plus(Duration.ofMinutes(rules.agentSilent().silentMinutes() + 1)));
            Map<String, Instant> fired = new TreeMap<>();

            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            AlertEvaluator evaluator = CONFIG.evaluator();
            for (Instant now = T0; now.isBefore(T0.plus(Duration.ofHours(2))); now = now.plus(EVERY)) {
                store(store, "sql-logs", now, List.of(), List.of());
                if (!now.isAfter(lastReport)) {
                    store(store, "sql-silent", now, List.of(), List.of());
                }
                long elapsed = Duration.between(backupStart, now).getSeconds();
                double percent = elapsed / 60.0 * percentPerMinute;
                store(store, "sql-running", now, List.of(), List.of(running(database("sql-running"), backupStart, percent, elapsed)));
                if (!due.containsKey("backup-window-spill-forecast") && percent >= rules.backupWindowSpillForecast().minPercentComplete()
                        && elapsed >= rules.backupWindowSpillForecast().minElapsedMinutes() * 60L) {
                    // the first report whose progress qualifies: due at once
                    due.put("backup-window-spill-forecast", now);
                }
                for (Alert a : evaluator.evaluate(live.refresh(store, now).analysis()).alerts()) {
                    String expectedHost = switch (a.rule()) {
                        case "backup-missing" -> "sql-logs";
                        case "agent-silent" -> "sql-silent";
                        case "backup-window-spill-forecast" -> "sql-running";
                        default -> null;
                    };
                    if (a.host().equals(expectedHost)) {
                        fired.putIfAbsent(a.rule(), now);
                    }
                }
            }
            assertThat(fired.keySet()).as("every time-dependent alert fired").containsExactlyElementsOf(due.keySet());
            due.forEach((rule, at) -> assertThat(fired.get(rule)).as("%s, due at %s", rule, at)
                    .isAfterOrEqualTo(at).isBefore(at.plus(EVERY)));
        }
    }

    /** A database of its own per host (a database guid is made from the name: the same name would be one database). */
    private static String database(String host) {
        return host.equals("sql-logs") ? "Sales" : host.equals("sql-silent") ? "Billing" : "Warehouse";
    }

    private void store(SqlReportStore store, String host, Instant at, List<BackupRecord> backups,
                       List<RunningBackup> runningBackups) throws Exception {
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, List.of(), List.of(),
                List.of(db(database(host), "FULL")), backups, runningBackups, List.of(), null);
        store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of()),
                at);
    }
}
