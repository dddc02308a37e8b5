package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store's writer: WAL checkpoints off the committing writer, and callers served in turn. */
class SqliteDatabaseTest {

    @TempDir
    Path data;

    /**
     * The writer never checkpoints (auto-checkpoint is off), so only the checkpointer can keep the WAL from growing
     * with every commit: 48 MB of steady commits, a reader between them, must leave a WAL of less than half that. Steady,
     * not a burst: a commit every 2 ms spans several of the checkpointer's 200 ms rounds on any machine (back to back,
     * a fast disk committed all 48 MB within three rounds, before the checkpointer could restart the WAL).
     */
    @Test
    void theCheckpointerKeepsTheWalSmallUnderSteadyCommits() throws Exception {
        try (SqliteDatabase db = SqliteDatabase.open(data)) {
            db.migrate("demo", List.of("CREATE TABLE demo (id INTEGER PRIMARY KEY, payload BLOB)"));
            byte[] payload = new byte[64 * 1024];
            long written = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int round = 0; written < 48L * 1024 * 1024 && System.nanoTime() < until; round++) {
                int id = round;
                db.transaction(c -> {
                    try (PreparedStatement s = c.prepareStatement("INSERT INTO demo(id, payload) VALUES (?, ?)")) {
                        s.setInt(1, id);
                        s.setBytes(2, payload);
                        return s.executeUpdate();
                    }
                });
                written += payload.length;
                // a reader between commits, as the API and the alert stage read
                int rows = db.read(c -> {
                    try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM demo");
                         ResultSet rs = s.executeQuery()) {
                        rs.next();
                        return rs.getInt(1);
                    }
                });
                assertThat(rows).isEqualTo(round + 1);
                TimeUnit.MILLISECONDS.sleep(2);
            }
            long wal = Files.size(data.resolve("qatwatch.db-wal"));
            assertThat(written).as("bytes committed").isGreaterThanOrEqualTo(48L * 1024 * 1024);
            assertThat(wal).as("WAL bytes after %d MB committed", written >> 20).isLessThan(24L * 1024 * 1024);
        }
    }

    /** A caller that keeps asking for the writer cannot shut out one that waits: they take it in turn. */
    @Test
    void callersTakeTheWriterInTurn() throws Exception {
        try (SqliteDatabase db = SqliteDatabase.open(data)) {
            List<String> order = new ArrayList<>();
            CountDownLatch waiting = new CountDownLatch(1);
            Thread other = new Thread(() -> {
                try {
                    waiting.await();
                    db.write(c -> order.add("other"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            other.start();
            db.write(c -> {
                waiting.countDown();
                // hold the writer until the other caller is queued for it
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!queued(db) && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                return order.add("first");
            });
            // asked again at once: the waiting caller goes first
            db.write(c -> order.add("again"));
            other.join(10_000);
            assertThat(order).containsExactly("first", "other", "again");
        }
    }

    private static boolean queued(SqliteDatabase db) {
        return db.writersWaiting() > 0;
    }
}
