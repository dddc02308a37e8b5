package io.qatwatch.collector.analysis;

import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.chain.RestorePlanner;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A database's restore plan read from the store: its backups on every replica (an availability database's copies share
 * its {@code group_database_id}) since a time, every log backup listed. Blocking: it reads the store.
 */
public final class RestorePlans {

    private RestorePlans() {
    }

    /**
     * The database as the store knows it, with its plan.
     *
     * @param replicas {@code host/instance} of every copy whose backups were read
     * @param plan     empty when no replica holds a full with LSNs (or the agents predate issue 31)
     * @param recoveryModelChanges the changes of recovery model the backups show, oldest first
     */
    public record Found(String host, String instance, DatabaseInfo database, List<String> replicas, Optional<RestorePlan> plan,
                        List<RecoveryModelChange> recoveryModelChanges) {
    }

    /**
     * The recovery model changed between two backups (msdb records each backup's {@code recovery_model}), or since the
     * newest one ({@code sys.databases} says another now: {@code by} null).
     *
     * @param after the finish of the last backup in the old model; {@code by} the first in the new one
     */
    public record RecoveryModelChange(String from, String to, Instant after, Instant by, String byReplica) {
    }

    /** Empty when the host, instance or database is unknown (names compare case-insensitively). */
    public static Optional<Found> read(ReportStore store, String host, String instance, String database, Instant since)
            throws Exception {
        Optional<FleetRow> row = store.fleetRow(host);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        SqlInstanceSnapshot snap = row.get().instances().stream().filter(i -> i.name().equalsIgnoreCase(instance)).findFirst()
                .orElse(null);
        DatabaseInfo d = snap == null ? null : find(snap, database);
        if (d == null) {
            return Optional.empty();
        }
        Map<String, List<BackupRecord>> byReplica = new LinkedHashMap<>();
        List<String> replicas = new ArrayList<>();
        if (d.groupDatabaseId() == null) {
            read(store, row.get().host(), snap.name(), d, byReplica, replicas, since);
        } else {
            for (FleetRow r : store.fleet()) {
                for (SqlInstanceSnapshot s : r.instances()) {
                    for (DatabaseInfo copy : s.databases() == null ? List.<DatabaseInfo>of() : s.databases()) {
                        if (d.groupDatabaseId().equalsIgnoreCase(String.valueOf(copy.groupDatabaseId()))) {
                            read(store, r.host(), s.name(), copy, byReplica, replicas, since);
                        }
                    }
                }
            }
        }
        return Optional.of(new Found(row.get().host(), snap.name(), d, List.copyOf(replicas), RestorePlanner.ofBackups(byReplica),
                changes(byReplica, d.recoveryModel())));
    }

    /** The model changes in the backups of every replica, by finish, and one to the model {@code now} if it differs. */
    static List<RecoveryModelChange> changes(Map<String, List<BackupRecord>> byReplica, String now) {
        List<Map.Entry<String, BackupRecord>> all = new ArrayList<>();
        byReplica.forEach((scope, backups) -> backups.forEach(b -> all.add(Map.entry(scope, b))));
        all.sort(java.util.Comparator.comparing(e -> e.getValue().finishedAt()));
        List<RecoveryModelChange> out = new ArrayList<>();
        String model = null;
        Instant last = null;
        for (Map.Entry<String, BackupRecord> e : all) {
            String m = model(e.getValue().recoveryModel());
            if (m == null) {
                continue;
            }
            if (model != null && !m.equals(model)) {
                out.add(new RecoveryModelChange(model, m, last, e.getValue().finishedAt(), e.getKey()));
            }
            model = m;
            last = e.getValue().finishedAt();
        }
        String current = model(now);
        if (model != null && current != null && !current.equals(model)) {
            out.add(new RecoveryModelChange(model, current, last, null, null));
        }
        return List.copyOf(out);
    }

    /** msdb spells BULK-LOGGED, sys.databases BULK_LOGGED: one spelling. */
    private static String model(String m) {
        return m == null || m.isBlank() ? null : m.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    }

    private static DatabaseInfo find(SqlInstanceSnapshot s, String name) {
        if (s.databases() == null) {
            return null;
        }
        return s.databases().stream().filter(d -> d.name() != null && d.name().equalsIgnoreCase(name)).findFirst().orElse(null);
    }

    /**
     * The copy's backups: by its database_guid when both sides know one (a re-created database is another; a renamed one's
     * backups under its old name are its own), else by its name.
     */
    private static void read(ReportStore store, String host, String instance, DatabaseInfo copy,
                             Map<String, List<BackupRecord>> into, List<String> replicas, Instant since) throws Exception {
        String scope = host + "/" + instance;
        replicas.add(scope);
        List<BackupRecord> backups = new ArrayList<>();
        for (StoredBackup sb : store.backups(host, instance, since)) {
            BackupRecord b = sb.backup();
            boolean mine = copy.databaseGuid() != null && b.databaseGuid() != null
                    ? copy.databaseGuid().equalsIgnoreCase(b.databaseGuid())
                    : b.databaseName() != null && b.databaseName().equalsIgnoreCase(copy.name());
            if (mine) {
                backups.add(b);
            }
        }
        into.put(scope, backups);
    }
}
