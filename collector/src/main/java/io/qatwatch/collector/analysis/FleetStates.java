package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Reads the fleet the rules evaluate from the report store. Blocking: run it on the store's worker. */
public final class FleetStates {

    /** How far back each instance's accelerator history is read: what the QAT rules and the timeline look at. */
    public static final Duration ACCELERATOR_HISTORY = Duration.ofDays(30);

    private FleetStates() {
    }

    /**
     * Every host with its latest facts and last report time, each instance's latest sections, and the
     * backups that started within {@code lookbackDays} before {@code now}.
     *
     * @param tagsOf a host's tags for host-group matching (empty when the collector has none)
     */
    public static FleetState load(ReportStore store, Instant now, int lookbackDays, Function<String, Set<String>> tagsOf)
            throws Exception {
        return load(store, store.fleet(), now, lookbackDays, tagsOf);
    }

    /** {@link #load} of one host (none when the store does not know it). */
    public static FleetState loadHost(ReportStore store, String host, Instant now, int lookbackDays,
            Function<String, Set<String>> tagsOf) throws Exception {
        return load(store, store.fleetRow(host).stream().toList(), now, lookbackDays, tagsOf);
    }

    private static FleetState load(ReportStore store, List<FleetRow> rows, Instant now, int lookbackDays,
            Function<String, Set<String>> tagsOf) throws Exception {
        Instant since = now.minus(Duration.ofDays(lookbackDays));
        List<HostState> hosts = new ArrayList<>();
        for (FleetRow row : rows) {
            List<InstanceState> instances = new ArrayList<>();
            for (SqlInstanceSnapshot s : row.instances()) {
                List<io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord> backups = store.backups(row.host(), s.name(), since)
                        .stream().map(StoredBackup::backup).toList();
                instances.add(new InstanceState(s.name(), s.collectedAt(), s.server(), s.configuration(), s.accelerators(),
                        s.databases(), s.certificates(), s.asymmetricKeys(), s.runningBackups(), backups,
                        store.acceleratorChanges(row.host(), s.name(), now.minus(ACCELERATOR_HISTORY))));
            }
            Set<String> tags = new java.util.TreeSet<>(HostGroupConfig.tagSet(row.agent() == null ? null : row.agent().tags()));
            tags.addAll(tagsOf.apply(row.host()));
            hosts.add(new HostState(row.host(), tags, row.lastSeen(), row.facts(), row.qat(),
                    row.licence(), instances));
        }
        return new FleetState(hosts);
    }
}
