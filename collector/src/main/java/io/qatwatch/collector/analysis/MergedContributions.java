package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link FleetAnalysis} merged from each instance at the alert stage's last evaluation, by {@code host/instance}, kept
 * to the next so that an instance whose inputs did not move (a minute in which only its heartbeat moved) is not merged
 * again: its databases, as they are when no other instance contributes to them, are the very records of the minute
 * before. An instance's {@link Contribution} holds while everything the merge reads of it is the same: its database rows
 * and their identities (the lists, by identity: the stage copies them once per section change), its digest (by
 * identity: the keyed backups are made from it), which of those backups the lookback period and {@code now} let in, its
 * baseline fulls and log chains that are not empty, the configuration, its host's and instance's names and whether its
 * agent is silent. A database that several instances contribute to (an availability database's replicas, or a backup
 * keyed to another instance's database) is merged again from the contributions, as before. Not thread-safe: the alert
 * stage's refresh alone uses it.
 */
final class MergedContributions {

    private Map<String, Contribution> byScope = new HashMap<>();

    /** The contribution kept for {@code scope}, or null. */
    Contribution get(String scope) {
        return byScope.get(scope);
    }

    /** Keeps {@code next} (this evaluation's contributions) in place of the last: an instance no longer there is dropped. */
    void keep(Map<String, Contribution> next) {
        byScope = next;
    }

    /**
     * One instance's part of the merge.
     *
     * @param alone     its databases by identity as merged from it alone (finished: immutable lists)
     * @param foreign   its backups within the lookback period keyed to databases it does not list (rarely any), per key in
     *                  digest order
     * @param foreignFulls  its non-empty baseline fulls keyed to databases it does not list
     * @param foreignChains its non-empty log chains keyed to databases it does not list
     * @param fullsCount  how many of its baseline fulls were not empty
     * @param chainsCount how many of its log chains were not empty
     * @param builtAt   the evaluation it was merged at; it holds for a later {@code now} before {@code validUntil}, when one
     *                  of its digest's backups crosses the lookback period's start or stops being in the future
     */
    record Contribution(String host, String instance, boolean silent, AnalysisConfig config, List<DatabaseInfo> rows,
                        DatabaseIdentities ids, Object digest, Map<String, BaselineFulls> fulls,
                        Map<String, LogChain> chains, Map<String, MergedDatabase> alone,
                        Map<String, List<DatabaseBackup>> foreign, Map<String, BaselineFulls> foreignFulls,
                        Map<String, LogChain> foreignChains, int fullsCount, int chainsCount, Instant builtAt,
                        Instant validUntil) {

        /** Whether this contribution is what merging the same instance's inputs at {@code now} would give. */
        boolean holds(String host, String instance, boolean silent, AnalysisConfig config, List<DatabaseInfo> rows,
                      DatabaseIdentities ids, Object digest, Map<String, BaselineFulls> fulls,
                      Map<String, LogChain> chains, Instant now) {
            if (this.config != config || this.rows != rows || this.ids != ids || this.digest != digest
                    || this.fulls != fulls || this.chains != chains || this.silent != silent
                    || now.isBefore(builtAt) || !now.isBefore(validUntil)
                    || !this.host.equals(host) || !this.instance.equals(instance)) {
                return false;
            }
            // the maps are the instance's own, changed in place: the same non-empty entries, each where it went
            int n = 0;
            for (Map.Entry<String, BaselineFulls> e : fulls.entrySet()) {
                BaselineFulls f = e.getValue();
                if (f.size() > 0) {
                    n++;
                    MergedDatabase m = alone.get(e.getKey());
                    if (m != null ? m.fulls().size() != 1 || m.fulls().get(0) != f : foreignFulls.get(e.getKey()) != f) {
                        return false;
                    }
                }
            }
            if (n != fullsCount) {
                return false;
            }
            n = 0;
            for (Map.Entry<String, LogChain> e : chains.entrySet()) {
                LogChain c = e.getValue();
                if (!c.isEmpty()) {
                    n++;
                    MergedDatabase m = alone.get(e.getKey());
                    if (m != null ? m.chains().size() != 1 || m.chains().get(0) != c : foreignChains.get(e.getKey()) != c) {
                        return false;
                    }
                }
            }
            return n == chainsCount;
        }
    }

    /**
     * The first instant after {@code now} at which one of {@code keyed} leaves the lookback period (by its finish) or
     * stops being in the future: until then the same backups are in.
     */
    static Instant validUntil(List<DatabaseBackup> keyed, AnalysisConfig config, Instant now) {
        Duration lookback = Duration.ofDays(config.windows().lookbackDays());
        Instant first = Instant.MAX;
        for (DatabaseBackup b : keyed) {
            if (b.startedAt() == null || b.finishedAt() == null) {
                return now;
            }
            Instant leaves = b.finishedAt().plus(lookback);
            if (leaves.isAfter(now) && leaves.isBefore(first)) {
                first = leaves;
            }
            if (b.startedAt().isAfter(now) && b.startedAt().isBefore(first)) {
                first = b.startedAt();
            }
        }
        return first;
    }
}
