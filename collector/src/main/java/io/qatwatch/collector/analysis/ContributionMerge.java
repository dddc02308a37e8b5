package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.DatabaseRecords.NO_CHAINS;
import static io.qatwatch.collector.analysis.DatabaseRecords.finished;
import static io.qatwatch.collector.analysis.DatabaseRecords.withChains;
import static io.qatwatch.collector.analysis.DatabaseRecords.withRow;

import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One evaluation's merge of the fleet's databases from what each instance contributes, reusing of the alert stage's
 * {@link MergedContributions} every instance whose inputs did not move: {@link FleetAnalysis} hands it its instances
 * and the map to fill.
 */
final class ContributionMerge {

    private final AnalysisConfig config;
    private final Instant now;
    private final List<InstanceAnalysis> instances;
    private final Map<String, MergedDatabase> databases;
    private final Function<InstanceState, List<DatabaseBackup>> keyed;
    private final Function<InstanceState, Map<String, BaselineFulls>> baselines;
    private final Function<InstanceState, DatabaseIdentities> identities;
    private final Function<InstanceState, Map<String, LogChain>> chains;
    private final MergedContributions contributions;

    ContributionMerge(AnalysisConfig config, Instant now, List<InstanceAnalysis> instances,
                      Map<String, MergedDatabase> databases, Function<InstanceState, List<DatabaseBackup>> keyed,
                      Function<InstanceState, Map<String, BaselineFulls>> baselines,
                      Function<InstanceState, DatabaseIdentities> identities,
                      Function<InstanceState, Map<String, LogChain>> chains, MergedContributions contributions) {
        this.config = config;
        this.now = now;
        this.instances = instances;
        this.databases = databases;
        this.keyed = keyed;
        this.baselines = baselines;
        this.identities = identities;
        this.chains = chains;
        this.contributions = contributions;
    }

    /**
     * The alert stage's merge ({@link MergedContributions}): each instance's contribution kept from the last evaluation
     * while its inputs are the same, else merged from its inputs alone; a database only one instance contributes to is
     * its contribution's record, one that several contribute to (replicas of an availability database, or a backup keyed
     * to another instance's database) is merged again from their contributions in fleet order, as {@link FleetAnalysis}
     * merges the whole fleet. No availability-group windows (the stage's evaluations build none).
     */
    void merge() {
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        Map<String, MergedContributions.Contribution> next = new HashMap<>(instances.size() * 4 / 3 + 16);
        List<MergedContributions.Contribution> used = new ArrayList<>(instances.size());
        Set<String> again = new HashSet<>();
        for (InstanceAnalysis ia : instances) {
            InstanceState i = ia.instance();
            DatabaseIdentities ids = identities.apply(i);
            Map<String, BaselineFulls> instanceFulls = baselines.apply(i);
            Map<String, LogChain> instanceChains = chains.apply(i);
            MergedContributions.Contribution c = contributions.get(ia.scope());
            if (c == null || !c.holds(ia.host().host(), i.name(), ia.silent(), config, i.databases(), ids, i.backups(),
                    instanceFulls, instanceChains, now)) {
                c = contribution(ia, ids, instanceFulls, instanceChains, from);
            }
            next.put(ia.scope(), c);
            used.add(c);
            for (DatabaseInfo d : i.databases()) {
                String key = ids.key(d);
                if (databases.putIfAbsent(key, c.alone().get(key)) != null) {
                    again.add(key);
                }
            }
        }
        for (MergedContributions.Contribution c : used) {
            c.foreign().keySet().forEach(key -> addIfListed(again, key));
            c.foreignFulls().keySet().forEach(key -> addIfListed(again, key));
            c.foreignChains().keySet().forEach(key -> addIfListed(again, key));
        }
        if (!again.isEmpty()) {
            databases.putAll(merged(used, again));
        }
        contributions.keep(next);
    }

    private void addIfListed(Set<String> again, String key) {
        if (databases.containsKey(key)) {
            again.add(key);
        }
    }

    /** What {@code ia} contributes to the fleet's databases, merged from its inputs alone. */
    private MergedContributions.Contribution contribution(InstanceAnalysis ia, DatabaseIdentities ids,
                                                          Map<String, BaselineFulls> instanceFulls,
                                                          Map<String, LogChain> instanceChains, Instant from) {
        InstanceState i = ia.instance();
        Map<String, MergedDatabase> work = new HashMap<>();
        for (DatabaseInfo d : i.databases()) {
            String key = ids.key(d);
            work.put(key, withRow(work.get(key), key, d, ia));
        }
        Map<String, List<DatabaseBackup>> foreign = new HashMap<>();
        List<DatabaseBackup> known = keyed.apply(i);
        for (DatabaseBackup backup : known) {
            if (!backup.finishedAfter(from) || backup.startedAfter(now)) {
                continue;
            }
            MergedDatabase m = work.get(backup.databaseKey());
            (m != null ? m.backups() : foreign.computeIfAbsent(backup.databaseKey(), k -> new ArrayList<>())).add(backup);
        }
        Map<String, BaselineFulls> foreignFulls = new HashMap<>();
        int fullsCount = 0;
        for (Map.Entry<String, BaselineFulls> e : instanceFulls.entrySet()) {
            if (e.getValue().size() > 0) {
                fullsCount++;
                MergedDatabase m = work.get(e.getKey());
                if (m != null) {
                    m.fulls().add(e.getValue());
                } else {
                    foreignFulls.put(e.getKey(), e.getValue());
                }
            }
        }
        Map<String, LogChain> foreignChains = new HashMap<>();
        int chainsCount = 0;
        for (Map.Entry<String, LogChain> e : instanceChains.entrySet()) {
            if (!e.getValue().isEmpty()) {
                chainsCount++;
                MergedDatabase m = work.get(e.getKey());
                if (m == null) {
                    foreignChains.put(e.getKey(), e.getValue());
                } else {
                    if (m.chains() == NO_CHAINS) {
                        m = withChains(m);
                        work.put(e.getKey(), m);
                    }
                    m.chains().add(e.getValue());
                }
            }
        }
        work.replaceAll((key, m) -> finished(m));
        foreign.replaceAll((key, l) -> List.copyOf(l));
        return new MergedContributions.Contribution(ia.host().host(), i.name(), ia.silent(), config, i.databases(), ids,
                i.backups(), instanceFulls, instanceChains, Map.copyOf(work), Map.copyOf(foreign), Map.copyOf(foreignFulls),
                Map.copyOf(foreignChains), fullsCount, chainsCount, now, MergedContributions.validUntil(known, config, now));
    }

    /**
     * The databases {@code keys} merged from the instances' contributions ({@code used}, in fleet order) as
     * {@link FleetAnalysis} merges the whole fleet: each row in fleet order, an instance's backups, fulls and chains going
     * to a database it or an instance before it lists.
     */
    private Map<String, MergedDatabase> merged(List<MergedContributions.Contribution> used, Set<String> keys) {
        Map<String, MergedDatabase> work = new HashMap<>();
        for (int k = 0; k < instances.size(); k++) {
            InstanceAnalysis ia = instances.get(k);
            MergedContributions.Contribution c = used.get(k);
            for (DatabaseInfo d : ia.instance().databases()) {
                String key = c.ids().key(d);
                if (keys.contains(key)) {
                    work.put(key, withRow(work.get(key), key, d, ia));
                }
            }
            c.alone().forEach((key, mine) -> {
                if (keys.contains(key)) {
                    add(work, key, mine.backups(), mine.fulls(), mine.chains());
                }
            });
            c.foreign().forEach((key, backups) -> {
                if (keys.contains(key)) {
                    add(work, key, backups, List.of(), NO_CHAINS);
                }
            });
            c.foreignFulls().forEach((key, f) -> {
                if (keys.contains(key)) {
                    add(work, key, List.of(), List.of(f), NO_CHAINS);
                }
            });
            c.foreignChains().forEach((key, chain) -> {
                if (keys.contains(key)) {
                    add(work, key, List.of(), List.of(), List.of(chain));
                }
            });
        }
        work.replaceAll((key, m) -> finished(m));
        return work;
    }

    /** One instance's backups, fulls and chains of a database {@code work} holds (else they go nowhere). */
    private static void add(Map<String, MergedDatabase> work, String key, List<DatabaseBackup> backups,
                            List<BaselineFulls> fulls, List<LogChain> logChains) {
        MergedDatabase m = work.get(key);
        if (m == null) {
            return;
        }
        m.backups().addAll(backups);
        m.fulls().addAll(fulls);
        if (!logChains.isEmpty()) {
            if (m.chains() == NO_CHAINS) {
                m = withChains(m);
                work.put(key, m);
            }
            m.chains().addAll(logChains);
        }
    }
}
