package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.testing.Postgres;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
    void aBatchOfRowsThisCollectorWroteSendsNoSectionAgain() throws Exception {
        AtomicInteger statements = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        try (Database db = new Counting(StoreKinds.open(Database.Kind.POSTGRESQL, dir), statements, new ArrayList<>(), bytes)) {
            new SqlReportStore(db).storeAll(goldenBatch(50, 0));
            // a collector that knows nothing of the rows (just started, or another's) writes them whole
            SqlReportStore store = new SqlReportStore(db);
            statements.set(0);
            bytes.set(0);
            assertThat(store.storeAll(goldenBatch(50, 1))).allSatisfy(o -> assertThat(o.error()).isNull());
            int wholeStatements = statements.get();
            long wholeBytes = bytes.get();

            statements.set(0);
            bytes.set(0);
            assertThat(store.storeAll(goldenBatch(50, 2))).allSatisfy(o -> assertThat(o.error()).isNull());
            // the hosts' lock takes the place of the read of the instances' stored history sections
            assertThat(statements.get()).as("statements, against %d written whole", wholeStatements)
                    .isLessThanOrEqualTo(wholeStatements);
            // the golden report: 4,486 bytes of text a report written whole, 2,100 touched (job rows, backups, the jobs
            // section, agent and probes remain; the hosts' and instances' statements bind 2,816 and 430)
            assertThat(bytes.get()).as("text bound for 50 reports whose sections it wrote, against %d written whole", wholeBytes)
                    .isLessThan(wholeBytes * 6 / 10);
        }
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

    @Test
    void unchangedSectionsAreNotSentAgainButAnotherCollectorsChangeIsSeen() throws Exception {
        StoreConfig config = StoreKinds.config(Database.Kind.POSTGRESQL);
        List<String> sent = new ArrayList<>();
        try (Database a = new Counting(StoreKinds.open(config, dir), new AtomicInteger(), sent, new AtomicLong());
             Database b = StoreKinds.open(config, dir)) {
            SqlReportStore first = new SqlReportStore(a);
            SqlReportStore second = new SqlReportStore(b);
            AcceleratorStatus qat = GoldenReports.complete().instances().get(0).accelerators().get(0);
            AcceleratorStatus software = software(qat, "HARDWARE_NOT_DETECTED");
            String instance = GoldenReports.complete().instances().get(0).name();

            stored(first, "sql01", TestReports.accelerator(1, AT, qat, null));
            sent.clear();
            stored(first, "sql01", TestReports.accelerator(1, AT.plusSeconds(60), qat, null));
            assertThat(sent).as("the same sections again: the rows touched, no section sent or read")
                    .noneMatch(PostgresReportBatchTest::sendsOrReadsSections);

            // another collector stores the same sections: nothing changed, and the first still only touches the rows
            stored(second, "sql01", TestReports.accelerator(1, AT.plusSeconds(90), qat, null));
            sent.clear();
            stored(first, "sql01", TestReports.accelerator(1, AT.plusSeconds(100), qat, null));
            assertThat(sent).as("another collector's write of the same sections").noneMatch(PostgresReportBatchTest::sendsOrReadsSections);
            long before = StoreKinds.scalar(a, "SELECT sections_seq FROM instances");

            // another collector changes the accelerators; the first then gets the old ones again from the agent
            stored(second, "sql01", TestReports.accelerator(1, AT.plusSeconds(120), software, null));
            assertThat(StoreKinds.scalar(a, "SELECT sections_seq FROM instances")).as("the upsert moved the counter")
                    .isEqualTo(before + 1);
            sent.clear();
            stored(first, "sql01", TestReports.accelerator(1, AT.plusSeconds(180), qat, null));

            assertThat(sent).as("the row the other collector changed, written whole").anyMatch(sql -> sql.contains("INSERT INTO instances"));
            assertThat(first.acceleratorChanges("sql01", instance, Instant.EPOCH)).extracting(c -> c.accelerators().get(0).modeDesc())
                    .as("hardware, software (the second collector), hardware again (the first, its row moved)")
                    .containsExactly(qat.modeDesc(), "SOFTWARE", qat.modeDesc());
            assertThat(StoreKinds.text(a, "SELECT accelerators_json->0->>'modeDesc' FROM instances")).isEqualTo(qat.modeDesc());
            assertThat(StoreKinds.scalar(a, "SELECT last_seen FROM instances")).isEqualTo(AT.plusSeconds(180).toEpochMilli());
        }
    }

    @Test
    void aBatchRolledBackTeachesNothingOfTheRowsItWrote() throws Exception {
        StoreConfig config = StoreKinds.config(Database.Kind.POSTGRESQL);
        try (Database a = StoreKinds.open(config, dir); Database b = StoreKinds.open(config, dir)) {
            SqlReportStore first = new SqlReportStore(a);
            SqlReportStore second = new SqlReportStore(b);
            AcceleratorStatus qat = GoldenReports.complete().instances().get(0).accelerators().get(0);
            stored(first, "sql01", TestReports.accelerator(1, AT, qat, null));

            // new accelerators and tags, in a batch the backups table refuses after the host and instance are written
            AgentReport failing = TestReports.tagged(withUnnamedDatabase(TestReports.accelerator(1, AT.plusSeconds(60),
                    software(qat, "HARDWARE_NOT_DETECTED"), null)), "failing", Map.of("site", "b"));
            assertThat(first.storeAll(List.of(new Incoming("sql01", failing, AT.plusSeconds(60)))).get(0).error())
                    .as("a backup without its database's name").isNotNull();

            // another collector moves both counters as far as the rolled-back batch had
            stored(second, "sql01", TestReports.tagged(TestReports.accelerator(1, AT.plusSeconds(120),
                    software(qat, "DRIVER_NOT_LOADED"), null), "other", Map.of("site", "c")));
            // the first collector's agent sends the failed report's sections again, with its backup mended
            stored(first, "sql01", TestReports.tagged(TestReports.accelerator(1, AT.plusSeconds(180),
                    software(qat, "HARDWARE_NOT_DETECTED"), null), "again", Map.of("site", "b")));

            assertThat(StoreKinds.text(a, "SELECT accelerators_json->0->>'modeReasonDesc' FROM instances"))
                    .as("the sections of the last report stored, not the other collector's").isEqualTo("HARDWARE_NOT_DETECTED");
            assertThat(StoreKinds.text(a, "SELECT tags_json->>'site' FROM hosts")).isEqualTo("b");
        }
    }

    @Test
    void whatWasLearnedBeforePostgresqlRestartedIsNotUsed() throws Exception {
        assumeTrue(Postgres.installed(), "PostgreSQL is not installed (apt-get install postgresql; ./run-tests does)");
        Postgres server = Postgres.create().start();
        List<String> sent = new ArrayList<>();
        try (Connection admin = server.connect(null); Statement s = admin.createStatement()) {
            s.execute("CREATE SCHEMA restarted");
        }
        try (Database a = new Counting(StoreKinds.open(server.store("restarted"), dir), new AtomicInteger(), sent,
                new AtomicLong())) {
            SqlReportStore store = new SqlReportStore(a);
            AcceleratorStatus qat = GoldenReports.complete().instances().get(0).accelerators().get(0);
            stored(store, "sql01", TestReports.accelerator(1, AT, qat, null));

            server.stop(false);
            server.start();
            // a server restored from a backup, or promoted after losing commits, may hold other sections under the
            // counter this collector learned: here the counter is set back past the trigger, which watches sections only
            try (Connection c = server.connect("restarted"); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE instances SET accelerators_json = jsonb_set(accelerators_json, "
                        + "'{0,modeDesc}', '\"SOFTWARE\"')");
                s.executeUpdate("UPDATE instances SET sections_seq = sections_seq - 1");
            }
            sent.clear();
            AgentReport again = TestReports.accelerator(1, AT.plusSeconds(60), qat, null);
            // at most one failure for each pooled connection to the stopped server, as an agent's retries would meet them
            for (int attempt = 0; attempt <= 8 && store.storeAll(List.of(new Incoming("sql01", again, AT.plusSeconds(60))))
                    .get(0).error() != null; attempt++) {
                sent.clear();
            }

            assertThat(sent).as("the row written whole").anyMatch(sql -> sql.contains("INSERT INTO instances"));
            try (Connection c = server.connect("restarted"); Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT accelerators_json->0->>'modeDesc' FROM instances")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(qat.modeDesc());
            }
        } finally {
            server.stop(true);
            server.delete();
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

    private static void stored(SqlReportStore store, String host, AgentReport report) {
        assertThat(store.storeAll(List.of(new Incoming(host, report, report.createdAt()))))
                .allSatisfy(o -> assertThat(o.error()).isNull());
    }

    /** A statement that sends a section or reads one back (the touches send the agent and probes, not sections). */
    private static boolean sendsOrReadsSections(String sql) {
        return sql.contains("_json") && !sql.startsWith("UPDATE hosts SET last_seen")
                && !sql.startsWith("UPDATE instances SET last_seen");
    }

    private static AcceleratorStatus software(AcceleratorStatus qat, String reason) {
        return new AcceleratorStatus(qat.accelerator(), "SOFTWARE", reason, false, qat.libraryVersion(), qat.driverVersion());
    }

    /** {@code r} with a backup whose database has no name: the store's NOT NULL on backups.database_name fails. */
    private static AgentReport withUnnamedDatabase(AgentReport r) {
        SqlInstanceSnapshot s = r.instances().get(0);
        BackupRecord b = GoldenReports.complete().instances().get(0).backups().get(0);
        BackupRecord unnamed = new BackupRecord(b.backupSetId(), null, b.databaseGuid(), b.type(), b.copyOnly(),
                b.startedAt(), b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(),
                b.compressionAlgorithm(), b.hasChecksums(), b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(),
                b.deviceType(), b.target());
        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(s.name(), s.collectedAt(), s.server(), s.configuration(),
                s.accelerators(), s.databases(), List.of(unnamed), s.runningBackups(), s.certificates(),
                s.backupHighWaterMark());
        return new AgentReport(r.schemaVersion(), r.reportId(), r.createdAt(), r.agent(), r.host(), r.qat(), r.licence(),
                List.of(snapshot), r.probes());
    }

    /** The statements (each a round trip) and commits that storing {@code reports} golden reports of as many hosts costs. */
    private int statementsFor(int reports) throws Exception {
        AtomicInteger statements = new AtomicInteger();
        try (Database db = new Counting(StoreKinds.open(Database.Kind.POSTGRESQL, dir), statements)) {
            SqlReportStore store = new SqlReportStore(db);
            AgentReport golden = GoldenReports.complete();
            statements.set(0);
            List<Outcome> outcomes = store.storeAll(goldenBatch(reports, 0));
            int used = statements.get();
            assertThat(outcomes).allSatisfy(o -> assertThat(o.stored().newBackups()).isOne());
            assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM job_runs")).isEqualTo(
                    (long) reports * golden.instances().get(0).jobRuns().size());
            return used;
        }
    }

    /** The golden report as {@code reports} hosts send it in cycle {@code cycle} (ids of their own, same sections). */
    private static List<Incoming> goldenBatch(int reports, int cycle) {
        AgentReport golden = GoldenReports.complete();
        List<Incoming> batch = new ArrayList<>();
        for (int n = 0; n < reports; n++) {
            AgentReport r = new AgentReport(golden.schemaVersion(), String.format("%08d-%04d-4000-8000-000000000000", n, cycle),
                    golden.createdAt().plusSeconds(60L * cycle), golden.agent(), golden.host(), golden.qat(),
                    golden.licence(), golden.instances(), golden.probes());
            batch.add(new Incoming(String.format("sql%03d", n), r, AT.plusSeconds(60L * cycle)));
        }
        return batch;
    }

    /**
     * A store whose connections count the statements they execute and the commits they make, keep the SQL they
     * prepare, and add up the UTF-8 bytes of the text parameters they bind (the sections travel as text).
     */
    private record Counting(Database inner, AtomicInteger statements, List<String> sql, AtomicLong textBytes)
            implements Database {

        Counting(Database inner, AtomicInteger statements) {
            this(inner, statements, new ArrayList<>(), new AtomicLong());
        }

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
                        if (method.getName().equals("prepareStatement")) {
                            sql.add(((String) args[0]).strip());
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
                if (method.getName().equals("setString") && args[1] != null) {
                    textBytes.addAndGet(((String) args[1]).getBytes(StandardCharsets.UTF_8).length);
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
