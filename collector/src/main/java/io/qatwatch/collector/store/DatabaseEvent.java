package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Something that happened to a database between two reports of its instance, as the store saw its databases section
 * change (issue 31): it appeared, disappeared or was renamed ({@code sys.databases}), its recovery model changed
 * ({@code sys.databases.recovery_model}) or its availability-group replica role did. Each is informational.
 *
 * @param at       when the first report that showed it was collected
 * @param database its name (after a rename, the new one)
 * @param kind     {@link #APPEARED}, {@link #DISAPPEARED}, {@link #RENAMED}, {@link #RECOVERY_MODEL_CHANGED} or
 *                 {@link #REPLICA_ROLE_CHANGED}
 * @param before   the value before (old name, recovery model, replica role); null for an appearance
 * @param after    the value after (new name, ...); null for a disappearance
 * @param createdAt the database's {@code create_date} when the agent sent it (appearances), else null
 */
public record DatabaseEvent(Instant at, String database, String kind, String before, String after, Instant createdAt,
                            String availabilityGroup) {

    public static final String APPEARED = "appeared";
    public static final String DISAPPEARED = "disappeared";
    public static final String RENAMED = "renamed";
    public static final String RECOVERY_MODEL_CHANGED = "recovery-model-changed";
    public static final String REPLICA_ROLE_CHANGED = "replica-role-changed";

    /** Events are informational: none is an alert, each is shown on the database and in the API. */
    public String severity() {
        return "info";
    }

    /** One line for a person: "Billing appeared (created 2026-11-30T03:30:00Z)", "recovery model FULL to SIMPLE". */
    public String summary() {
        return switch (kind) {
            case APPEARED -> database + " appeared" + (createdAt == null ? "" : " (created " + createdAt + ")");
            case DISAPPEARED -> database + " disappeared: the instance no longer lists it (dropped, detached, offline to the "
                    + "agent, or renamed where the agent sent no database_guid)";
            case RENAMED -> before + " was renamed to " + after;
            case RECOVERY_MODEL_CHANGED -> "Recovery model of " + database + " changed from " + before + " to " + after;
            default -> "Replica role of " + database + " in " + availabilityGroup + " changed from " + before + " to " + after;
        };
    }

    /**
     * The events between two databases sections of one instance, collected at {@code at}, in the order of {@code after}
     * then of {@code before} for those gone. A database is the same one before and after when both name the same
     * {@code database_guid} (a rename keeps the database, its files and its GUID: ALTER DATABASE ... MODIFY NAME), else
     * when it has the same name (a side without a GUID: AUTO_CLOSE databases, agents before issue 14). A null section
     * (never read) gives none. Pure.
     */
    public static List<DatabaseEvent> between(List<DatabaseInfo> before, List<DatabaseInfo> after, Instant at) {
        if (before == null || after == null) {
            return List.of();
        }
        Map<String, DatabaseInfo> byGuid = new HashMap<>();
        Map<String, DatabaseInfo> byName = new LinkedHashMap<>();
        for (DatabaseInfo d : before) {
            byName.put(d.name(), d);
            String guid = guid(d);
            if (guid != null) {
                byGuid.putIfAbsent(guid, d);
            }
        }
        // first the same database by its GUID, wherever its name went; then by name what the GUIDs leave
        Map<DatabaseInfo, DatabaseInfo> was = new IdentityHashMap<>();
        Set<DatabaseInfo> taken = Collections.newSetFromMap(new IdentityHashMap<>());
        for (DatabaseInfo d : after) {
            String guid = guid(d);
            DatabaseInfo w = guid == null ? null : byGuid.get(guid);
            if (w != null && taken.add(w)) {
                was.put(d, w);
            }
        }
        for (DatabaseInfo d : after) {
            DatabaseInfo w = byName.get(d.name());
            if (!was.containsKey(d) && w != null && !taken.contains(w)) {
                taken.add(w);
                was.put(d, w);
            }
        }
        List<DatabaseEvent> out = new ArrayList<>();
        for (DatabaseInfo d : after) {
            DatabaseInfo w = was.get(d);
            if (w == null) {
                out.add(new DatabaseEvent(at, d.name(), APPEARED, null, null, d.createdAt(), d.availabilityGroup()));
                continue;
            }
            if (!w.name().equals(d.name())) {
                out.add(new DatabaseEvent(at, d.name(), RENAMED, w.name(), d.name(), null, d.availabilityGroup()));
            }
            if (w.recoveryModel() != null && d.recoveryModel() != null && !w.recoveryModel().equals(d.recoveryModel())) {
                out.add(new DatabaseEvent(at, d.name(), RECOVERY_MODEL_CHANGED, w.recoveryModel(), d.recoveryModel(), null,
                        d.availabilityGroup()));
            }
            if (w.replicaRole() != null && d.replicaRole() != null && !w.replicaRole().equalsIgnoreCase(d.replicaRole())
                    && Objects.equals(w.availabilityGroup(), d.availabilityGroup())) {
                out.add(new DatabaseEvent(at, d.name(), REPLICA_ROLE_CHANGED, w.replicaRole(), d.replicaRole(), null,
                        d.availabilityGroup()));
            }
        }
        for (DatabaseInfo w : before) {
            if (!taken.contains(w)) {
                out.add(new DatabaseEvent(at, w.name(), DISAPPEARED, null, null, null, w.availabilityGroup()));
            }
        }
        return out;
    }

    private static String guid(DatabaseInfo d) {
        return d.databaseGuid() == null || d.databaseGuid().isBlank() ? null : d.databaseGuid().trim().toLowerCase(Locale.ROOT);
    }
}
