package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.Jobs;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A database that appeared or disappeared between two reports, and a recovery model or replica role that changed, are
 * events the store keeps from ingest on (issue 31), on a real SQLite file and a real PostgreSQL, through the batched
 * write path too, and still there when the store is opened again.
 */
class DatabaseEventsStoreTest {

    @TempDir
    Path dir;

    private static final Instant T1 = Instant.parse("2026-11-30T06:00:00Z");
    private static final Instant T2 = Instant.parse("2026-11-30T06:05:00Z");
    private static final Instant T3 = Instant.parse("2026-11-30T06:10:00Z");

    private static DatabaseInfo db(String name, String model, String role, Instant created) {
        return new DatabaseInfo(name, null, model, "NONE", role == null ? null : "AG1", role, null, null, null, null, false,
                null, null, created);
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void appearancesAndRecoveryModelChangesAreStoredAtIngestAndSurviveAReopen(Database.Kind kind) throws Exception {
        StoreConfig config = StoreKinds.config(kind);
        Instant created = Instant.parse("2026-11-30T06:02:00Z");
        try (Database db = StoreKinds.open(config, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql01", Jobs.report("sql01", T1, Jobs.instance("PROD", T1, List.of(db("Sales", "FULL", null, null),
                    db("Old", "FULL", null, null), db("Hr", "FULL", "PRIMARY", null)), List.of(), null, null, null, null)), T1);
            assertThat(store.databaseEvents("sql01", "PROD", Instant.EPOCH)).as("an instance's first report is no event").isEmpty();
            // one batch of two reports: the second compares with the first
            store.storeAll(List.of(
                    new ReportStore.Incoming("sql01", Jobs.report("sql01", T2, Jobs.instance("PROD", T2, List.of(
                            db("Sales", "SIMPLE", null, null), db("Old", "FULL", null, null), db("Hr", "FULL", "PRIMARY", null),
                            db("Intake", "FULL", null, created)), List.of(), null, null, null, null)), T2),
                    new ReportStore.Incoming("sql01", Jobs.report("sql01", T3, Jobs.instance("PROD", T3, List.of(
                            db("Sales", "SIMPLE", null, null), db("Hr", "FULL", "SECONDARY", null),
                            db("Intake", "FULL", null, created)), List.of(), null, null, null, null)), T3)));
        }
        try (Database db = StoreKinds.open(config, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            List<DatabaseEvent> events = store.databaseEvents("sql01", "PROD", Instant.EPOCH);
            assertThat(events).extracting(DatabaseEvent::at, DatabaseEvent::database, DatabaseEvent::kind,
                    DatabaseEvent::before, DatabaseEvent::after).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(T2, "Sales", DatabaseEvent.RECOVERY_MODEL_CHANGED, "FULL", "SIMPLE"),
                    org.assertj.core.groups.Tuple.tuple(T2, "Intake", DatabaseEvent.APPEARED, null, null),
                    org.assertj.core.groups.Tuple.tuple(T3, "Hr", DatabaseEvent.REPLICA_ROLE_CHANGED, "PRIMARY", "SECONDARY"),
                    org.assertj.core.groups.Tuple.tuple(T3, "Old", DatabaseEvent.DISAPPEARED, null, null));
            assertThat(events.get(1).createdAt()).isEqualTo(created);
            assertThat(events.get(1).summary()).isEqualTo("Intake appeared (created 2026-11-30T06:02:00Z)");
            assertThat(events.get(0).summary()).isEqualTo("Recovery model of Sales changed from FULL to SIMPLE");
            assertThat(store.databaseEvents("sql01", "PROD", T3)).as("from since on").hasSize(2);
            // a report that changes nothing in the databases section records nothing
            store.store("sql01", Jobs.report("sql01", T3.plusSeconds(300), Jobs.instance("PROD", T3.plusSeconds(300), List.of(
                    db("Sales", "SIMPLE", null, null), db("Hr", "FULL", "SECONDARY", null), db("Intake", "FULL", null, created)),
                    List.of(), null, null, null, null)), T3.plusSeconds(300));
            assertThat(store.databaseEvents("sql01", "PROD", Instant.EPOCH)).hasSize(4);
        }
    }

    /**
     * What a restart reads for many instances at once (on PostgreSQL one query per chunk of hosts) is, per instance and in
     * the order asked, what it reads of each alone: events of other instances of a host and of hosts not asked stay out.
     */
    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void severalInstancesEventsReadAtOnceAreEachInstancesOwn(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(StoreKinds.config(kind), dir)) {
            SqlReportStore store = new SqlReportStore(db);
            for (String host : List.of("sql01", "sql02", "sql03")) {
                store.store(host, Jobs.report(host, T1,
                        Jobs.instance("PROD", T1, List.of(db("Sales", "FULL", null, null)), List.of(), null, null, null, null),
                        Jobs.instance("TEST", T1, List.of(db("Scratch", "SIMPLE", null, null)), List.of(), null, null, null, null)),
                        T1);
                store.store(host, Jobs.report(host, T2,
                        Jobs.instance("PROD", T2, List.of(db("Sales", "SIMPLE", null, null), db(host + "_new", "FULL", null, null)),
                                List.of(), null, null, null, null),
                        Jobs.instance("TEST", T2, List.of(), List.of(), null, null, null, null)), T2);
            }
            List<ReportStore.InstanceKey> keys = List.of(new ReportStore.InstanceKey("sql02", "TEST", false),
                    new ReportStore.InstanceKey("sql01", "PROD", false), new ReportStore.InstanceKey("sql02", "PROD", false),
                    new ReportStore.InstanceKey("sql09", "PROD", false));
            List<List<DatabaseEvent>> together = store.databaseEvents(keys, Instant.EPOCH);
            assertThat(together).hasSize(keys.size());
            for (int n = 0; n < keys.size(); n++) {
                assertThat(together.get(n)).as("%s", keys.get(n))
                        .isEqualTo(store.databaseEvents(keys.get(n).host(), keys.get(n).instance(), Instant.EPOCH));
            }
            assertThat(together.get(1)).extracting(DatabaseEvent::database, DatabaseEvent::kind).containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple("Sales", DatabaseEvent.RECOVERY_MODEL_CHANGED),
                    org.assertj.core.groups.Tuple.tuple("sql01_new", DatabaseEvent.APPEARED));
            assertThat(together.get(0)).extracting(DatabaseEvent::kind).containsExactly(DatabaseEvent.DISAPPEARED);
            assertThat(together.get(3)).as("a host not stored").isEmpty();
            assertThat(store.databaseEvents(keys, T2.plusSeconds(1))).allMatch(List::isEmpty);
        }
    }
}
