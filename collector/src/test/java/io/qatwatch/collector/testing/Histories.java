package io.qatwatch.collector.testing;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** Builds synthetic but realistic msdb histories and fleet states for scenario tests. */
public final class Histories {

    public static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final AtomicLong IDS = new AtomicLong(1000);

    private Histories() {
    }

    /**
     * Nightly fulls to URL for 14 nights from 2026-11-01 (each starting 01:00 UTC, an hour long): SalesDW's to 4 URLs
     * wrote 380e9 + 1e9·k bytes on night k, Billing's to one URL 90e9 + 0.5e9·k, HR's 95e9 + 0.9e9·k to URLs not known
     * (an agent before issue 15). {@code JobEvidenceRulesTest} works out by hand when each reaches its ceiling.
     */
    public static List<BackupRecord> growingUrlFulls() {
        List<BackupRecord> backups = new ArrayList<>();
        for (int k = 0; k < 14; k++) {
            Instant start = Instant.parse("2026-11-01T01:00:00Z").plus(java.time.Duration.ofDays(k));
            backups.add(toUrl(100 + k, "SalesDW", start, 380_000_000_000L + 1_000_000_000L * k, 4));
            backups.add(toUrl(200 + k, "Billing", start, 90_000_000_000L + 500_000_000L * k, 1));
            backups.add(toUrl(300 + k, "HR", start, 95_000_000_000L + 900_000_000L * k, null));
        }
        return backups;
    }

    /** A full to {@code urls} URLs (null: not known) that wrote {@code compressed} bytes of three times as many. */
    public static BackupRecord toUrl(long id, String db, Instant start, long compressed, Integer urls) {
        return new BackupRecord(id, db, guid(db), "D", false, start, start.plusSeconds(3600), true, compressed * 3,
                compressed, "MS_XPRESS", true, "NO_Encryption", null, null, "URL", "URL", guid(db), false, urls);
    }

    /** A local Berlin time as an instant. */
    public static Instant berlin(LocalDate date, int hour, int minute) {
        return date.atTime(LocalTime.of(hour, minute)).atZone(BERLIN).toInstant();
    }

    public static BackupRecord backup(String db, String type, Instant start, long seconds, long bytes, String algorithm, String target) {
        return new BackupRecord(IDS.incrementAndGet(), db, guid(db), type, false, start, start.plusSeconds(seconds), true,
                bytes, bytes / 3, algorithm, true, "NO_Encryption", null, null, target.equals("URL") ? "URL" : "DISK", target);
    }

    public static BackupRecord copyOnly(String db, String type, Instant start, long seconds, long bytes) {
        return new BackupRecord(IDS.incrementAndGet(), db, guid(db), type, true, start, start.plusSeconds(seconds), true,
                bytes, bytes / 3, "MS_XPRESS", true, "NO_Encryption", null, null, "DISK", "UNC");
    }

    public static BackupRecord encrypted(String db, Instant start, long seconds, long bytes, String keyAlgorithm, String thumbprint) {
        return new BackupRecord(IDS.incrementAndGet(), db, guid(db), "D", false, start, start.plusSeconds(seconds), true,
                bytes, bytes / 3, "QAT_DEFLATE", true, keyAlgorithm, thumbprint, "CERTIFICATE", "DISK", "LOCAL");
    }

    /** A stable fake guid per database name, as msdb's database_guid would be. */
    public static String guid(String db) {
        return java.util.UUID.nameUUIDFromBytes(db.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }

    public static DatabaseInfo db(String name, String recovery) {
        return new DatabaseInfo(name, guid(name), recovery, "NONE", null, null, null);
    }

    public static DatabaseInfo agDb(String name, String ag, String role) {
        return new DatabaseInfo(name, guid(name), "FULL", "NONE", ag, role, "SECONDARY".equals(role));
    }

    public static RunningBackup running(String db, Instant started, double percent, long elapsedSeconds) {
        return new RunningBackup(61, "BACKUP DATABASE", db, started, percent, elapsedSeconds, null);
    }

    public static AcceleratorStatus qat(String mode, String reason) {
        return new AcceleratorStatus("QAT", mode, reason, "HARDWARE".equals(mode), "1.9.0-0008", "2.5.0.0014");
    }

    public static InstanceState instance(String name, Instant collectedAt, List<DatabaseInfo> dbs, List<BackupRecord> backups,
                                  List<RunningBackup> running) {
        return new InstanceState(name, collectedAt, null, List.of(), List.of(), dbs, List.of(), List.of(), running, backups);
    }

    public static HostState host(String host, Instant lastSeen, InstanceState... instances) {
        return new HostState(host, Set.of(), lastSeen, null, null, null, List.of(instances));
    }

    /** Rule and database of each alert, for exact expectations. */
    public static List<String> fired(List<Alert> alerts) {
        List<String> out = new ArrayList<>();
        for (Alert a : alerts) {
            out.add(a.rule() + " " + a.where() + (a.subject() == null ? "" : " [" + a.subject() + "]"));
        }
        out.sort(null);
        return out;
    }
}
