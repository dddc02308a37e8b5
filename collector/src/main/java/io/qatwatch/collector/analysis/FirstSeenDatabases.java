package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.ReportStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An instance's databases with the time the store first saw them where an older agent sent no {@code create_date}. */
final class FirstSeenDatabases {

    private FirstSeenDatabases() {
    }

    /**
     * The instance's databases with the first-seen time in place of a missing {@code create_date} (agents before issue
     * 31), from the store's database events of the lookback period; null (read nothing) when every database has one.
     */
    static List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> firstSeen(ReportStore store, InstanceSlot slot,
            Instant since) throws Exception {
        return lacksCreateDate(slot) ? firstSeen(slot, store.databaseEvents(slot.host, slot.sections.name(), since)) : null;
    }

    /** Whether a database of the instance has no {@code create_date} (an agent before issue 31). */
    static boolean lacksCreateDate(InstanceSlot slot) {
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs = slot.sections.databases();
        return dbs != null && dbs.stream().anyMatch(d -> d.createdAt() == null);
    }

    /** As {@link #firstSeen(ReportStore, InstanceSlot, Instant)}, from the instance's database {@code events} read already. */
    static List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> firstSeen(InstanceSlot slot,
            List<DatabaseEvent> events) {
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs = slot.sections.databases();
        if (!lacksCreateDate(slot)) {
            return null;
        }
        Map<String, Instant> appeared = new HashMap<>();
        for (DatabaseEvent e : events) {
            if (DatabaseEvent.APPEARED.equals(e.kind())) {
                appeared.put(e.database(), e.at());
            }
        }
        if (appeared.isEmpty()) {
            return null;
        }
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> out = new ArrayList<>(dbs.size());
        for (var d : dbs) {
            Instant at = d.createdAt() == null ? appeared.get(d.name()) : null;
            out.add(at == null ? d : new io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo(d.name(), d.databaseGuid(),
                    d.recoveryModel(), d.encryptionState(), d.availabilityGroup(), d.replicaRole(), d.preferredBackupReplica(),
                    d.familyGuid(), d.groupDatabaseId(), d.availabilityGroupId(), d.autoClose(), d.tdeEncryptorThumbprint(),
                    d.tdeEncryptorType(), at));
        }
        return List.copyOf(out);
    }
}
