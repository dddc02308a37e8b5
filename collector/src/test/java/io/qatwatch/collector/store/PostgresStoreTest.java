package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.Incoming;
import io.qatwatch.collector.store.ReportStore.Outcome;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import io.qatwatch.protocol.AgentReport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only PostgreSQL has to get right, several collectors writing one database at once: migrations run once,
 * a report or backup sent to two collectors is stored once, and store positions skip nothing that a slower
 * transaction commits late. Each "collector" here is a pool of its own on the same schema.
 */
class PostgresStoreTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    @Test
    void collectorsStartingTogetherMigrateOnce() throws Exception {
        StoreConfig config = StoreKinds.config(Database.Kind.POSTGRESQL);
        int collectors = 4;
        ExecutorService pool = Executors.newFixedThreadPool(collectors);
        CountDownLatch go = new CountDownLatch(1);
        List<Database> opened = new ArrayList<>();
        try {
            List<Future<Integer>> before = new ArrayList<>();
            for (int i = 0; i < collectors; i++) {
                Database db = StoreKinds.open(config, data);
                opened.add(db);
                before.add(pool.submit(() -> {
                    go.await();
                    new SqlReportStore(db);
                    new TokenStore(db);
                    return db.migrate("demo", List.of("CREATE TABLE demo_runs (n INTEGER); INSERT INTO demo_runs VALUES (1)"));
                }));
            }
            go.countDown();
            List<Integer> versions = new ArrayList<>();
            for (Future<Integer> f : before) {
                versions.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(versions).as("one collector found version 0, the others the step done").containsOnlyOnce(0)
                    .containsOnly(0, 1);
            Database db = opened.get(0);
            assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM demo_runs")).as("the step ran once").isOne();
            assertThat(StoreKinds.scalar(db, "SELECT version FROM schema_versions WHERE component = 'reports'")).isOne();
        } finally {
            pool.shutdownNow();
            for (Database db : opened) {
                db.close();
            }
        }
    }

    @Test
    void aReportSentToTwoCollectorsAtOnceIsStoredOnce() throws Exception {
        StoreConfig config = StoreKinds.config(Database.Kind.POSTGRESQL);
        try (Database a = StoreKinds.open(config, data); Database b = StoreKinds.open(config, data)) {
            SqlReportStore storeA = new SqlReportStore(a);
            SqlReportStore storeB = new SqlReportStore(b);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                int reports = 40;
                CountDownLatch go = new CountDownLatch(1);
                List<Future<List<Outcome>>> sent = new ArrayList<>();
                for (SqlReportStore store : List.of(storeA, storeB)) {
                    // each collector gets every report, in its own batches: a redelivery after a failover, at worst
                    sent.add(pool.submit(batches(store, reports, go)));
                }
                go.countDown();
                int stored = 0;
                int duplicates = 0;
                for (Future<List<Outcome>> f : sent) {
                    for (Outcome o : f.get(60, TimeUnit.SECONDS)) {
                        assertThat(o.error()).isNull();
                        if (o.stored().duplicate()) {
                            duplicates++;
                        } else {
                            stored++;
                        }
                    }
                }
                assertThat(stored).isEqualTo(reports);
                assertThat(duplicates).isEqualTo(reports);
                assertThat(StoreKinds.scalar(a, "SELECT count(*) FROM reports")).isEqualTo(reports);
                assertThat(StoreKinds.scalar(a, "SELECT count(*) FROM backups")).isEqualTo(reports * 3L);
                assertThat(StoreKinds.scalar(a, "SELECT sum(backups) FROM reports")).as("each backup counted once")
                        .isEqualTo(reports * 3L);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Every report, four hosts, in batches of five, as one collector's group commits would store them. */
    private static Callable<List<Outcome>> batches(SqlReportStore store, int reports, CountDownLatch go) {
        return () -> {
            go.await();
            List<Outcome> out = new ArrayList<>();
            for (int from = 1; from <= reports; from += 5) {
                List<Incoming> batch = new ArrayList<>();
                for (int n = from; n < from + 5; n++) {
                    AgentReport r = TestReports.numbered(n, 3, BASE);
                    batch.add(new Incoming("sql0" + (n % 4), r, BASE));
                }
                out.addAll(store.storeAll(batch));
            }
            return out;
        };
    }

    @Test
    void aBackupCommittedLateByASlowTransactionIsReadLateNeverSkipped() throws Exception {
        StoreConfig config = StoreKinds.config(Database.Kind.POSTGRESQL);
        try (Database db = StoreKinds.open(config, data)) {
            SqlReportStore store = new SqlReportStore(db);
            Instant since = BASE.minus(Duration.ofDays(1));
            long start = store.backupsAfter(0, since).upTo();
            try (Connection slow = io.qatwatch.collector.testing.Postgres.shared().connect(schemaOf(config))) {
                slow.setAutoCommit(false);
                try (PreparedStatement s = slow.prepareStatement("""
                        INSERT INTO backups(host, instance, backup_set_id, database_name, type, copy_only, started_at,
                          finished_at, tz_known, size_bytes, checksums) VALUES ('slow01', 'MSSQLSERVER', 1, 'db', 'D', 0, ?, ?, 1, 1, 1)""")) {
                    s.setLong(1, BASE.toEpochMilli());
                    s.setLong(2, BASE.plusSeconds(60).toEpochMilli());
                    s.executeUpdate();
                }
                // numbered after the slow transaction, committed before it
                store.store("fast01", TestReports.numbered(1, 2, BASE), BASE);
                ReportStore.BackupDelta first = store.backupsAfter(start, since);
                assertThat(first.backups()).as("nothing past the open transaction is read yet").isEmpty();
                slow.commit();
                ReportStore.BackupDelta second = store.backupsAfter(first.upTo(), since);
                assertThat(second.backups()).extracting(StoredBackup::host).containsExactlyInAnyOrder("slow01", "fast01", "fast01");
                assertThat(second.upTo()).isGreaterThan(first.upTo());
                assertThat(store.backupsAfter(second.upTo(), since).backups()).isEmpty();
            }
        }
    }

    private static String schemaOf(StoreConfig config) {
        return config.url().substring(config.url().indexOf("currentSchema=") + "currentSchema=".length());
    }
}
