package io.qatwatch.bench;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
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

    /**
     * Stores {@code agents} simulated agents' history through {@link SqlReportStore#storeAll}, one report each
     * ({@code nights} nights of one backup per database, then each database's latest log backup), {@code batch}
     * agents per transaction; report ids {@code <name>-<i>-fill}. Returns the backup rows stored.
     */
    static long history(SqlReportStore store, int agents, int nights, Instant now, int batch, String name, BenchLog log)
            throws Exception {
        Instant firstNight = SimulatedAgent.firstNight(now, nights);
        long rows = 0;
        List<ReportStore.Incoming> pending = new ArrayList<>(batch);
        for (int i = 0; i < agents; i++) {
            SimulatedAgent agent = new SimulatedAgent(i);
            List<BackupRecord> backups = new ArrayList<>(agent.nightlyHistory(nights, firstNight, now));
            backups.addAll(agent.latestLogBackups(backups.size() + 1, now));
            pending.add(new ReportStore.Incoming(agent.host(),
                    agent.report(name + "-" + i + "-fill", now, backups, backups.size()), now));
            if (pending.size() == batch || i == agents - 1) {
                rows += store(store, pending);
                pending.clear();
            }
            if ((i + 1) % 10_000 == 0) {
                log.say(name + ": stored " + (i + 1) + " of " + agents + " agents");
            }
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
