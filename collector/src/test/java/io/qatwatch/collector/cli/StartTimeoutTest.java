package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.StoreConfig;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start's wait grows with the SQLite store its quick_check reads (docs/benchmarks.md: up to ~30 s per GB). */
class StartTimeoutTest {

    @TempDir
    Path data;

    @Test
    void aNewStoreWaitsTheBaseMinute() {
        assertThat(StartTimeout.of(CollectorConfig.defaults(), data)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void everyStartedGibOfTheFileAndItsLogAddsAMinute() throws Exception {
        // sparse files: their size is what counts, as quick_check reads every page of it
        try (RandomAccessFile db = new RandomAccessFile(data.resolve("qatwatch.db").toFile(), "rw");
             RandomAccessFile wal = new RandomAccessFile(data.resolve("qatwatch.db-wal").toFile(), "rw")) {
            db.setLength(2L << 30);
            wal.setLength(1);
        }
        assertThat(StartTimeout.of(CollectorConfig.defaults(), data)).isEqualTo(Duration.ofSeconds(60 + 3 * 60));
        assertThat(StartTimeout.forStoreBytes(1)).isEqualTo(Duration.ofSeconds(120));
        assertThat(StartTimeout.forStoreBytes(1L << 30)).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void aPostgresStoreIsNotCheckedAtStartSoItsWaitDoesNotGrow() throws Exception {
        try (RandomAccessFile db = new RandomAccessFile(data.resolve("qatwatch.db").toFile(), "rw")) {
            db.setLength(5L << 30);
        }
        CollectorConfig pg = CollectorConfig.defaults().withStore(
                StoreConfig.postgresql("jdbc:postgresql://127.0.0.1/qatwatch", "qatwatch", null, "PGPASS", 4));
        assertThat(StartTimeout.of(pg, data)).isEqualTo(Duration.ofSeconds(60));
    }
}
