package io.qatwatch.collector.web.status;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * Everything the database page ({@code /hosts/{host}/{instance}/{database}}) shows; built by
 * {@link DrillDownViews#database}.
 *
 * @param facts       recovery model, encryption, availability group and role, in display order
 * @param backups     its backups of the lookback period, oldest first (log backups included)
 * @param lookbackDays how far back {@code backups} reach
 * @param zone        the business calendar's zone, for clock times
 * @param compression its compression comparisons (one per backup type, target and encryption)
 * @param restoreTest its last restore test anywhere in the fleet; null when the window analysis has none
 * @param replicas    the other copies of it in its availability group, {@code host/instance (ROLE)}
 * @param alerts      the active alerts about it, most severe first
 * @param restorePlan how it restores now across its replicas ({@code /api/v1/databases/.../restore-plan}'s plan);
 *                    null when no replica holds a full backup with LSNs
 * @param restoreEstimate how long that plan would take to restore (the API's {@code restoreEstimate}); null without a plan
 * @param events      what happened to it in the lookback period (appeared, disappeared, recovery model or replica role
 *                    changed), oldest first, as {@code /api/v1/databases/.../events} has them
 */
public record DatabaseView(Instant renderedAt, String host, String instance, String database, List<StatusView.Fact> facts,
                           List<BackupRecord> backups, int lookbackDays, ZoneId zone,
                           List<StatusView.CompressionRow> compression, StatusView.RestoreTest restoreTest,
                           List<Replica> replicas, List<StatusView.ActiveAlert> alerts,
                           io.qatwatch.collector.web.RestorePlanJson.Plan restorePlan,
                           io.qatwatch.collector.analysis.RestoreEstimate restoreEstimate,
                           List<io.qatwatch.collector.web.DatabaseEventsJson.Event> events) {

    /** Without a restore estimate or events. */
    public DatabaseView(Instant renderedAt, String host, String instance, String database, List<StatusView.Fact> facts,
                        List<BackupRecord> backups, int lookbackDays, ZoneId zone, List<StatusView.CompressionRow> compression,
                        StatusView.RestoreTest restoreTest, List<Replica> replicas, List<StatusView.ActiveAlert> alerts,
                        io.qatwatch.collector.web.RestorePlanJson.Plan restorePlan) {
        this(renderedAt, host, instance, database, facts, backups, lookbackDays, zone, compression, restoreTest, replicas, alerts,
                restorePlan, null, List.of());
    }

    /** Without events. */
    public DatabaseView(Instant renderedAt, String host, String instance, String database, List<StatusView.Fact> facts,
                        List<BackupRecord> backups, int lookbackDays, ZoneId zone, List<StatusView.CompressionRow> compression,
                        StatusView.RestoreTest restoreTest, List<Replica> replicas, List<StatusView.ActiveAlert> alerts,
                        io.qatwatch.collector.web.RestorePlanJson.Plan restorePlan,
                        io.qatwatch.collector.analysis.RestoreEstimate restoreEstimate) {
        this(renderedAt, host, instance, database, facts, backups, lookbackDays, zone, compression, restoreTest, replicas, alerts,
                restorePlan, restoreEstimate, List.of());
    }

    public DatabaseView {
        events = events == null ? List.of() : List.copyOf(events);
        facts = List.copyOf(facts);
        backups = List.copyOf(backups);
        compression = List.copyOf(compression);
        replicas = List.copyOf(replicas);
        alerts = List.copyOf(alerts);
    }

    /** Another copy of the database: where, and its replica role there. */
    public record Replica(String host, String instance, String role) {
    }
}
