package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An alert whose cause has not changed reads the same a minute, ten minutes and an hour later: the alert store writes
 * every row whose alert changed, so a text that counts the minutes (an age, a "for N min") is a write per alert per
 * minute across the fleet. The generated fleet of {@link GeneratedFleetGoldenTest}, its agents reporting every minute
 * with no new backup.
 */
class AlertTextStaysTest {

    @Test
    void anAlertWithNothingNewReadsTheSameLater(@TempDir Path dir) throws Exception {
        try (Database database = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(database);
            GeneratedFleetGoldenTest fleet = new GeneratedFleetGoldenTest();
            fleet.fill(store);
            LiveFleet live = new LiveFleet(GeneratedFleetGoldenTest.CONFIG.analysis(), h -> Set.of());
            AlertEvaluator evaluator = GeneratedFleetGoldenTest.CONFIG.evaluator();
            // two hours into the morning the log backups are late; every agent keeps reporting, with no new backup
            Instant first = GeneratedFleetGoldenTest.MORNING.plus(Duration.ofHours(2));
            Map<String, Alert> before = byId(evaluate(fleet, store, live, evaluator, first));
            assertThat(before.values()).as("the fleet fires alerts to compare").extracting(Alert::rule)
                    .contains("backup-missing", "backup-window-creep", "log-chain-broken", "cert-key-not-backed-up");
            for (Duration later : List.of(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofMinutes(61))) {
                Map<String, Alert> after = byId(evaluate(fleet, store, live, evaluator, first.plus(later)));
                List<String> changed = new ArrayList<>();
                before.forEach((id, a) -> {
                    Alert b = after.get(id);
                    if (b != null && !b.equals(a)) {
                        changed.add(GeneratedFleetGoldenTest.json(a).encode() + "\n  became " + GeneratedFleetGoldenTest.json(b).encode());
                    }
                });
                assertThat(changed).as("alerts changed %s later with nothing new reported", later).isEmpty();
                assertThat(after.keySet()).as("%s later", later).containsAll(before.keySet());
            }
        }
    }

    /** Every agent reports (its sections, no new backup), then the stage evaluates. */
    private static List<Alert> evaluate(GeneratedFleetGoldenTest fleet, SqlReportStore store, LiveFleet live,
                                        AlertEvaluator evaluator, Instant now) throws Exception {
        for (int i = 0; i < GeneratedFleetGoldenTest.INSTANCES; i++) {
            fleet.store(store, i, now.minusSeconds(30), List.of(), List.of());
        }
        return evaluator.evaluate(live.refresh(store, now).analysis()).alerts();
    }

    private static Map<String, Alert> byId(List<Alert> alerts) {
        Map<String, Alert> out = new LinkedHashMap<>();
        alerts.forEach(a -> out.put(a.id(), a));
        return out;
    }
}
