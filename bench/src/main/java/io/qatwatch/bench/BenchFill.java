package io.qatwatch.bench;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import java.sql.Statement;
import java.util.List;

/** What the benches that fill a SQLite store through the collector's store code share. */
final class BenchFill {

    private BenchFill() {
    }

    /** A bench fill: a crash loses nothing worth keeping, so no fsync; a large page cache for the indexes. */
    static void fast(Database db) throws Exception {
        pragmas(db, "PRAGMA synchronous=OFF", "PRAGMA cache_size=-262144");
    }

    /** Stores one batch in one transaction; returns the backup rows it added, or throws a report's error. */
    static long store(SqlReportStore store, List<ReportStore.Incoming> batch) throws Exception {
        long rows = 0;
        for (ReportStore.Outcome o : store.storeAll(batch)) {
            if (o.error() != null) {
                throw o.error();
            }
            rows += o.stored().newBackups();
        }
        return rows;
    }

    /** Copies the WAL into the database and empties it, so the measured process starts on a checkpointed store. */
    static void checkpoint(Database db) throws Exception {
        pragmas(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    }

    private static void pragmas(Database db, String... pragmas) throws Exception {
        db.write(c -> {
            try (Statement s = c.createStatement()) {
                for (String p : pragmas) {
                    s.execute(p);
                }
            }
            return null;
        });
    }
}
