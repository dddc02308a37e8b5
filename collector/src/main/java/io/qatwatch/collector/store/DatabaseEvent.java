package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Something that happened to a database between two reports of its instance, as the store saw its databases section
 * change (issue 31): it appeared or disappeared ({@code sys.databases}), its recovery model changed
 * ({@code sys.databases.recovery_model}) or its availability-group replica role did. Each is informational.
 *
 * @param at       when the first report that showed it was collected
 * @param kind     {@link #APPEARED}, {@link #DISAPPEARED}, {@link #RECOVERY_MODEL_CHANGED} or {@link #REPLICA_ROLE_CHANGED}
 * @param before   the value before (recovery model, replica role); null for an appearance
 * @param after    the value after; null for a disappearance
 * @param createdAt the database's {@code create_date} when the agent sent it (appearances), else null
 */
public record DatabaseEvent(Instant at, String database, String kind, String before, String after, Instant createdAt,
                            String availabilityGroup) {

    public static final String APPEARED = "appeared";
    public static final String DISAPPEARED = "disappeared";
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
            case DISAPPEARED -> database + " disappeared: the instance no longer lists it (dropped, detached or renamed)";
            case RECOVERY_MODEL_CHANGED -> "Recovery model of " + database + " changed from " + before + " to " + after;
            default -> "Replica role of " + database + " in " + availabilityGroup + " changed from " + before + " to " + after;
        };
    }

    /**
     * The events between two databases sections of one instance, collected at {@code at}: databases by name, in the
     * order of {@code after} then of {@code before} for those gone. A null section (never read) gives none. Pure.
     */
    public static List<DatabaseEvent> between(List<DatabaseInfo> before, List<DatabaseInfo> after, Instant at) {
        if (before == null || after == null) {
            return List.of();
        }
        Map<String, DatabaseInfo> was = new LinkedHashMap<>();
        for (DatabaseInfo d : before) {
            was.put(d.name(), d);
        }
        List<DatabaseEvent> out = new ArrayList<>();
        Map<String, DatabaseInfo> now = new LinkedHashMap<>();
        for (DatabaseInfo d : after) {
            now.put(d.name(), d);
            DatabaseInfo w = was.get(d.name());
            if (w == null) {
                out.add(new DatabaseEvent(at, d.name(), APPEARED, null, null, d.createdAt(), d.availabilityGroup()));
                continue;
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
            if (!now.containsKey(w.name())) {
                out.add(new DatabaseEvent(at, w.name(), DISAPPEARED, null, null, null, w.availabilityGroup()));
            }
        }
        return out;
    }
}
