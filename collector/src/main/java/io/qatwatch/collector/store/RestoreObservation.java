package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import java.time.Instant;

/**
 * A RESTORE the agent's polls saw run and end (issue 30), as stored, with the backup set it restored when the store
 * could tell: msdb's {@code restorehistory} row of the same database that began within the run, and that row's backup
 * set found among the fleet's stored backups.
 *
 * @param databaseName    the database restored; null when the agent did not say
 * @param command         {@code RESTORE DATABASE} or {@code RESTORE LOG}
 * @param lastSeenAt      the last poll that saw it run: it ended between that poll and the next
 * @param elapsedSeconds  {@code total_elapsed_time} at that poll
 * @param percentComplete {@code percent_complete} at that poll
 * @param cpu             the request's and the process's CPU, as the agent sent them; null when not observed
 * @param restoredBackup  the backup set it restored (its host and instance are those that took it); null when unknown
 */
public record RestoreObservation(String host, String instance, String databaseName, String command, Instant startedAt,
                                 Instant lastSeenAt, long elapsedSeconds, double percentComplete, BackupCpu cpu,
                                 StoredBackup restoredBackup) {

    /** Below this the run is mostly unseen: its length is not told from one poll. */
    public static final double MIN_PERCENT_FOR_SPEED = 50.0;

    /**
     * How long it ran, in seconds: {@code elapsedSeconds} scaled by {@code percentComplete} (the rest ran between the last
     * poll and the next); null when the polls saw less than {@link #MIN_PERCENT_FOR_SPEED} percent of it or no time.
     */
    public Double durationSeconds() {
        if (percentComplete < MIN_PERCENT_FOR_SPEED || elapsedSeconds <= 0) {
            return null;
        }
        return elapsedSeconds * 100.0 / Math.min(100.0, percentComplete);
    }

    /**
     * MB/s of the restored backup's {@code backup_size} (1 MB = 2^20 bytes), as backup speeds are measured; null when
     * the backup set or the duration is unknown.
     */
    public Double mbps() {
        Double seconds = durationSeconds();
        if (seconds == null || restoredBackup == null || restoredBackup.backup().backupSizeBytes() <= 0) {
            return null;
        }
        return restoredBackup.backup().backupSizeBytes() / 1_048_576.0 / seconds;
    }
}
