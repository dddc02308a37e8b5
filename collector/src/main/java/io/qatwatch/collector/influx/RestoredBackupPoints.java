package io.qatwatch.collector.influx;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code qatwatch_restore} points of observed restores that a stored report let the collector match to the backup
 * set they restored (issue 30). A match needs the restore (reported once it ended) and msdb's {@code restorehistory} row
 * it wrote (reported from the agent's next read of msdb, in the same report or a later one): whichever comes second
 * brings the match, so each report that carries either is looked at, and only those.
 */
public final class RestoredBackupPoints {

    private RestoredBackupPoints() {
    }

    /**
     * Whether {@code report} may complete a match: it carries an observed restore or a {@code restorehistory} row. Reports
     * that carry neither (nearly all) cost no read.
     */
    public static boolean mayMatch(AgentReport report) {
        for (SqlInstanceSnapshot i : report.instances()) {
            if (since(i) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * The matched points {@code report} (already stored) may have completed, read back from {@code store}: per instance,
     * the observed restores the report carries and those its {@code restorehistory} rows may name. Blocking (a store
     * read per such instance); a point written again is the same point.
     *
     * @param host  the agent token's name, as the report was stored under
     * @param group the host's group, or null
     */
    public static List<String> lines(ReportStore store, String host, String group, AgentReport report) throws Exception {
        List<String> lines = new ArrayList<>();
        for (SqlInstanceSnapshot i : report.instances()) {
            Instant since = since(i);
            if (since == null) {
                continue;
            }
            for (RestoreObservation r : store.observedRestores(host, i.name(), since)) {
                String line = InfluxPoints.restoredBackup(host, group, r);
                if (line != null) {
                    lines.add(line);
                }
            }
        }
        return lines;
    }

    /** The earliest of the instance's observed restores' last polls and restorehistory rows' starts; null when none. */
    private static Instant since(SqlInstanceSnapshot i) {
        Instant since = null;
        if (i.observedRestores() != null) {
            for (ObservedRestore r : i.observedRestores()) {
                since = earliest(since, r.lastSeenAt());
            }
        }
        if (i.restores() != null) {
            for (RestoreRecord r : i.restores()) {
                since = earliest(since, r.restoredAt());
            }
        }
        return since;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || (b != null && b.isBefore(a)) ? b : a;
    }
}
