package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.util.Optional;

/**
 * When a database's backups were last restored anywhere in the fleet: each host's {@code msdb.dbo.restorehistory} names
 * the backup set it restored, whose family GUID (or database GUID) is the database's. What restore-untested and the
 * status page read. Pure.
 */
public final class RestoreTests {

    private RestoreTests() {
    }

    /** The newest restore of a database's backups, and the host and instance that performed it. */
    public record RestoreTest(RestoreRecord restore, String host, String instance) {
    }

    /** The newest restore of {@code db}'s backups in the fleet (RESTORE VERIFYONLY does not count); empty when none. */
    public static Optional<RestoreTest> last(FleetAnalysis fleet, DatabaseInfo db) {
        RestoreTest best = null;
        for (InstanceAnalysis ia : fleet.instances()) {
            for (RestoreRecord r : ia.instance().jobs().restores()) {
                if ("V".equalsIgnoreCase(r.restoreType()) || !restores(r, db)) {
                    continue;
                }
                if (best == null || r.restoredAt().isAfter(best.restore().restoredAt())) {
                    best = new RestoreTest(r, ia.host().host(), ia.instance().name());
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** Whether {@code r} restored a backup of {@code db}: the same family GUID, or the same database GUID. */
    public static boolean restores(RestoreRecord r, DatabaseInfo db) {
        return db.familyGuid() != null && db.familyGuid().equalsIgnoreCase(r.familyGuid())
                || db.databaseGuid() != null && db.databaseGuid().equalsIgnoreCase(r.sourceDatabaseGuid());
    }
}
