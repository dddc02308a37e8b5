package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * backup-missing for a database an older agent (no create_date) reports for the first time waits its objective from when
 * the store first saw it, also in an alert stage started after it appeared (issue 31); one that was there from the
 * instance's first report is judged as before.
 */
class NewDatabaseObjectiveTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();
    private static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");

    @TempDir
    Path dir;

    private static DatabaseInfo simple(String name) {
        return new DatabaseInfo(name, null, "SIMPLE", "NONE", null, null, null);
    }

    private static void report(SqlReportStore store, Instant at, List<DatabaseInfo> dbs) throws Exception {
        store.store("sql01", Jobs.report("sql01", at, Jobs.instance("PROD", at, dbs, List.of(), null, null, null, null)), at);
    }

    private static List<String> missing(SqlReportStore store, Instant now) throws Exception {
        // a new alert stage each time: what it knows comes from the store, as after a restart
        return CONFIG.evaluator().evaluate(new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, now).analysis())
                .alerts().stream().filter(a -> a.rule().equals("backup-missing")).map(a -> a.database() + ":" + a.subject())
                .toList();
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aDatabaseFirstSeenWaitsItsObjectiveFromThen(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            report(store, T0, List.of(simple("Sales")));
            Instant seen = T0.plus(Duration.ofHours(1));
            report(store, seen, List.of(simple("Sales"), simple("Intake")));
            Instant soon = seen.plus(Duration.ofHours(2));
            report(store, soon, List.of(simple("Sales"), simple("Intake")));
            assertThat(missing(store, soon)).containsExactlyInAnyOrder("Sales:full", "Sales:full or differential");

            Instant late = seen.plus(Duration.ofHours(37));
            report(store, late, List.of(simple("Sales"), simple("Intake")));
            assertThat(missing(store, late)).as("36 hours after it was first seen").contains("Intake:full or differential")
                    .doesNotContain("Intake:full");
        }
    }
}
