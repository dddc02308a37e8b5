package io.qatwatch.collector.alert.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetStates;
import io.qatwatch.collector.analysis.LiveFleet;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.AgentGoldens;
import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TDS scenario sql2022-differential-base-guid (written from the backupset and sys.databases pages) as the agent read
 * it through mssql-jdbc, stored on SQLite and PostgreSQL and judged (issue 31): differential-base-missing compares a
 * differential's base GUID with the fulls' backup_set_uuid; a weekly full meets the "full or differential" objective on
 * the full's day; a database created this morning waits its objective from its create_date, one created long ago does not.
 */
class DifferentialBaseScenarioTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();

    @TempDir
    Path dir;

    private static List<Alert> alerts(FleetAnalysis fleet, String rule) {
        return CONFIG.evaluator().evaluate(fleet).alerts().stream().filter(a -> a.rule().equals(rule)).toList();
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void theBaseGuidDecidesAndANewDatabaseWaitsItsObjective(Database.Kind kind) throws Exception {
        SqlInstanceSnapshot snap = AgentGoldens.snapshot("sql2022-differential-base-guid");
        Instant now = snap.collectedAt();
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sqldiff01", Jobs.report("sqldiff01", now, snap), now);
            FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()),
                    CONFIG.analysis(), now);
            FleetAnalysis live = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, now).analysis();
            for (FleetAnalysis fleet : List.of(fresh, live)) {
                List<Alert> base = alerts(fleet, "differential-base-missing");
                assertThat(base).extracting(Alert::database).as("Orders' differentials name its full by GUID")
                        .containsExactly("Refunds");
                assertThat(base.get(0).summary())
                        .isEqualTo("Differential of Refunds of 2026-11-30T00:10:08Z has no base full in msdb");
                assertThat(base.get(0).details()).contains("base GUID 0a7d1f00-0006-4d00-8000-0000000000ff")
                        .contains("backup_set_uuid 0a7d1f00-0006-4d00-8000-000000000001")
                        .as("the LSN alone would have matched").contains("base LSN 62000000010400001")
                        .contains("checkpoint LSN 62000000010400001");

                List<Alert> missing = alerts(fleet, "backup-missing");
                assertThat(missing).extracting(Alert::database, Alert::subject).as("Intake was created at 03:30 today; "
                        + "Weekly's full of today meets its full-or-differential objective").containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("Legacy", "full"),
                        org.assertj.core.groups.Tuple.tuple("Legacy", "full or differential"));
            }
            MergedDatabase intake = fresh.databases().values().stream().filter(d -> d.name().equals("Intake")).findFirst()
                    .orElseThrow();
            assertThat(intake.appearedAt()).isEqualTo(Instant.parse("2026-11-30T03:30:00Z"));
            assertThat(ChainRules.plan(fresh.databases().values().stream().filter(d -> d.name().equals("Orders")).findFirst()
                    .orElseThrow()).orElseThrow().differential()).as("the plan takes Monday's differential on Saturday's full")
                    .satisfies(d -> assertThat(d.finishedAt()).isEqualTo(Instant.parse("2026-11-30T00:00:12Z")));

            // 37 hours after Intake was created with still no backup: its full-or-differential objective (36 h) is missed
            Instant later = Instant.parse("2026-12-01T16:31:00Z");
            com.fasterxml.jackson.databind.node.ObjectNode next = io.qatwatch.protocol.ReportJson.mapper().valueToTree(snap);
            next.put("collectedAt", later.toString());
            next.putArray("backups");
            store.store("sqldiff01", Jobs.report("sqldiff01", later, io.qatwatch.protocol.ReportJson.mapper()
                    .treeToValue(next, SqlInstanceSnapshot.class)), later);
            FleetAnalysis after = new FleetAnalysis(FleetStates.load(store, later, CONFIG.analysis(), h -> Set.of()),
                    CONFIG.analysis(), later);
            assertThat(alerts(after, "backup-missing")).extracting(Alert::database, Alert::subject)
                    .contains(org.assertj.core.groups.Tuple.tuple("Intake", "full or differential"));
        }
    }
}
