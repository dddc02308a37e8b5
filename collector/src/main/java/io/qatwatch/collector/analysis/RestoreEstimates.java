package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A database's {@link RestoreEstimate} read from the store, for the restore-plan API and the database page: its plan, the
 * host's backups (its backup speeds) and the fleet's observed restores. Blocking.
 */
public final class RestoreEstimates {

    private RestoreEstimates() {
    }

    /**
     * The estimate of {@code found}'s plan restored on its own host; null when it has no plan.
     *
     * @param compression the latest evaluation's compression (the restore burden); null before the first
     */
    public static RestoreEstimate read(ReportStore store, RestorePlans.Found found, Instant since,
                                       FleetCompression compression) throws Exception {
        if (found.plan().isEmpty()) {
            return null;
        }
        // the host's own backups: its backup speeds, where no restore of an algorithm was measured
        List<BackupRecord> own = new ArrayList<>();
        for (StoredBackup b : store.backups(found.host(), found.instance(), since)) {
            own.add(b.backup());
        }
        return RestoreEstimate.of(found.host(), found.plan().get(), own,
                RestoreSpeeds.of(store.observedRestores(since)), compression);
    }
}
