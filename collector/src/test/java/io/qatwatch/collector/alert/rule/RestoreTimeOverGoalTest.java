package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.Restores;
import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * restore-time-over-goal in the alert stage's fleet over a real store (issue 30): sql01 restore-tests its QAT_DEFLATE
 * fulls, so Sales (a 100 GiB full and four 1 GiB logs) restores in 5.2 minutes at its measured speed; a host group's
 * {@code rtoMinutes} of 4 fires, 10 does not, and the rule is off unless switched on. Without restores measured, the
 * estimate goes by the backup speed and says so. The clock is passed in.
 */
class RestoreTimeOverGoalTest {

    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    @TempDir
    Path dir;

    private AlertsConfig config(String rule, int rtoMinutes) throws Exception {
        Path file = dir.resolve("collector-" + rtoMinutes + ".yaml");
        Files.writeString(file, """
                alerts:
                  hostGroups:
                    - { name: prod, calendar: default, hosts: ["sql01"], rtoMinutes: %d }
                  rules:
                %s
                """.formatted(rtoMinutes, rule));
        return ConfigLoader.load(file).alerts().validate();
    }

    private static List<Alert> alerts(AlertsConfig config, SqlReportStore store, Instant now) throws Exception {
        return config.evaluator().evaluate(new LiveFleet(config.analysis(), h -> Set.of()).refresh(store, now).analysis())
                .alerts().stream().filter(a -> a.rule().equals("restore-time-over-goal")).toList();
    }

    private static final String ON = "    restoreTimeOverGoal: { enabled: true }";

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void firesWhenTheMeasuredEstimatePassesTheGroupsGoal(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            Restores.sixNights(store, NOW, true);

            assertThat(alerts(config(ON, 4), store, NOW)).singleElement().satisfies(a -> {
                assertThat(a.severity().name()).isEqualTo("WARNING");
                assertThat(List.of(a.host(), a.instance(), a.database())).containsExactly("sql01", "PROD", "Sales");
                assertThat(a.summary()).isEqualTo("Restore of Sales would take about 5.2 min, over its 4 min goal");
                assertThat(a.details())
                        .contains("Estimate: full 100.0 GiB QAT_DEFLATE from UNC: 5.0 min at 341.33 MB/s (measured restore speed)"
                                + " + 4 log backups 4.0 GiB QAT_DEFLATE from UNC: 0.2 min at 341.33 MB/s (measured restore speed)"
                                + "; 5.2 min in all (restore-speed)")
                        .contains("Goal: 4 min (rtoMinutes of host group prod)")
                        .contains("Basis: restore-speed")
                        .contains("To read: 41.0 GiB (104.0 GiB of data)")
                        .contains("QAT_DEFLATE restore burden: restorable on 0 of 1 probed host");
            });
            assertThat(alerts(config(ON, 10), store, NOW)).as("5.2 min is within a 10 min goal").isEmpty();
            assertThat(alerts(config("    qatNoGain: { enabled: true }", 4), store, NOW)).as("off by default").isEmpty();
            assertThat(alerts(config(ON, 4), store, NOW.plus(Duration.ofDays(70))))
                    .as("seventy days on, the backups have left the lookback period: no plan, no estimate").isEmpty();
        }
    }

    @Test
    void withoutARestoreMeasuredTheEstimateGoesByTheBackupSpeed() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.SQLITE, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            Restores.sixNights(store, NOW, false);

            // 100 GiB at the QAT_DEFLATE fulls' 170.67 MB/s, the four logs at the log backups' 102.4 MB/s: 10.7 min
            assertThat(alerts(config(ON, 10), store, NOW)).singleElement().satisfies(a -> {
                assertThat(a.summary()).isEqualTo("Restore of Sales would take about 10.7 min, over its 10 min goal");
                assertThat(a.details()).contains("full 100.0 GiB QAT_DEFLATE from UNC: 10.0 min at 170.67 MB/s (backup speed, "
                                + "no restore measured)")
                        .contains("4 log backups 4.0 GiB QAT_DEFLATE from UNC: 0.7 min at 102.4 MB/s (backup speed, no restore "
                                + "measured)")
                        .contains("10.7 min in all (backup-speed)")
                        .contains("Basis: backup-speed: no restore of one or more parts' algorithm measured on this host");
            });
        }
    }
}
