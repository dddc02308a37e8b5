package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.FleetHead;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import io.qatwatch.collector.store.StoredBackup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The alert stage's memory of the fleet between evaluations, so that an evaluation reads from the store
 * only what changed and the stage never holds every backup of the fleet.
 *
 * <p>Per instance it keeps its latest sections, a {@link KeptHistory} (the open night's backups, finished
 * nights reduced to their summaries, creep fits, tails) and a {@link BackupDigest} of its backups. Each
 * evaluation reads the backups stored since the previous one (by store position) and every kept host's head
 * (last report, running backups, a counter of section changes): with several collectors, only the rows of the hosts
 * it keeps ({@link HostSelection}). A new backup joins the digest; one that
 * counts for the nightly windows joins the open night too. Nights finishing and nights leaving the lookback
 * period are worked out in memory, and so is the digest when a backup crosses the lookback period's start.
 * An instance is rebuilt from its stored backups only when it is new, its sections changed, its host's tags moved
 * it to another calendar, a backup came late for a finished night or starts in the future, or the kinds of its nights
 * changed so that a creep fit needs a night whose backups are no longer kept. The rest of the analysis (silent agents,
 * spill forecasts, creep projected from today, every rule) runs each time, over an {@link InstanceState} that is the
 * previous minute's object while nothing of the instance changed. Not thread-safe: the alert stage runs one
 * evaluation at a time.
 *
 * <p>What it keeps of each instance's backups is also persisted, as the instance's summary (issue 33,
 * {@link InstanceSummaryCodec}): written after an evaluation for the instances whose backups changed it, and read at the
 * first refresh, which restores each instance whose summary still matches and reads only the backups stored since,
 * instead of every row of the lookback period.
 */
public final class LiveFleet {

    private final AnalysisConfig config;
    private final Map<String, HostSlot> hosts = new TreeMap<>();
    private final HostTags hostTags;
    private long backupsRead;
    /** The last evaluation's compression: its hosts whose comparisons did not change are reused. */
    private FleetCompression lastCompression;
    private boolean loaded;
    private final FailoverWatch failoverWatch = new FailoverWatch();
    /** During the first refresh: the instances' histories, read ahead on a thread of their own. */
    private ColdReads cold;
    /** Each instance's merged databases, kept from one refresh's analysis to the next (only what changed is merged again). */
    private final MergedContributions merged = new MergedContributions();
    private final SummaryCounts summaryCounts = new SummaryCounts();
    /** Holds the long work back while reports arrive on a busy machine: called between instances and read batches. */
    private Pacer pacer = Pacer.NONE;
    private final InstanceRefresh instanceRefresh;
    private final SummaryRestore summaryRestore;
    private final SummaryWrites summaryWrites;

    /** {@code config} must have passed validation; {@code tagsOf} gives a host's tags for host-group matching. */
    public LiveFleet(AnalysisConfig config, Function<String, Set<String>> tagsOf) {
        this.config = config;
        this.hostTags = new HostTags(tagsOf);
        FleetCalendars calendars = new FleetCalendars(config);
        this.instanceRefresh = new InstanceRefresh(config, hosts, hostTags, calendars);
        this.summaryRestore = new SummaryRestore(config, hosts, hostTags, calendars, instanceRefresh, summaryCounts);
        this.summaryWrites = new SummaryWrites(hosts, calendars, summaryCounts);
    }

    /**
     * What one refresh did.
     *
     * @param rebuilt     instances rebuilt from their stored backups
     * @param newBackups  backups read because they were stored since the previous refresh
     */
    public record Refresh(FleetAnalysis analysis, int rebuilt, int newBackups) {
    }

    /**
     * What the persisted summaries (issue 33) did: at the first refresh, instances restored from one and those whose
     * summary did not match (another format, sections or configuration, too old, damaged) and were rebuilt from rows, and
     * the bytes read; since, the summaries written and their bytes.
     */
    public static final class SummaryCounts {
        int restored;
        int refused;
        long bytesRead;
        long backupsAfter;
        int written;
        long bytesWritten;

        public int restored() {
            return restored;
        }

        public int refused() {
            return refused;
        }

        public long bytesRead() {
            return bytesRead;
        }

        /** Backup rows read at the first refresh because they were stored after the summaries restored. */
        public long backupsAfter() {
            return backupsAfter;
        }

        public int written() {
            return written;
        }

        public long bytesWritten() {
            return bytesWritten;
        }
    }

    /** From now on, the refreshes (and a start's read-ahead) call {@code pacer} between instances and between batches. */
    public void pacedBy(Pacer pacer) {
        this.pacer = pacer;
    }

    /** What the summaries did so far (the counts are this object's, updated by each refresh). */
    public SummaryCounts summaryCounts() {
        return summaryCounts;
    }

    /**
     * Reads what changed since the previous refresh (on the first, everything) and analyses the fleet as of
     * {@code now}. Blocking: it reads the store.
     */
    public Refresh refresh(ReportStore store, Instant now) throws Exception {
        return refresh(store, now, HostSelection.ALL);
    }

    /**
     * As {@link #refresh(ReportStore, Instant)}, keeping only the hosts {@code keep} selects (several collectors each
     * keep the hosts of the slices they lease, and those sharing an availability group with them), and reading only
     * their rows. A host it starts selecting is loaded with its whole history, one it stops selecting forgotten: the
     * backups stored between two refreshes are read by the second for the hosts it selects, so a host selected by
     * both misses none.
     */
    public Refresh refresh(ReportStore store, Instant now, HostSelection keep) throws Exception {
        Instant since = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        int newBackups = 0;
        if (cold != null) {
            // a first refresh that failed before taking every instance: what it still read is not wanted
            cold.close();
            cold = null;
        }
        if (!loaded) {
            backupsRead = store.backupsAfter(Long.MAX_VALUE, since).upTo();
            Map<String, FleetHead> heads = new HashMap<>();
            store.fleetHeads(keep).forEach(h -> heads.put(h.host(), h));
            for (FleetRow row : store.fleet(keep)) {
                FleetHead head = heads.get(row.host());
                HostSlot slot = new HostSlot();
                HostHeads.load(slot, row, head);
                hosts.put(row.host(), slot);
            }
            summaryRestore.restore(store, keep, since, now, backupsRead, pacer);
            cold = coldReads(store, since, now);
            failoverWatch.seed(store, hosts, now);
            loaded = true;
        } else {
            ReportStore.BackupDelta delta = store.backupsAfter(backupsRead, since, keep);
            backupsRead = delta.upTo();
            HostHeads.apply(store, hosts, store.fleetHeads(keep));
            newBackups = delta.backups().size();
            for (StoredBackup b : delta.backups()) {
                HostSlot h = hosts.get(b.host());
                InstanceSlot slot = h == null ? null : h.instances.get(b.instance());
                if (slot != null && !slot.stale) {
                    instanceRefresh.take(slot, b.backup(), now);
                }
            }
        }
        int rebuilt = 0;
        Map<InstanceState, InstanceSlot> slotOf = new IdentityHashMap<>();
        List<HostState> fleet = new ArrayList<>(hosts.size());
        for (Map.Entry<String, HostSlot> e : hosts.entrySet()) {
            HostSlot h = e.getValue();
            Set<String> tags = hostTags.of(h.row);
            boolean retagged = !tags.equals(h.tags);
            h.tags = tags;
            List<InstanceState> instances = new ArrayList<>(h.instances.size());
            for (InstanceSlot slot : h.instances.values()) {
                pacer.pace();
                if (retagged && !slot.stale && !config.calendarNameFor(slot.host, slot.sections.name(), tags).equals(slot.calendar)) {
                    // its nights, margins and creep fits were worked out under the calendar it left
                    slot.stale = true;
                }
                if (instanceRefresh.bringToNow(store, slot, cold, since, now)) {
                    rebuilt++;
                }
                InstanceState state = slot.current();
                slotOf.put(state, slot);
                instances.add(state);
            }
            FleetRow row = h.row;
            fleet.add(new HostState(e.getKey(), tags, h.lastSeen, row.facts(), row.qat(), row.licence(), instances));
        }
        FleetAnalysis analysis = new FleetAnalysis(new FleetState(fleet, failoverWatch.failovers(fleet, now)), config, now, i -> slotOf.get(i).history.history(),
                i -> slotOf.get(i).keyed(), i -> slotOf.get(i).fulls, lastCompression, i -> slotOf.get(i).identities,
                i -> slotOf.get(i).chains, merged);
        // a few rows (the RESTOREs the agents saw end within the lookback period): read each refresh
        analysis.withRestoreSpeeds(RestoreSpeeds.of(store.observedRestores(since, keep)));
        lastCompression = analysis.compression();
        summaryWrites.write(store, now, backupsRead, pacer);
        return new Refresh(analysis, rebuilt, newBackups);
    }

    /**
     * The guids of the availability-group databases the kept hosts report: other collectors' hosts reporting the same
     * databases are their replicas, which the analysis must see to judge a database across its replicas.
     */
    public Set<String> availabilityGroupGuids() {
        Set<String> out = new java.util.TreeSet<>();
        for (HostSlot h : hosts.values()) {
            for (InstanceSlot i : h.instances.values()) {
                if (i.sections.databases() == null) {
                    continue;
                }
                for (var d : i.sections.databases()) {
                    if (d.availabilityGroup() != null && d.databaseGuid() != null) {
                        out.add(d.databaseGuid());
                    }
                }
            }
        }
        return out;
    }

    /** The hosts kept now. */
    public Set<String> hosts() {
        return Set.copyOf(hosts.keySet());
    }

    /**
     * Starts reading every kept instance's history, in the order the first refresh rebuilds them, on a thread of its
     * own: the accelerator changes from the earlier of the two periods {@link InstanceRefresh#rebuild} reads them for.
     */
    private ColdReads coldReads(ReportStore store, Instant since, Instant now) {
        List<InstanceKey> keys = new ArrayList<>();
        hosts.forEach((host, h) -> h.instances.values().stream().filter(i -> i.stale).forEach(
                i -> keys.add(new InstanceKey(host, i.sections.name(), i.jobsSeq != 0))));
        return ColdReads.start(store, keys, since, InstanceRefresh.min(since, now.minus(FleetStates.ACCELERATOR_HISTORY)), pacer);
    }
}
