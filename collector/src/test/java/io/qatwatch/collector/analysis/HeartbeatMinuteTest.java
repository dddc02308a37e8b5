package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.qat;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The minute in which an instance's agent only reported again (its heartbeat moved, nothing else): the alert stage makes
 * the instance a new state (its {@code collectedAt} moved) holding the very section lists of the minute before, not copies
 * of the row's, so that what is worked out once per list (the databases' TDE states the compression comparison's memo
 * compares) is not worked out again, and whose merged databases are the very records of the minute before
 * ({@link MergedContributions}); a new backup merges them again, a section change gives new lists. Every minute equals a
 * fresh evaluation.
 */
class HeartbeatMinuteTest {

    private static final Instant T0 = Instant.parse("2026-11-04T10:00:00Z");
    private static final AlertsConfig CONFIG = new AlertsConfig(null, null, null, new WindowSettings(false, false, 14),
            null, null, null).validate();
    private long reports;
    /** The analysis of the last {@link #minute}. */
    private FleetAnalysis last;

    @Test
    void aHeartbeatKeepsTheSectionListsAndASectionChangeReplacesThem(@TempDir Path dir) throws Exception {
        List<BackupRecord> nights = new ArrayList<>();
        for (int n = 1; n <= 10; n++) {
            Instant evening = T0.minus(Duration.ofDays(n)).minus(Duration.ofHours(12));
            nights.add(backup("Sales", "D", evening, 1800, 90L << 30, "QAT_DEFLATE", "UNC"));
            nights.add(backup("Stock", "D", evening.plusSeconds(2400), 600, 10L << 30, "MS_XPRESS", "UNC"));
        }
        List<DatabaseInfo> two = List.of(created(db("Sales", "FULL")), created(db("Stock", "SIMPLE")));
        try (Database db = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(db);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            AlertEvaluator evaluator = CONFIG.evaluator();

            store(store, T0, two, nights);
            InstanceState first = minute(store, live, evaluator, T0);
            Map<String, FleetAnalysis.MergedDatabase> firstDatabases = last.databases();
            store(store, T0.plusSeconds(60), two, List.of());
            InstanceState heartbeat = minute(store, live, evaluator, T0.plusSeconds(60));
            Map<String, FleetAnalysis.MergedDatabase> heartbeatDatabases = last.databases();

            assertThat(heartbeat).as("a new state: the heartbeat moved").isNotSameAs(first);
            assertThat(heartbeat.collectedAt()).isAfter(first.collectedAt());
            assertThat(heartbeat.databases()).as("databases after a heartbeat").isSameAs(first.databases());
            assertThat(heartbeat.configuration()).as("configuration after a heartbeat").isSameAs(first.configuration());
            assertThat(heartbeat.accelerators()).as("accelerators after a heartbeat").isSameAs(first.accelerators());
            assertThat(heartbeat.certificates()).as("certificates after a heartbeat").isSameAs(first.certificates());
            assertThat(heartbeat.asymmetricKeys()).as("asymmetric keys after a heartbeat").isSameAs(first.asymmetricKeys());
            assertThat(heartbeatDatabases).hasSize(2);
            heartbeatDatabases.forEach((key, m) -> assertThat(m).as("merged %s after a heartbeat", m.name())
                    .isSameAs(firstDatabases.get(key)));

            // a new backup: the instance's databases are merged again
            BackupRecord log = backup("Sales", "L", T0.plusSeconds(70), 20, 1L << 20, "QAT_DEFLATE", "UNC");
            store(store, T0.plusSeconds(90), two, List.of(log));
            minute(store, live, evaluator, T0.plusSeconds(90));
            FleetAnalysis.MergedDatabase sales = last.databases().values().stream()
                    .filter(m -> m.name().equals("Sales")).findFirst().orElseThrow();
            assertThat(sales).as("Sales after its new backup").isNotSameAs(heartbeatDatabases.get(sales.key()));
            assertThat(sales.backups()).extracting(NightlyWindow.DatabaseBackup::type).contains("L");

            List<DatabaseInfo> three = new ArrayList<>(two);
            three.add(created(db("HR", "SIMPLE")));
            store(store, T0.plusSeconds(120), three, List.of());
            InstanceState changed = minute(store, live, evaluator, T0.plusSeconds(120));

            assertThat(changed.databases()).as("databases after a section change").isNotSameAs(heartbeat.databases())
                    .extracting(DatabaseInfo::name).containsExactly("Sales", "Stock", "HR");
            assertThat(last.databases().get(sales.key())).as("Sales after a section change").isNotSameAs(sales);
        }
    }

    /** Refreshes {@code live} at {@code now}, holds it to a fresh evaluation, and gives its one instance's state. */
    private InstanceState minute(SqlReportStore store, LiveFleet live, AlertEvaluator evaluator, Instant now)
            throws Exception {
        FleetAnalysis analysis = live.refresh(store, now).analysis();
        FleetAnalysis fresh = new FleetAnalysis(FleetStates.load(store, now, CONFIG.analysis(), h -> Set.of()),
                CONFIG.analysis(), now);
        FreshComparison.assertSameAsFresh(analysis, fresh, evaluator, 14);
        last = analysis;
        assertThat(analysis.instances()).hasSize(1);
        return analysis.instances().get(0).instance();
    }

    /** {@code d} with a {@code create_date} a month before T0 (as agents since issue 31 send it). */
    private static DatabaseInfo created(DatabaseInfo d) {
        return new DatabaseInfo(d.name(), d.databaseGuid(), d.recoveryModel(), d.encryptionState(), d.availabilityGroup(),
                d.replicaRole(), d.preferredBackupReplica(), d.familyGuid(), d.groupDatabaseId(), d.availabilityGroupId(),
                d.autoClose(), d.tdeEncryptorThumbprint(), d.tdeEncryptorType(), T0.minus(Duration.ofDays(30)));
    }

    /** Stores a report of the one host collected {@code at}: its sections, in lists the store may copy, and new backups. */
    private void store(SqlReportStore store, Instant at, List<DatabaseInfo> dbs, List<BackupRecord> backups) throws Exception {
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null,
                List.of(new ConfigOption("backup compression default", 1, 1)),
                List.of(qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU")), dbs, backups, List.of(), List.of(), null);
        store.store("sql-beat", new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo("sql-beat", "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of()),
                at.plusSeconds(1 + reports++ % 3));
    }
}
