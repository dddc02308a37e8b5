package io.qatwatch.collector.web;

import io.qatwatch.collector.analysis.RestorePlans;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.RestorePlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/v1/databases/{host}/{instance}/{database}/restore-plan}: the database's restore plan now, as JSON.
 * LSNs are strings of digits ({@code numeric(25,0)} is wider than a JSON reader's doubles).
 *
 * @param plan null when no replica holds a full backup with LSNs
 * @param recoveryModelChanges the recovery model's changes the backups show (each backup records its model), and the one
 *                             since the newest backup when {@code sys.databases} says another now, oldest first
 */
public record RestorePlanJson(String host, String instance, String database, String availabilityGroup, List<String> replicas,
                              Plan plan, List<RestorePlans.RecoveryModelChange> recoveryModelChanges) {

    /** One backup of the plan: where it ran, its file and LSNs. */
    public record Step(String host, String instance, long backupSetId, String type, boolean copyOnly, Instant startedAt,
                       Instant finishedAt, long sizeBytes, String file, String deviceType, String firstLsn, String lastLsn) {

        static Step of(ChainBackup b) {
            if (b == null) {
                return null;
            }
            int slash = b.scope().indexOf('/');
            String type = switch (b.kind()) {
                case ChainBackup.FULL -> "FULL";
                case ChainBackup.DIFFERENTIAL -> "DIFFERENTIAL";
                default -> "LOG";
            };
            return new Step(b.scope().substring(0, Math.max(0, slash)), b.scope().substring(slash + 1), b.backupSetId(), type,
                    b.copyOnly(), b.startedAt(), b.finishedAt(), b.sizeBytes(), b.file(), b.deviceType(),
                    String.valueOf(b.firstLsn()), String.valueOf(b.lastLsn()));
        }
    }

    /** Where the chain breaks: {@code GAP}, {@code NUL} or {@code OTHER_TOOL}, the likely cause, the backups around it. */
    public record Break(String kind, String cause, Step before, Step via, Step after) {
    }

    /**
     * @param latestPointInTime the latest point in time the plan restores to
     * @param whole             every log backup since its full (or differential) is in it
     * @param files             backups to restore; {@code bytes} their size
     * @param head              the plan in one line, as alerts show it
     * @param newestLog         the newest log backup of the database on any replica
     */
    public record Plan(Instant latestPointInTime, String latestLsn, boolean whole, int files, long bytes, String head, Step full,
                       Step differential, List<Step> logs, Break broken, Step newestLog) {
    }

    public static RestorePlanJson of(RestorePlans.Found found) {
        Plan plan = found.plan().map(RestorePlanJson::plan).orElse(null);
        return new RestorePlanJson(found.host(), found.instance(), found.database().name(), found.database().availabilityGroup(),
                found.replicas(), plan, found.recoveryModelChanges());
    }

    private static Plan plan(RestorePlan p) {
        List<Step> logs = new ArrayList<>();
        for (ChainLink l : p.logs()) {
            logs.add(Step.of(l.first()));
            if (l.last() != l.first()) {
                logs.add(Step.of(l.last()));
            }
        }
        Break broken = p.broken() == null ? null : new Break(p.broken().kind(), p.broken().cause(), Step.of(p.broken().before()),
                Step.of(p.broken().via()), Step.of(p.broken().after()));
        return new Plan(p.latestPoint(), p.latestLsn().toString(), p.whole(), p.files(), p.bytes(), p.head(), Step.of(p.full()),
                Step.of(p.differential()), List.copyOf(logs), broken, Step.of(p.newestLog()));
    }
}
