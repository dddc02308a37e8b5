package io.qatwatch.collector.cli;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.StoreConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How long a start may take before the command gives up. A SQLite store is checked page by page at start
 * ({@code PRAGMA quick_check}: measured at up to about 30 s per GB on a busy machine with a cold page cache, see
 * docs/benchmarks.md), so the wait grows with the store: 60 s, and 60 s more for every started GiB of the file and its
 * write-ahead log. A PostgreSQL store is not checked at start: 60 s.
 */
final class StartTimeout {

    static final Duration BASE = Duration.ofSeconds(60);
    static final Duration PER_GIB = Duration.ofSeconds(60);
    private static final long GIB = 1L << 30;

    private StartTimeout() {
    }

    static Duration of(CollectorConfig config, Path dataDir) {
        if (!StoreConfig.SQLITE.equals(config.store().kind())) {
            return BASE;
        }
        long bytes = size(dataDir.resolve("qatwatch.db")) + size(dataDir.resolve("qatwatch.db-wal"));
        return forStoreBytes(bytes);
    }

    static Duration forStoreBytes(long bytes) {
        long startedGib = (bytes + GIB - 1) / GIB;
        return BASE.plus(PER_GIB.multipliedBy(startedGib));
    }

    /** The sentence a start that ran out of time prints, so that a large store's check is not mistaken for a hang. */
    static String exceeded(Duration waited) {
        return "did not start within " + waited.toSeconds() + " s; a SQLite store is checked at start (PRAGMA quick_check,"
                + " up to about 30 s per GB on a busy machine): run `sqlite3 DATA_DIR/qatwatch.db 'PRAGMA quick_check'` once"
                + " by hand to see its time";
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
