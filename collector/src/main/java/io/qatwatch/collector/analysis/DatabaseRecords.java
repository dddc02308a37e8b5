package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link MergedDatabase} is put together from its replicas' rows, one row at a time, and finished for the
 * evaluation that holds it: shared by {@link FleetAnalysis}'s merge of the whole fleet and {@link ContributionMerge}'s
 * merge of what changed.
 */
final class DatabaseRecords {

    /** The chains of a database none of whose replicas' backups carry LSNs: most of a fleet without chain columns. */
    static final List<LogChain> NO_CHAINS = List.of();

    /** The earlier of two times, null when neither is known. */
    private static Instant earlier(Instant a, Instant b) {
        return a == null ? b : b == null || !b.isBefore(a) ? a : b;
    }

    static boolean primary(DatabaseInfo d) {
        return d.replicaRole() == null || "PRIMARY".equalsIgnoreCase(d.replicaRole());
    }

    /**
     * {@code m} (null before the database's first row) with one more replica's row, {@code d} of {@code ia}: the primary's
     * row names the database, its host and recovery model. The lists are handed on, each made with the first row and
     * sized for one replica, its few digest backups and one baseline (the evaluation is held until the next).
     */
    static MergedDatabase withRow(MergedDatabase m, String key, DatabaseInfo d, InstanceAnalysis ia) {
        List<String> replicas = m == null ? List.of(ia.scope()) : new ArrayList<>(m.replicas());
        if (m != null) {
            replicas.add(ia.scope());
        }
        boolean silent = ia.silent() && (m == null || m.silent());
        List<DatabaseBackup> backups = m == null ? new ArrayList<>(4) : m.backups();
        List<BaselineFulls> fulls = m == null ? new ArrayList<>(1) : m.fulls();
        List<LogChain> logChains = m == null ? NO_CHAINS : m.chains();
        if (m == null || primary(d)) {
            return new MergedDatabase(key, d.name(), d.availabilityGroup() != null ? d.availabilityGroup()
                    : m == null ? null : m.availabilityGroup(), ia.host().host(), ia.instance().name(),
                    d.recoveryModel(), replicas, backups, silent, fulls, logChains,
                    earlier(m == null ? null : m.appearedAt(), d.createdAt()));
        }
        return new MergedDatabase(m.key(), m.name(), m.availabilityGroup() != null ? m.availabilityGroup()
                : d.availabilityGroup(), m.host(), m.instance(), m.recoveryModel(), replicas, backups, silent, fulls,
                logChains, earlier(m.appearedAt(), d.createdAt()));
    }

    /** {@code m} with a chains list of its own, for the first replica that has a chain of it. */
    static MergedDatabase withChains(MergedDatabase m) {
        return new MergedDatabase(m.key(), m.name(), m.availabilityGroup(), m.host(), m.instance(), m.recoveryModel(),
                m.replicas(), m.backups(), m.silent(), m.fulls(), new ArrayList<>(), m.appearedAt());
    }

    /**
     * {@code m} as the evaluation holds it until the next: its lists immutable ones of the size they came to (one or two
     * backups and at most one replica's fulls hold no array), not the growable ones the merge filled.
     */
    static MergedDatabase finished(MergedDatabase m) {
        return new MergedDatabase(m.key(), m.name(), m.availabilityGroup(), m.host(), m.instance(), m.recoveryModel(),
                m.replicas(), List.copyOf(m.backups()), m.silent(), List.copyOf(m.fulls()),
                m.chains() == NO_CHAINS ? NO_CHAINS : List.copyOf(m.chains()), m.appearedAt());
    }

    private DatabaseRecords() {
    }
}
