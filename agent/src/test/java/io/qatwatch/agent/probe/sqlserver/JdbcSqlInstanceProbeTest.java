package io.qatwatch.agent.probe.sqlserver;

import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.ALL;
import static io.qatwatch.agent.probe.sqlserver.SqlScenarios.CLOCK;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import io.qatwatch.tds.TdsTestServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Incremental backup history, timeouts and connection failures, through mssql-jdbc and the TDS test server. */
class JdbcSqlInstanceProbeTest {

    @TempDir
    Path dir;

    @Test
    void readsAHundredThousandBackupRowsInPagesAcrossProbesAndGoesOnAfterARestart() throws Exception {
        AtomicLong rows = new AtomicLong(100_000);
        Path marksFile = dir.resolve("backup-marks");
        try (TdsTestServer server = TdsTestServer.start(FootprintMsdb.scenario(rows))) {
            SqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 5_000), CLOCK);
            HighWaterMarks marks = new HighWaterMarks(marksFile);
            long expectedNext = 1;
            int probes = 0;
            long queryMillis = 0;
            long started = System.nanoTime();
            SqlProbeResult r;
            do {
                r = probe.probe(EnumSet.of(SqlSection.BACKUP_HISTORY), marks.afterBackupSetId("PROD"));
                assertThat(r.probes()).allMatch(ProbeStatus::ok);
                queryMillis += r.probes().stream().filter(p -> p.name().endsWith("/backup-history")).mapToLong(ProbeStatus::durationMs).sum();
                List<BackupRecord> backups = r.snapshot().backups();
                assertThat(backups.size()).isLessThanOrEqualTo(JdbcSqlInstanceProbe.MAX_BACKUP_ROWS_PER_PROBE);
                for (BackupRecord b : backups) {
                    assertThat(b.backupSetId()).isEqualTo(expectedNext++);
                }
                marks.put("PROD", r.snapshot().backupHighWaterMark());
                probes++;
            } while (r.moreBackupsPending());
            double seconds = (System.nanoTime() - started) / 1e9;

            assertThat(expectedNext - 1).isEqualTo(100_000);
            assertThat(probes).as("5,000 rows a probe, then one that finds none").isEqualTo(21);
            List<Long> pageSizes = server.batches().stream().filter(b -> b.contains("backup-history-2022.sql"))
                    .map(b -> FootprintMsdb.number(FootprintMsdb.TOP, b)).toList();
            assertThat(pageSizes).as("the last probe finds the newest id at the mark and asks for no page").hasSize(20).allMatch(n -> n <= 5_000);
            Files.writeString(Path.of("target/sqlserver-first-sync.txt"), String.format(Locale.ROOT,
                    "first sync of 100000 backupset rows: %.2f s, %.0f rows/s, %d probe calls, %d pages of at most 5000; %.2f s in the backup-history queries%n",
                    seconds, 100_000 / seconds, probes, pageSizes.size(), queryMillis / 1e3));

            rows.set(100_003);
            HighWaterMarks afterRestart = new HighWaterMarks(marksFile);
            SqlProbeResult next = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 5_000), CLOCK)
                    .probe(EnumSet.of(SqlSection.BACKUP_HISTORY), afterRestart.afterBackupSetId("PROD"));
            assertThat(next.snapshot().backups()).extracting(BackupRecord::backupSetId).containsExactly(100_001L, 100_002L, 100_003L);
            assertThat(next.snapshot().backupHighWaterMark()).isEqualTo(100_003L);
            assertThat(next.moreBackupsPending()).isFalse();
        }
    }

    /**
     * msdb after restores from another server: every third and fourth set of five, and the seven newest, are SQL02's
     * (RESTORE writes the source's backup sets into msdb; backupset.server_name, "Name of the server running the SQL
     * Server backup operation"). The responder answers the query as SQL Server would: the rows its WHERE keeps, so none of
     * SQL02's rows may cross the wire, and the mark still passes them to the newest set.
     */
    @Test
    void otherServersRowsStayOnTheServerAndTheMarkPassesThem() {
        long total = 1_000;
        Pattern ownOnly = Pattern.compile(Pattern.quote("UPPER(bs.server_name) = UPPER(CAST(SERVERPROPERTY('ServerName') AS nvarchar(128)))"));
        java.util.function.LongPredicate restored = id -> id % 5 == 3 || id % 5 == 4 || id > total - 7;
        AtomicLong foreignRowsSent = new AtomicLong();
        Scenario msdb = SqlScenarios.scenario("sql2022-enterprise-hardware")
                .answer("latest-backup-set-id.sql", sql -> TdsResponse.rows(List.of(Column.col("latest_backup_set_id", "int")),
                        List.of(List.of(total))))
                .answer("backup-history-2022.sql", sql -> {
                    long top = FootprintMsdb.number(FootprintMsdb.TOP, sql);
                    long after = FootprintMsdb.number(FootprintMsdb.AFTER, sql);
                    java.util.regex.Matcher upTo = FootprintMsdb.UP_TO.matcher(sql);
                    long last = upTo.find() ? Long.parseLong(upTo.group(1)) : total;
                    boolean filtered = ownOnly.matcher(sql).find();
                    List<List<?>> page = new ArrayList<>();
                    for (long id = after + 1; id <= last && page.size() < top; id++) {
                        if (restored.test(id) && filtered) {
                            continue;
                        }
                        List<Object> row = new ArrayList<>(FootprintMsdb.backupRow(id));
                        if (restored.test(id)) {
                            row.set(17, "SQL02\\PROD");
                            foreignRowsSent.incrementAndGet();
                        }
                        page.add(row);
                    }
                    return TdsResponse.rows(FootprintMsdb.BACKUPSET, page);
                });
        try (TdsTestServer server = TdsTestServer.start(msdb)) {
            SqlInstanceProbe probe = new JdbcSqlInstanceProbe(SqlScenarios.settings(server, dir, 100), CLOCK);
            List<Long> reported = new ArrayList<>();
            Long mark = null;
            SqlProbeResult r;
            do {
                r = probe.probe(EnumSet.of(SqlSection.BACKUP_HISTORY), mark);
                assertThat(r.probes()).allMatch(ProbeStatus::ok);
                r.snapshot().backups().forEach(b -> reported.add(b.backupSetId()));
                mark = r.snapshot().backupHighWaterMark();
            } while (r.moreBackupsPending());

            assertThat(reported).containsExactlyElementsOf(LongStream.rangeClosed(1, total).filter(id -> !restored.test(id)).boxed().toList());
            assertThat(foreignRowsSent).as("rows of SQL02 sent by the server").hasValue(0);
            assertThat(mark).as("past SQL02's seven newest sets").isEqualTo(total);
            SqlProbeResult quiet = probe.probe(EnumSet.of(SqlSection.BACKUP_HISTORY), mark);
            assertThat(quiet.snapshot().backups()).isEmpty();
            assertThat(quiet.snapshot().backupHighWaterMark()).isEqualTo(total);
            assertThat(server.batches()).filteredOn(b -> b.contains("backup-history-2022.sql"))
                    .allSatisfy(b -> assertThat(b).contains("backup_set_id <= 1000"));
        }
    }

    @Test
    void aQueryTimeoutFailsThatQueryOnlyAndSaysWhatToDo() {
        Scenario slow = SqlScenarios.scenario("sql2022-enterprise-hardware").answer("running-backups.sql",
                new TdsResponse.Delayed(Duration.ofSeconds(20), TdsResponse.rows(List.of(Column.col("x", "int")), List.of())));
        try (TdsTestServer server = TdsTestServer.start(slow)) {
            SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(server.jdbcUrl(), dir, 1000, Duration.ofSeconds(1)), CLOCK)
                    .probe(ALL, null);
            assertThat(r.probes()).filteredOn(p -> !p.ok()).singleElement().satisfies(p -> {
                assertThat(p.name()).isEqualTo("sqlserver:PROD/running-backups");
                assertThat(p.hint()).contains("ran longer than 1 s");
            });
            assertThat(r.snapshot().runningBackups()).isNull();
            assertThat(r.snapshot().certificates()).as("read after the timeout, on the same connection").hasSize(2);
        }
    }

    @Test
    void anUnreachableServerIsOneFailedConnectProbe() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "jdbc:sqlserver://127.0.0.1:" + port + ";encrypt=false;loginTimeout=2";
        SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(url, dir, 1000, Duration.ofSeconds(5)), CLOCK).probe(ALL, 41L);
        assertThat(r.probes()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo("sqlserver:PROD/connect");
            assertThat(p.ok()).isFalse();
            assertThat(p.error()).contains("127.0.0.1:" + port);
            assertThat(p.hint()).contains("check host and port");
        });
        assertThat(r.snapshot().server()).isNull();
        assertThat(r.snapshot().backupHighWaterMark()).as("the mark is kept").isEqualTo(41L);
    }

    @Test
    void aWrongPasswordAndAMissingPasswordFileAreToldApart() throws Exception {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2019-standard"))) {
            Path wrong = dir.resolve("wrong");
            Files.writeString(wrong, "not-it\n");
            SqlInstanceSettings base = SqlScenarios.settings(server, dir, 1000);
            SqlProbeResult r = new JdbcSqlInstanceProbe(withPasswordFile(base, wrong), CLOCK).probe(ALL, null);
            assertThat(r.probes()).singleElement().satisfies(p -> {
                assertThat(p.error()).contains("Login failed for user 'qatwatch_monitor'");
                assertThat(p.hint()).contains("password file");
            });
            SqlProbeResult missing = new JdbcSqlInstanceProbe(withPasswordFile(base, dir.resolve("absent")), CLOCK).probe(ALL, null);
            assertThat(missing.probes()).singleElement().satisfies(p -> assertThat(p.error()).contains("cannot read the password file"));
            assertThat(server.logins()).hasSize(1);
        }
    }

    @Test
    void thePasswordCanComeFromTheEnvironment() {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2019-standard"))) {
            SqlInstanceSettings s = new SqlInstanceSettings("PROD", server.jdbcUrl(), SqlScenarios.USER, null, "QW_SQL_PASSWORD",
                    false, Duration.ofSeconds(5), Duration.ofSeconds(5), 1000);
            SqlProbeResult r = new JdbcSqlInstanceProbe(s, CLOCK, name -> name.equals("QW_SQL_PASSWORD") ? SqlScenarios.PASSWORD : null)
                    .probe(EnumSet.of(SqlSection.SERVER), null);
            assertThat(r.probes()).allMatch(ProbeStatus::ok);
            assertThat(server.logins()).singleElement().satisfies(l -> assertThat(l.applicationName()).isEqualTo("qatwatch"));
        }
    }

    @Test
    void encryptionStaysOnByDefaultAndTheHintNamesTheWayOut() {
        try (TdsTestServer server = TdsTestServer.start(SqlScenarios.scenario("sql2019-standard"))) {
            String urlWithoutEncryptFalse = "jdbc:sqlserver://127.0.0.1:" + server.port() + ";loginTimeout=3";
            SqlProbeResult r = new JdbcSqlInstanceProbe(SqlScenarios.settings(urlWithoutEncryptFalse, dir, 1000, Duration.ofSeconds(5)), CLOCK)
                    .probe(ALL, null);
            assertThat(r.probes()).singleElement().satisfies(p -> {
                assertThat(p.name()).isEqualTo("sqlserver:PROD/connect");
                assertThat(p.hint()).contains("trustServerCertificate");
            });
            assertThat(server.batches()).isEmpty();
        }
    }

    private static SqlInstanceSettings withPasswordFile(SqlInstanceSettings s, Path file) {
        return new SqlInstanceSettings(s.name(), s.jdbcUrl(), s.user(), file, null, s.trustServerCertificate(), s.loginTimeout(),
                s.queryTimeout(), s.backupPageSize());
    }
}
