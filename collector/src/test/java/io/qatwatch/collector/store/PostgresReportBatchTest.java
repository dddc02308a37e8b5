package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's batch writer: a batch costs the same few statements whatever its size, stores what storing its
 * reports one by one stores, and refuses only the report that fails.
 */
class PostgresReportBatchTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:01Z");

    @TempDir
    Path dir;

    @Test
    void aBatchOfFiftyReportsCostsTheStatementsOfABatchOfFive() throws Exception {
        int five = statementsFor(5);
        int fifty = statementsFor(50);
        assertThat(fifty).as("statements (round trips) for 50 reports of 50 hosts, against %d for 5", five)
                .isEqualTo(five);
        assertThat(five).as("reports, hosts, instances read and written, changes, backups, job rows, jobs, commit")
                .isLessThanOrEqualTo(12);
    }

    @Test
    void aBatchStoresWhatReportByReportStores() throws Exception {
        AtomicInteger statements = new AtomicInteger();
        try (Database one = StoreKinds.open(Database.Kind.POSTGRESQL, dir);
             Database batched = new Counting(StoreKinds.open(Database.Kind.POSTGRESQL, dir), statements)) {
            SqlReportStore byReport = new SqlReportStore(one);
            SqlReportStore byBatch = new SqlReportStore(batched);
            AgentReport before = TestReports.numbered(9, 2, AT);
            for (SqlReportStore store : List.of(byReport, byBatch)) {
                store.store("sql09", before, AT);
            }
            List<Incoming> batch = mixedBatch(before);

            List<Outcome> expected = new ArrayList<>();
            for (Incoming in : batch) {
                try {
                    expected.add(new Outcome(byReport.store(in.host(), in.report(), in.receivedAt()), null));
                } catch (Exception e) {
                    expected.add(new Outcome(null, e));
                }
            }
            statements.set(0);
            List<Outcome> outcomes = byBatch.storeAll(batch);
            assertThat(statements.get()).as("the batch writer's statements, not several a report").isLessThan(3 * batch.size());

            assertThat(outcomes).hasSameSizeAs(batch);
            for (int i = 0; i < batch.size(); i++) {
                assertThat(outcomes.get(i).stored()).as("report %d", i).isEqualTo(expected.get(i).stored());
                assertThat(outcomes.get(i).error() != null).as("report %d refused", i)
                        .isEqualTo(expected.get(i).error() != null);
            }
            assertThat(outcomes).allSatisfy(o -> assertThat(o.error()).isNull());
            assertThat(outcomes.get(2).stored().duplicate()).as("stored before the batch").isTrue();
            assertThat(outcomes.get(4).stored().duplicate()).as("its id earlier in the batch").isTrue();
            assertThat(outcomes.get(5).stored().newBackups()).as("a backup the batch stored already").isEqualTo(1);

            assertThat(byBatch.fleet()).isEqualTo(byReport.fleet());
            for (String host : List.of("sql01", "sql02", "sql09")) {
                String instance = host.equals("sql01") ? GoldenReports.complete().instances().get(0).name()
                        : before.instances().get(0).name();
                assertThat(byBatch.backups(host, instance, Instant.EPOCH)).as(host)
                        .isEqualTo(byReport.backups(host, instance, Instant.EPOCH));
                assertThat(byBatch.acceleratorChanges(host, instance, Instant.EPOCH)).as(host)
                        .isEqualTo(byReport.acceleratorChanges(host, instance, Instant.EPOCH));
                assertThat(byBatch.jobActivity(host, instance, Instant.EPOCH)).as(host)
                        .isEqualTo(byReport.jobActivity(host, instance, Instant.EPOCH));
            }
            for (String sql : List.of("SELECT string_agg(report_id || '=' || backups, ',' ORDER BY report_id) FROM reports",
                    "SELECT string_agg(host || section, ',' ORDER BY id) FROM instance_changes",
                    "SELECT string_agg(host || name || jobs_seq || COALESCE(job_history_hwm, -1), ',' ORDER BY host, name)"
                            + " FROM instances")) {
                assertThat(StoreKinds.text(batched, sql)).as(sql).isEqualTo(StoreKinds.text(one, sql));
            }
        }
    }

    @Test
    void aFailingReportIsRefusedAloneAndTheBatchsOthersAreStored() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport before = TestReports.numbered(9, 2, AT);
            store.store("sql09", before, AT);
            AgentReport fresh = TestReports.numbered(4, 3, AT);

            List<Outcome> outcomes = store.storeAll(List.of(
                    new Incoming("sql04", fresh, AT),
                    new Incoming("sql03", unnamed(TestReports.numbered(3, 1, AT)), AT),
                    new Incoming("sql09", before, AT),
                    new Incoming("sql04", fresh, AT)));

            assertThat(outcomes.get(0).stored()).isEqualTo(new ReportStore.Stored(fresh.reportId(), false, 3));
            assertThat(outcomes.get(1).error()).as("the report without an instance name").isNotNull();
            assertThat(outcomes.get(2).stored().duplicate()).as("stored before the batch").isTrue();
            assertThat(outcomes.get(3).stored().duplicate()).as("its id earlier in the batch").isTrue();
            assertThat(StoreKinds.text(db, "SELECT string_agg(name, ',' ORDER BY name) FROM hosts")).isEqualTo("sql04,sql09");
            assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM backups")).isEqualTo(5);
            assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM reports")).isEqualTo(2);
        }
    }

    /**
     * New hosts with and without job activity, a second report of a host changing its accelerators, a report stored
     * before, a report id twice, and a backup sent again under a new report id.
     */
    private static List<Incoming> mixedBatch(AgentReport storedBefore) {
        AgentReport golden = GoldenReports.complete();
        SqlInstanceSnapshot instance = golden.instances().get(0);
        AcceleratorStatus qat = instance.accelerators().get(0);
        AcceleratorStatus software = new AcceleratorStatus(qat.accelerator(), "SOFTWARE", "HARDWARE_NOT_DETECTED", false,
                qat.libraryVersion(), qat.driverVersion());
        AgentReport fallback = TestReports.accelerator(1, AT.plusSeconds(60), software, null);
        // an id after the golden one's: a batch is stored in host and report id order
        AgentReport changed = new AgentReport(fallback.schemaVersion(), "ffffffff-0000-4000-8000-000000000001",
                fallback.createdAt(), fallback.agent(), fallback.host(), fallback.qat(), fallback.licence(),
                fallback.instances(), fallback.probes());
        AgentReport second = TestReports.numbered(2, 3, AT);
        AgentReport resent = new AgentReport(second.schemaVersion(), "report-resent-0000-4000-8000-000000000000",
                second.createdAt(), second.agent(), null, null, null, List.of(instance(second, 1)), second.probes());
        return List.of(
                new Incoming("sql01", golden, AT),
                new Incoming("sql01", changed, AT.plusSeconds(60)),
                new Incoming("sql09", storedBefore, AT),
                new Incoming("sql02", second, AT),
                new Incoming("sql02", second, AT),
                new Incoming("sql02", resent, AT.plusSeconds(1)));
    }

    /** {@code report}'s instance with its first {@code backups} backups and one of its own. */
    private static SqlInstanceSnapshot instance(AgentReport report, int backups) {
        SqlInstanceSnapshot s = report.instances().get(0);
        List<SqlInstanceSnapshot.BackupRecord> records = new ArrayList<>(s.backups().subList(0, backups));
        records.add(TestReports.numbered(7, 1, AT).instances().get(0).backups().get(0));
        return new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(), s.accelerators(),
                s.databases(), records, s.runningBackups(), s.certificates(), s.backupHighWaterMark());
    }

    /** A report the validator would refuse; here it makes the store's NOT NULL on instances.name fail. */
    private static AgentReport unnamed(AgentReport r) {
        SqlInstanceSnapshot s = r.instances().get(0);
        SqlInstanceSnapshot unnamed = new SqlInstanceSnapshot(null, s.collectedAt(), s.server(), s.configuration(),
                s.accelerators(), s.databases(), s.backups(), s.runningBackups(), s.certificates(), s.backupHighWaterMark());
        return new AgentReport(r.schemaVersion(), r.reportId(), r.createdAt(), r.agent(), r.host(), r.qat(), r.licence(),
                List.of(unnamed), r.probes());
    }

    /** The statements (each a round trip) and commits that storing {@code reports} golden reports of as many hosts costs. */
    private int statementsFor(int reports) throws Exception {
        AtomicInteger statements = new AtomicInteger();
        try (Database db = new Counting(StoreKinds.open(Database.Kind.POSTGRESQL, dir), statements)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport golden = GoldenReports.complete();
            List<Incoming> batch = new ArrayList<>();
            for (int n = 0; n < reports; n++) {
                AgentReport r = new AgentReport(golden.schemaVersion(), String.format("%08d-0000-4000-8000-000000000000", n),
                        golden.createdAt(), golden.agent(), golden.host(), golden.qat(), golden.licence(),
                        golden.instances(), golden.probes());
                batch.add(new Incoming(String.format("sql%03d", n), r, AT));
            }
            statements.set(0);
            List<Outcome> outcomes = store.storeAll(batch);
            int used = statements.get();
            assertThat(outcomes).allSatisfy(o -> assertThat(o.stored().newBackups()).isOne());
            assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM job_runs")).isEqualTo(
                    (long) reports * golden.instances().get(0).jobRuns().size());
            return used;
        }
    }

    /** A store whose connections count the statements they execute and the commits they make. */
    private record Counting(Database inner, AtomicInteger statements) implements Database {

        @Override
        public Kind kind() {
            return inner.kind();
        }

        @Override
        public String where() {
            return inner.where();
        }

        @Override
        public StoreCondition condition() {
            return inner.condition();
        }

        @Override
        public <T> T write(Work<T> work) throws SQLException, java.io.IOException {
            return inner.write(c -> work.run(counting(c)));
        }

        @Override
        public <T> T read(Work<T> work) throws SQLException, java.io.IOException {
            return inner.read(c -> work.run(counting(c)));
        }

        @Override
        public int migrate(String component, List<String> steps) throws SQLException {
            return inner.migrate(component, steps);
        }

        @Override
        public void close() throws SQLException {
            inner.close();
        }

        private Connection counting(Connection c) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("commit")) {
                            statements.incrementAndGet();
                        }
                        Object result = invoke(method, c, args);
                        return result instanceof Statement s ? countingStatement(s, method.getReturnType()) : result;
                    });
        }

        private Object countingStatement(Statement s, Class<?> type) {
            return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
                if (method.getName().startsWith("execute")) {
                    statements.incrementAndGet();
                }
                return invoke(method, s, args);
            });
        }

        private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
