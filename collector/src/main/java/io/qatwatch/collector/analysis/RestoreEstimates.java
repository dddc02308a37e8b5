package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A database's {@link RestoreEstimate} read from the store, for the restore-plan API and the database page: every backup
 * of its plan as stored, the host's backups (its backup speeds) and the fleet's observed restores. Blocking.
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
        Map<String, Map<Long, BackupRecord>> byScope = new HashMap<>();
        List<BackupRecord> own = new ArrayList<>();
        for (String scope : found.replicas()) {
            int slash = scope.indexOf('/');
            String host = scope.substring(0, slash);
            String instance = scope.substring(slash + 1);
            Map<Long, BackupRecord> ids = new HashMap<>();
            for (StoredBackup b : store.backups(host, instance, since)) {
                ids.put(b.backup().backupSetId(), b.backup());
                if (host.equals(found.host()) && instance.equals(found.instance())) {
                    own.add(b.backup());
                }
            }
            byScope.put(scope, ids);
        }
        return RestoreEstimate.of(found.host(), found.plan().get(),
                b -> byScope.getOrDefault(b.scope(), Map.of()).get(b.backupSetId()), own,
                RestoreSpeeds.of(store.observedRestores(since)), compression);
    }
}
