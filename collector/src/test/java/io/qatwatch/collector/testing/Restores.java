package io.qatwatch.collector.testing;

import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reports with observed restores (issue 30): the restores a host ran, msdb's record of them, the backups they read. */
public final class Restores {

    private static final long GIB = 1L << 30;

    private Restores() {
    }

    /** A full ({@code type} D), differential (I) or log (L) backup of {@code db} with LSNs, {@code seconds} long. */
    public static BackupRecord backup(long id, String db, String type, Instant start, long seconds, long bytes,
                                      Long compressed, String algorithm, String target, String firstLsn, String lastLsn,
                                      String checkpointLsn, String databaseBackupLsn, String differentialBaseLsn) {
        return new BackupRecord(id, db, Histories.guid(db), type, false, start, start.plusSeconds(seconds), true, bytes,
                compressed, algorithm, true, null, null, null, "DISK", target, "family-" + db, false, 1, firstLsn, lastLsn,
                checkpointLsn, databaseBackupLsn, differentialBaseLsn, null, "FULL", false, false,
                "\\\\backup01\\sql\\" + db + "_" + type + "_" + id + ".bak", null);
    }

    /** An observed RESTORE of {@code db}: seen last {@code elapsed} seconds after its start at {@code percent} percent. */
    public static ObservedRestore observed(String db, String command, Instant start, long elapsed, double percent) {
        return new ObservedRestore(db, command, start, start.plusSeconds(elapsed), elapsed, percent,
                new BackupCpu(elapsed * 400, elapsed * 410, 3, start.plusSeconds(5), start.plusSeconds(elapsed), elapsed * 900,
                        3, true, null));
    }

    /** msdb's restorehistory row of a restore of {@code destination} at {@code at} from a backup finished at {@code backupFinished}. */
    public static RestoreRecord history(long id, String destination, Instant at, String type, String sourceServer,
                                        String sourceDb, Instant backupFinished, String backupType) {
        return new RestoreRecord(id, destination, at, type, sourceServer, sourceDb, Histories.guid(sourceDb),
                "family-" + sourceDb, backupFinished, backupType);
    }

    /** An instance named {@code name} whose server calls itself {@code serverName}. */
    public static SqlInstanceSnapshot instance(String name, String serverName, Instant at, List<DatabaseInfo> databases,
                                               List<BackupRecord> backups, List<RestoreRecord> restores,
                                               List<ObservedRestore> observed) {
        ServerInfo server = new ServerInfo("16.0.4135.4", 16, "Enterprise Edition", 3, serverName.split("\\\\")[0], serverName,
                false);
        return new SqlInstanceSnapshot(name, at, server, List.of(), List.of(), databases, backups, List.of(), List.of(),
                backups == null || backups.isEmpty() ? null : backups.stream().mapToLong(BackupRecord::backupSetId).max().getAsLong(),
                null, null, null, null, null, null, null, null, restores,
                restores == null || restores.isEmpty() ? null : restores.stream().mapToLong(RestoreRecord::restoreHistoryId).max()
                        .getAsLong(), observed);
    }

    /** A report of {@code host} with {@code instances}, under a fresh id. */
    public static AgentReport report(String host, Instant at, SqlInstanceSnapshot... instances) {
        return new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), at,
                new AgentInfo(host, "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instances), List.of());
    }

    /**
     * Six nights before {@code now} on sql01/PROD: a full of Sales (100 GiB of data) each night, MS_XPRESS on the first three, QAT_DEFLATE on
     * the last three, each QAT_DEFLATE one restored into Sales_check the next hour, in 200, 400 and 300 seconds; log
     * backups every hour of the last night, and a report at {@code now}. Without {@code restores} the same backups, nothing
     * restored.
     */
    public static void sixNights(io.qatwatch.collector.store.ReportStore store, Instant now, boolean restores) throws Exception {
        long lsn = 1000;
        long id = 1;
        long[] restoreSeconds = {200, 400, 300};
        for (int n = 6; n >= 1; n--) {
            Instant night = now.minus(Duration.ofDays(n)).minus(Duration.ofHours(5));
            boolean qat = n <= 3;
            List<BackupRecord> backups = new ArrayList<>();
            long checkpoint = lsn + 5;
            backups.add(backup(id++, "Sales", "D", night, 600, 100 * GIB, 40 * GIB, qat ? "QAT_DEFLATE" : "MS_XPRESS", "UNC",
                    String.valueOf(lsn), String.valueOf(lsn + 10), String.valueOf(checkpoint), String.valueOf(checkpoint), null));
            lsn += 10;
            if (n == 1) {
                for (int h = 1; h <= 4; h++) {
                    backups.add(backup(id++, "Sales", "L", night.plus(Duration.ofHours(h)), 10, GIB, GIB / 4, "QAT_DEFLATE",
                            "UNC", String.valueOf(lsn), String.valueOf(lsn + 10), String.valueOf(lsn), String.valueOf(checkpoint),
                            null));
                    lsn += 10;
                }
            }
            List<RestoreRecord> history = new ArrayList<>();
            List<ObservedRestore> seen = new ArrayList<>();
            if (qat && restores) {
                Instant start = night.plus(Duration.ofMinutes(30));
                BackupRecord restored = backups.get(0);
                history.add(history(n, "Sales_check", start.plusSeconds(1), "D", "SQL01\\PROD", "Sales", restored.finishedAt(),
                        "D"));
                seen.add(observed("Sales_check", "RESTORE DATABASE", start, restoreSeconds[3 - n], 100.0));
            }
            Instant at = night.plus(Duration.ofHours(6));
            store.store("sql01", report("sql01", at, instance("PROD", "SQL01\\PROD", at, List.of(Histories.db("Sales", "FULL")),
                    backups, history, seen)), at);
        }
        // and the agent still reports now: nothing new
        store.store("sql01", report("sql01", now, instance("PROD", "SQL01\\PROD", now, List.of(Histories.db("Sales", "FULL")),
                List.of(), List.of(), List.of())), now);
    }
}
