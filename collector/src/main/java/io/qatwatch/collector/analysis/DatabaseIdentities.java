package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Which database a database row or a backup of one instance is, across the fleet. A replica of an availability
 * database is seeded by RESTORE, and "RESTORE always generates a new GUID when you restore a database that does not
 * yet exist" (sys.database_recovery_status), so {@code database_guid} differs between replicas of one database. The
 * identity of an availability database is the group's own, {@code sys.databases.group_database_id}, the same on every
 * replica (or, from agents that did not send it, the group's name and the database's name, which are the same on
 * every replica); {@code family_guid}, kept through restores, cross-checks a backup against it. Outside availability
 * groups the identity is {@code database_guid}, which tells a database from an earlier one of the same name; when the
 * agent did not read it (AUTO_CLOSE databases), the instance and the name. Pure.
 */
public final class DatabaseIdentities {

    private final String scope;
    /** Each database by lower-case name: compact (immutable), and its names are the ones {@link #tde} keys by too. */
    private Map<String, DatabaseInfo> byName = Map.of();
    /** Each row's key, by identity: the alert stage keeps one of these per instance and asks every minute. */
    private final Map<DatabaseInfo, String> keys = new java.util.IdentityHashMap<>();
    private Map<String, Boolean> tde;
    private Object tdeOf;

    private DatabaseIdentities(String scope) {
        this.scope = scope;
    }

    /** The identities of {@code instance}'s databases; {@code scope} is {@code host/instance}. */
    public static DatabaseIdentities of(String scope, InstanceState instance) {
        DatabaseIdentities ids = new DatabaseIdentities(scope);
        Map<String, DatabaseInfo> byName = new HashMap<>();
        for (DatabaseInfo d : instance.databases()) {
            byName.put(lower(d.name()), d);
        }
        ids.byName = Map.copyOf(byName);
        return ids;
    }

    /**
     * The same identities with each lower-case name {@code canon} gives instead of its own copy: the alert stage holds
     * one lower-case name per database, shared with the spill tails' (which are keyed by the same names).
     */
    void shareNames(UnaryOperator<String> canon) {
        Map<String, DatabaseInfo> shared = new HashMap<>();
        byName.forEach((name, d) -> shared.put(canon.apply(name), d));
        byName = Map.copyOf(shared);
        tde = null;
    }

    /**
     * Each database's TDE state by lower-case name ({@link FleetAnalysis#tde}), worked out once: the compression
     * comparison's memo compares it every minute.
     */
    Map<String, Boolean> tde(InstanceState instance) {
        if (tde == null || tdeOf != instance.databases()) {
            // held per instance: keyed by the names byName holds, not by copies of them
            Map<String, Boolean> states = new HashMap<>(FleetAnalysis.tde(instance));
            Map<String, Boolean> shared = new HashMap<>();
            for (String name : byName.keySet()) {
                Boolean on = states.remove(name);
                if (on != null) {
                    shared.put(name, on);
                }
            }
            shared.putAll(states);
            tde = Map.copyOf(shared);
            tdeOf = instance.databases();
        }
        return tde;
    }

    /** The identity of one of the instance's databases, worked out once for each row (it depends on the row alone). */
    public String key(DatabaseInfo d) {
        return keys.computeIfAbsent(d, this::keyOf);
    }

    private String keyOf(DatabaseInfo d) {
        if (d.groupDatabaseId() != null) {
            return "ag-database:" + lower(d.groupDatabaseId());
        }
        if (d.availabilityGroup() != null) {
            return "ag:" + lower(d.availabilityGroup()) + "/" + lower(d.name());
        }
        if (d.databaseGuid() != null) {
            return lower(d.databaseGuid());
        }
        return scope + "/" + d.name();
    }

    /**
     * The identity of the database a backup taken on this instance belongs to: the database of that name, unless the
     * backup's GUIDs show another one. Outside a group, a backup of another database_guid is an earlier database of
     * the same name (dropped and created again); in a group, one of another family_guid is a database of other origin
     * that had the name before (restored over, or before it was joined). Such a backup keeps an identity of its own.
     */
    public String key(BackupRecord b) {
        DatabaseInfo d = byName.get(lower(b.databaseName()));
        if (d == null) {
            return own(b);
        }
        if (inGroup(d)) {
            boolean otherFamily = b.familyGuid() != null && d.familyGuid() != null && !b.familyGuid().equalsIgnoreCase(d.familyGuid());
            return otherFamily ? own(b) + "#family:" + lower(b.familyGuid()) : key(d);
        }
        if (d.databaseGuid() == null || b.databaseGuid() == null || b.databaseGuid().equalsIgnoreCase(d.databaseGuid())) {
            return key(d);
        }
        return own(b);
    }

    /**
     * The identity of a backup of no database the instance holds now, built only for such a backup: most backups are of
     * the database of their name, whose key is worked out once, and a restart keys every backup of every digest.
     */
    private String own(BackupRecord b) {
        return b.databaseGuid() != null ? lower(b.databaseGuid()) : scope + "/" + b.databaseName();
    }

    /** Whether {@code b} is a backup of a database this instance holds as an availability-group secondary. */
    public boolean onSecondary(BackupRecord b) {
        DatabaseInfo d = byName.get(lower(b.databaseName()));
        return d != null && "SECONDARY".equalsIgnoreCase(d.replicaRole()) && key(b).equals(key(d));
    }

    private static boolean inGroup(DatabaseInfo d) {
        return d.groupDatabaseId() != null || d.availabilityGroup() != null;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
