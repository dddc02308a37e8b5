package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.pacing.StoppablePacer;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.FleetHead;
import io.qatwatch.collector.store.ReportStore.InstanceHead;
import io.qatwatch.collector.store.ReportStore.InstanceHistory;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(LiveFleet.class);
    /**
     * Summaries written per refresh after the first: a morning whose nights finish changes most instances at once, and
     * a summary a few minutes behind costs a restart only the backups stored since it (the first writes them all).
     */
    static final int SUMMARIES_PER_REFRESH = 500;
    /**
     * An instance whose new backups changed what it keeps is written again at most this often: through a night its log
     * backups change it every few minutes, and a restart replays the backups stored since its summary anyway (a few
     * thousand rows an hour for the whole fleet). A night finishing, or a rebuild, writes it at the next evaluation.
     */
    static final Duration SUMMARY_INTERVAL = Duration.ofHours(1);
    /** Restored instances whose accelerator changes one store read takes. */
    private static final int RESTORED_PER_READ = 256;
    /**
     * Summaries written per transaction: ~1 MB at 90 nights (31.5 KiB each), so ingest's next group commit, which waits
     * for the writer, waits for one such chunk at most (500 a transaction held it for ~15 MB).
     */
    private static final int SUMMARIES_PER_WRITE = 32;
    /**
     * A summary older than this is not restored: after a night away most instances have a backup of a night that has
     * finished since, which rebuilds them from their rows anyway, and the backups since would be read into memory at once.
     */
    static final Duration SUMMARY_MAX_AGE = Duration.ofHours(24);

    private final AnalysisConfig config;
    private final Function<String, Set<String>> tagsOf;
    private final Map<String, BusinessCalendar> calendars;
    private final Map<String, HostSlot> hosts = new TreeMap<>();
    /** Strings the digests share (names, guids, algorithms, targets): a fleet has few distinct ones per instance. */
    private final SharedStrings strings = new SharedStrings();
    /** Each calendar's nights, resolved once for the whole fleet. */
    private final Map<String, NightlyWindows.Nights> nights = new HashMap<>();
    private long backupsRead;
    /** The last evaluation's compression: its hosts whose comparisons did not change are reused. */
    private FleetCompression lastCompression;
    private boolean loaded;
    /** Each availability group's primary replica as last seen ({@code host/instance}), and when that report was collected. */
    private final Map<String, Map.Entry<String, Instant>> primaries = new HashMap<>();
    /** Failovers seen in the last day, oldest first. */
    private final List<AgFailover> failovers = new ArrayList<>();
    /** During the first refresh: the instances' histories, read ahead on a thread of their own. */
    private ColdReads cold;
    /** Each calendar's {@link InstanceSummaryCodec#configKey}. */
    private final Map<String, Long> configKeys = new HashMap<>();
    /** Each instance's merged databases, kept from one refresh's analysis to the next (only what changed is merged again). */
    private final MergedContributions merged = new MergedContributions();
    private final SummaryCounts summaryCounts = new SummaryCounts();
    /** Holds the long work back while reports arrive on a busy machine: called between instances and read batches. */
    private Pacer pacer = Pacer.NONE;
    private boolean summarised;

    /** {@code config} must have passed validation; {@code tagsOf} gives a host's tags for host-group matching. */
    public LiveFleet(AnalysisConfig config, Function<String, Set<String>> tagsOf) {
        this.config = config;
        this.tagsOf = tagsOf;
        this.calendars = config.businessCalendars();
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

    private static final class HostSlot {
        FleetRow row;
        long sectionsSeq;
        Instant lastSeen;
        /** The tags its instances' calendars were last worked out for; null before the first refresh. */
        Set<String> tags;
        final Map<String, InstanceSlot> instances = new TreeMap<>();
    }

    private static final class InstanceSlot {
        final String host;
        /** {@code host/instance}, one string for everything of the instance that names it. */
        String scope;
        SqlInstanceSnapshot sections;
        /**
         * The sections' lists, immutable copies made when the sections change: each minute's state (a new one whenever the
         * heartbeat moved) holds these very lists instead of copying the row's again, so that what is keyed by a list's
         * identity ({@link DatabaseIdentities#tde}, the compression comparison's memo) holds from minute to minute.
         */
        SectionLists lists;
        long sectionsSeq;
        Instant lastSeen;
        List<RunningBackup> running;
        DatabaseIdentities identities;
        /** The digest, packed with each backup's keyed form ({@link #keyed()}). */
        PackedDigest digest = PackedDigest.EMPTY;
        int digestSize;
        /** When a digest backup crosses the lookback period's start or {@code now}: the digest is worked out again. */
        Instant digestValidUntil = Instant.MIN;
        KeptHistory history;
        /**
         * The calendar {@link #history} was worked out under: when the host's tags move the instance to another (a host
         * group matching them), its nights are worked out again under the new one.
         */
        String calendar;
        /** The QAT mode over time, and the backups the compression comparison reads: kept apart from the digest. */
        QatModes modes;
        CompressionSamples compression;
        /** The fulls backup-throughput-drop compares, by database identity: not in the digest. */
        Map<String, BaselineFulls> fulls = new HashMap<>();
        /**
         * Each database's log chain by identity: newest fulls and differential, log backups merged into links (issue 31),
         * so the LSNs of every backup are not kept. Not in the digest.
         */
        Map<String, LogChain> chains = new HashMap<>();
        /** Backups that started after the evaluation that read them: they join {@link #fulls} once started. */
        List<BackupRecord> future = List.of();
        boolean stale = true;
        /** It was rebuilt (or is new) since its summary was last written: written at the next evaluation. */
        boolean summaryDue;
        /** Backups it took changed what it keeps since its summary was last written: written within {@link #SUMMARY_INTERVAL}. */
        boolean tookSinceSummary;
        /** The latest finished night's morning when its summary was written: a night finishing writes it again. */
        java.time.LocalDate summarisedMorning;
        /** The store position the summary it was restored from was written at; -1 when not restored. */
        long restoredFrom = -1;
        /** When its summary was last written (or the one it was restored from); null while it has none. */
        Instant summarisedAt;
        final List<BackupRecord> added = new ArrayList<>();
        /**
         * The sections' databases, those an older agent sent without {@code create_date} carrying the time the store first
         * saw them (their "appeared" event) in its place, so backup-missing waits a new database's objective from then;
         * null when every database has its {@code create_date}. Worked out when the instance is rebuilt.
         */
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> databases;
        /** Read when the instance is rebuilt, which an accelerator change (a section change) always makes it. */
        List<AcceleratorChange> acceleratorHistory = List.of();
        /** Its jobs, job runs, CommandLog rows and restores, read again whenever the store's {@code jobsSeq} moves. */
        JobActivity jobs;
        long jobsSeq = -1;
        long jobsSeqRead = -1;
        /** The state {@link #current()} gave last, and what it was built from that the state itself copies. */
        InstanceState kept;
        SqlInstanceSnapshot keptSections;
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> keptDatabases;
        List<AcceleratorChange> keptAcceleratorHistory;
        JobActivity keptJobs;

        InstanceSlot(String host) {
            this.host = host;
        }

        void sections(SqlInstanceSnapshot s, long seq) {
            sections = s;
            lists = SectionLists.of(s);
            databases = null;
            sectionsSeq = seq;
            lastSeen = s.collectedAt();
            running = s.runningBackups() == null ? List.of() : s.runningBackups();
            String named = host + "/" + s.name();
            scope = named.equals(scope) ? scope : named;
            identities = DatabaseIdentities.of(scope, state(List.of()));
            stale = true;
        }

        /**
         * The digest's backups keyed by their databases' identities, in digest order: each keyed when it joined the digest
         * (the identities change only with the sections, which rebuild the instance).
         */
        List<DatabaseBackup> keyed() {
            return digest.keyed();
        }

        /**
         * The instance as of this refresh: the state of the previous one while nothing it holds changed, so that a quiet
         * minute builds nothing again and the rules see the same object.
         */
        InstanceState current() {
            InstanceState k = kept;
            if (k == null || keptSections != sections || keptDatabases != databases || k.backups() != digest
                    || keptAcceleratorHistory != acceleratorHistory || k.compression() != compression || keptJobs != jobs
                    || !java.util.Objects.equals(k.collectedAt(), lastSeen) || !k.runningBackups().equals(running == null ? List.of() : running)) {
                k = state(digest);
                kept = k;
                keptSections = sections;
                keptDatabases = databases;
                keptAcceleratorHistory = acceleratorHistory;
                keptJobs = jobs;
            }
            return k;
        }

        InstanceState state(List<BackupRecord> backups) {
            SqlInstanceSnapshot s = sections;
            SectionLists l = lists;
            return new InstanceState(s.name(), lastSeen, s.server(), l.configuration(), l.accelerators(),
                    databases != null ? databases : l.databases(),
                    l.certificates(), l.asymmetricKeys(), running, backups, acceleratorHistory, compression, jobs);
        }
    }

    /** An instance's section lists as {@link InstanceState} holds them (immutable, none null), copied once per change. */
    record SectionLists(List<ConfigOption> configuration, List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases,
                        List<CertificateInfo> certificates, List<AsymmetricKeyInfo> asymmetricKeys) {

        static SectionLists of(SqlInstanceSnapshot s) {
            return new SectionLists(copy(s.configuration()), copy(s.accelerators()), copy(s.databases()),
                    copy(s.certificates()), copy(s.asymmetricKeys()));
        }

        private static <T> List<T> copy(List<T> list) {
            return list == null ? List.of() : List.copyOf(list);
        }
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
                load(slot, row, head);
                hosts.put(row.host(), slot);
            }
            restore(store, keep, since, now);
            cold = coldReads(store, since, now);
            seedFailovers(store, now);
            loaded = true;
        } else {
            ReportStore.BackupDelta delta = store.backupsAfter(backupsRead, since, keep);
            backupsRead = delta.upTo();
            heads(store, store.fleetHeads(keep));
            newBackups = delta.backups().size();
            for (StoredBackup b : delta.backups()) {
                HostSlot h = hosts.get(b.host());
                InstanceSlot slot = h == null ? null : h.instances.get(b.instance());
                if (slot != null && !slot.stale) {
                    take(slot, b.backup(), now);
                }
            }
        }
        int rebuilt = 0;
        Map<InstanceState, InstanceSlot> slotOf = new IdentityHashMap<>();
        List<HostState> fleet = new ArrayList<>(hosts.size());
        for (Map.Entry<String, HostSlot> e : hosts.entrySet()) {
            HostSlot h = e.getValue();
            Set<String> tags = tags(h.row);
            boolean retagged = !tags.equals(h.tags);
            h.tags = tags;
            List<InstanceState> instances = new ArrayList<>(h.instances.size());
            for (InstanceSlot slot : h.instances.values()) {
                pacer.pace();
                if (retagged && !slot.stale && !config.calendarNameFor(slot.host, slot.sections.name(), tags).equals(slot.calendar)) {
                    // its nights, margins and creep fits were worked out under the calendar it left
                    slot.stale = true;
                }
                if (slot.stale || !slot.history.advance(now)) {
                    rebuild(store, slot, since, now);
                    rebuilt++;
                } else {
                    boolean grown = false;
                    if (!slot.added.isEmpty()) {
                        List<BackupRecord> added = canonical(slot.added);
                        slot.digest = slot.digest.with(added, PackedDigest.keyed(slot.scope, added, slot.identities,
                                slot.history::same));
                        grown = slot.digest.size() > 2 * slot.digestSize + 32;
                    }
                    if (grown || !now.isBefore(slot.digestValidUntil)) {
                        // a subset of the kept digest: its strings are shared already
                        digest(slot, slot.digest.digested(config, now), now);
                    } else if (!slot.added.isEmpty()) {
                        slot.digestValidUntil = min(slot.digestValidUntil, crossing(slot.added, BackupRecord::startedAt,
                                BackupRecord::finishedAt, now));
                    }
                }
                slot.added.clear();
                fulls(slot, since, now);
                jobs(store, slot, since);
                InstanceState state = slot.current();
                slotOf.put(state, slot);
                instances.add(state);
            }
            FleetRow row = h.row;
            fleet.add(new HostState(e.getKey(), tags, h.lastSeen, row.facts(), row.qat(), row.licence(), instances));
        }
        FleetAnalysis analysis = new FleetAnalysis(new FleetState(fleet, failovers(fleet, now)), config, now, i -> slotOf.get(i).history.history(),
                i -> slotOf.get(i).keyed(), i -> slotOf.get(i).fulls, lastCompression, i -> slotOf.get(i).identities,
                i -> slotOf.get(i).chains, merged);
        // a few rows (the RESTOREs the agents saw end within the lookback period): read each refresh
        analysis.withRestoreSpeeds(RestoreSpeeds.of(store.observedRestores(since, keep)));
        lastCompression = analysis.compression();
        writeSummaries(store, now);
        return new Refresh(analysis, rebuilt, newBackups);
    }

    /**
     * The failovers of the last day, this refresh's included: an availability group whose primary (the replica whose
     * newest report says PRIMARY) is another than at the previous refresh. The first refresh only learns the primaries.
     */
    private List<AgFailover> failovers(List<HostState> fleet, Instant now) {
        Map<String, Map.Entry<String, Instant>> seen = new HashMap<>();
        for (HostState h : fleet) {
            for (InstanceState i : h.instances()) {
                Instant at = i.collectedAt() == null ? Instant.EPOCH : i.collectedAt();
                for (var d : i.databases()) {
                    if (d.availabilityGroup() == null || !"PRIMARY".equalsIgnoreCase(d.replicaRole())) {
                        continue;
                    }
                    Map.Entry<String, Instant> was = seen.get(d.availabilityGroup());
                    if (was == null || at.isAfter(was.getValue())) {
                        seen.put(d.availabilityGroup(), Map.entry(h.host() + "/" + i.name(), at));
                    }
                }
            }
        }
        seen.forEach((ag, primary) -> {
            Map.Entry<String, Instant> before = primaries.put(ag, primary);
            if (before != null && !before.getKey().equals(primary.getKey())) {
                failovers.add(new AgFailover(ag, before.getKey(), primary.getKey(), primary.getValue()));
            }
        });
        failovers.removeIf(f -> f.at().isBefore(now.minus(Duration.ofDays(1))));
        return List.copyOf(failovers);
    }

    /**
     * On the first refresh: the failovers of the last day that the store's replica role changes show, so that ag-failover
     * survives a restart of the collector. Reads the database events of the instances that report an availability-group
     * database only; one where several databases moved counts once.
     */
    private void seedFailovers(ReportStore store, Instant now) throws Exception {
        List<AgFailover.RoleChange> changes = new ArrayList<>();
        for (Map.Entry<String, HostSlot> h : hosts.entrySet()) {
            for (InstanceSlot i : h.getValue().instances.values()) {
                if (i.sections.databases() == null || i.sections.databases().stream().allMatch(d -> d.availabilityGroup() == null)) {
                    continue;
                }
                for (DatabaseEvent e : store.databaseEvents(h.getKey(), i.sections.name(), now.minus(Duration.ofDays(1)))) {
                    if (DatabaseEvent.REPLICA_ROLE_CHANGED.equals(e.kind())) {
                        changes.add(new AgFailover.RoleChange(h.getKey() + "/" + i.sections.name(), e));
                    }
                }
            }
        }
        failovers.addAll(AgFailover.fromRoleChanges(changes));
    }

    /** The host's tags: its agent's {@code agent.tags}, and what {@code tagsOf} adds. */
    private Set<String> tags(FleetRow row) {
        Set<String> extra = tagsOf.apply(row.host());
        Set<String> own = HostGroupConfig.tagSet(row.agent() == null ? null : row.agent().tags());
        if (extra.isEmpty()) {
            return own;
        }
        Set<String> all = new java.util.TreeSet<>(own);
        all.addAll(extra);
        return all;
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
     * The digest with its strings shared across the fleet: every row read from the store carries its own copy
     * of a database name, guid, algorithm or target, and the digest is what the stage keeps.
     */
    private List<BackupRecord> canonical(List<BackupRecord> digest) {
        List<BackupRecord> out = new ArrayList<>(digest.size());
        for (BackupRecord b : digest) {
            out.add(new BackupRecord(b.backupSetId(), canon(b.databaseName()), canon(b.databaseGuid()), canon(b.type()),
                    b.copyOnly(), b.startedAt(), b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(),
                    b.compressedSizeBytes(), canon(b.compressionAlgorithm()), b.hasChecksums(), canon(b.keyAlgorithm()),
                    canon(b.encryptorThumbprint()), canon(b.encryptorType()), canon(b.deviceType()), canon(b.target()),
                    canon(b.familyGuid()), b.snapshot(), b.mediaFamilyCount()));
        }
        return List.copyOf(out);
    }

    private String canon(String s) {
        return strings.share(s);
    }

    /**
     * Makes the sections' database names and GUIDs the fleet's shared copies, before the instance's digest is shared:
     * the digest's backups then name their databases with the very strings the sections hold, not equal copies.
     */
    private void shareSectionStrings(InstanceSlot slot) {
        if (slot.sections.databases() == null) {
            return;
        }
        for (io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo d : slot.sections.databases()) {
            canon(d.name());
            canon(d.databaseGuid());
        }
        slot.identities.shareNames(this::canon);
    }

    /**
     * A new backup of an instance that is not stale: it joins the digest and, when it counts for the windows,
     * the open night; one that starts in the future or belongs to a finished night makes the instance stale.
     */
    private void take(InstanceSlot slot, BackupRecord b, Instant now) {
        if (b.startedAt() == null || b.finishedAt() == null) {
            return;
        }
        if (b.startedAt().isAfter(now)) {
            slot.stale = true;
            return;
        }
        DatabaseBackup backup = FleetAnalysis.toBackup(slot.scope, b, slot.identities);
        if (NightlyWindows.counts(backup, config.windows()) && !slot.history.add(backup, now)) {
            slot.stale = true;
            return;
        }
        slot.added.add(b);
        slot.tookSinceSummary = true;
        slot.compression.add(b, slot.modes);
        full(slot, b);
        chain(slot, b);
    }

    /** Takes {@code b}, started by now, into its database's log chain when it carries LSNs. */
    private void chain(InstanceSlot slot, BackupRecord b) {
        if (b.firstLsn() == null) {
            return;
        }
        ChainBackup c = ChainBackup.of(slot.scope, b, this::canon);
        if (c != null) {
            slot.chains.computeIfAbsent(slot.identities.key(b), k -> new LogChain()).add(c);
        }
    }

    /** Takes {@code b}, started by now, into the instance's baseline fulls when it is one. */
    private void full(InstanceSlot slot, BackupRecord b) {
        if (BaselineFulls.counts(b, config.baselineMinSeconds())) {
            slot.fulls.computeIfAbsent(slot.identities.key(b), k -> new BaselineFulls(slot.scope))
                    .add(b, config.baselineFulls(), config.baselineMinSeconds(), this::canon);
        }
    }

    /**
     * Brings the instance's baseline fulls to {@code now}: the backups that started since join them, those that left the
     * lookback period (by their finish, as the rules count them, or by their start, as a read from the store does) go.
     */
    private void fulls(InstanceSlot slot, Instant from, Instant now) {
        if (!slot.future.isEmpty() && !slot.future.get(0).startedAt().isAfter(now)) {
            List<BackupRecord> still = new ArrayList<>();
            for (BackupRecord b : slot.future) {
                if (b.startedAt().isAfter(now)) {
                    still.add(b);
                } else if (b.finishedAt().isAfter(from)) {
                    full(slot, b);
                    chain(slot, b);
                }
            }
            slot.future = List.copyOf(still);
        }
        for (BaselineFulls f : slot.fulls.values()) {
            f.dropUpTo(from);
        }
    }

    /** Keeps {@code digest} (its strings already shared) and when it must be worked out again. */
    private void digest(InstanceSlot slot, PackedDigest digest, Instant now) {
        slot.digest = digest;
        slot.digestSize = slot.digest.size();
        slot.digestValidUntil = crossing(slot.digest.keyed(), DatabaseBackup::startedAt, DatabaseBackup::finishedAt, now);
    }

    /**
     * The first instant after {@code now} at which one of {@code backups} leaves the lookback period (by its
     * finish, as the rules and the digest count it) or stops being in the future.
     */
    private <B> Instant crossing(List<B> backups, Function<B, Instant> started, Function<B, Instant> finished, Instant now) {
        Duration lookback = Duration.ofDays(config.windows().lookbackDays());
        Instant first = Instant.MAX;
        for (B b : backups) {
            Instant leaves = finished.apply(b).plus(lookback);
            if (leaves.isAfter(now)) {
                first = min(first, leaves);
            }
            if (started.apply(b).isAfter(now)) {
                first = min(first, started.apply(b));
            }
        }
        return first;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /**
     * Starts reading every kept instance's history, in the order the first refresh rebuilds them, on a thread of its
     * own: the accelerator changes from the earlier of the two periods {@link #rebuild} reads them for.
     */
    private ColdReads coldReads(ReportStore store, Instant since, Instant now) {
        List<InstanceKey> keys = new ArrayList<>();
        hosts.forEach((host, h) -> h.instances.values().stream().filter(i -> i.stale).forEach(
                i -> keys.add(new InstanceKey(host, i.sections.name(), i.jobsSeq != 0))));
        return ColdReads.start(store, keys, since, min(since, now.minus(FleetStates.ACCELERATOR_HISTORY)), pacer);
    }

    private void rebuild(ReportStore store, InstanceSlot slot, Instant since, Instant now) throws Exception {
        Instant historySince = now.minus(FleetStates.ACCELERATOR_HISTORY);
        InstanceHistory read = cold != null && cold.pending() ? cold.next(slot.host, slot.sections.name()) : null;
        List<BackupRecord> loaded;
        List<AcceleratorChange> modesHistory;
        if (read != null) {
            loaded = read.backups();
            slot.acceleratorHistory = AcceleratorChange.since(read.acceleratorChanges(), historySince);
            modesHistory = AcceleratorChange.since(read.acceleratorChanges(), since);
            if (read.jobs() != null) {
                slot.jobs = read.jobs();
                slot.jobsSeqRead = slot.jobsSeq;
            }
        } else {
            loaded = store.backups(slot.host, slot.sections.name(), since).stream().map(StoredBackup::backup).toList();
            slot.acceleratorHistory = store.acceleratorChanges(slot.host, slot.sections.name(), historySince);
            modesHistory = since.equals(historySince) ? slot.acceleratorHistory
                    : store.acceleratorChanges(slot.host, slot.sections.name(), since);
        }
        slot.databases = firstSeen(store, slot, since);
        shareSectionStrings(slot);
        InstanceState state = slot.state(loaded);
        String calendar = config.calendarNameFor(slot.host, state.name(), tags(hosts.get(slot.host).row));
        NightlyWindows.Nights known = nights.computeIfAbsent(calendar, c -> new NightlyWindows.Nights(calendars.get(c)));
        String scope = slot.scope;
        History history = FleetAnalysis.history(scope, known, state, loaded, config, now);
        Instant future = Instant.MAX;
        for (BackupRecord b : loaded) {
            if (b.startedAt() != null && b.finishedAt() != null && b.startedAt().isAfter(now)) {
                future = min(future, b.startedAt());
            }
        }
        slot.history = new KeptHistory(scope, known, config, history, future, now, this::canon);
        slot.calendar = calendar;
        digest(slot, PackedDigest.of(slot.scope, canonical(BackupDigest.of(loaded, config, now)), slot.identities,
                slot.history::same), now);
        slot.modes = FleetStates.qatModes(modesHistory, state);
        slot.compression = FleetStates.compressionSamples(loaded, slot.modes, config.compression(), now);
        slot.fulls = new HashMap<>();
        slot.chains = new HashMap<>();
        List<BackupRecord> notStarted = new ArrayList<>();
        for (BackupRecord b : loaded) {
            if (b.startedAt() == null || b.finishedAt() == null) {
                continue;
            }
            if (b.startedAt().isAfter(now)) {
                notStarted.add(b);
            } else if (b.finishedAt().isAfter(since)) {
                full(slot, b);
                chain(slot, b);
            }
        }
        notStarted.sort(Comparator.comparing(BackupRecord::startedAt));
        slot.future = List.copyOf(notStarted);
        slot.stale = false;
        slot.summaryDue = true;
        slot.restoredFrom = -1;
    }

    /**
     * At the first refresh: every kept instance whose summary matches (this format, its sections, this configuration, not
     * older than {@link #SUMMARY_MAX_AGE}, not ahead of the store) is restored from it, then takes the backups stored
     * since it was written, each stretch between two summaries' positions read once; then it is brought to {@code now}
     * as any kept instance is. The rest stay stale: the cold reads rebuild them from their rows.
     */
    private void restore(ReportStore store, HostSelection keep, Instant since, Instant now) throws Exception {
        // decoded as the rows come, so the bodies are never held together: what is held is what the stage keeps anyway
        Map<InstanceSlot, Found> found = new IdentityHashMap<>();
        Instant oldest = now.minus(SUMMARY_MAX_AGE);
        store.summaries(keep, x -> {
            HostSlot h = hosts.get(x.host());
            InstanceSlot slot = h == null ? null : h.instances.get(x.instance());
            if (slot == null) {
                return;
            }
            summaryCounts.bytesRead += x.body().length;
            String refused = x.format() != InstanceSummaryCodec.FORMAT ? "format " + x.format()
                    : x.sectionsSeq() != slot.sectionsSeq ? "sections changed since"
                    : x.writtenAt().isBefore(oldest) ? "written " + x.writtenAt()
                    : x.position() > backupsRead ? "ahead of the store (position " + x.position() + ")" : null;
            InstanceSummaryCodec.Kept kept = null;
            String calendar = null;
            if (refused == null) {
                String name = slot.sections.name();
                // the tags its calendar is worked out for: the refresh that follows finds the host not re-tagged
                h.tags = tags(h.row);
                calendar = config.calendarNameFor(slot.host, name, h.tags);
                NightlyWindows.Nights known = nights.computeIfAbsent(calendar, c -> new NightlyWindows.Nights(calendars.get(c)));
                shareSectionStrings(slot);
                try {
                    kept = InstanceSummaryCodec.read(x.body(), configKey(calendar), slot.scope, known, config,
                            this::canon);
                    refused = kept == null ? "written under other settings" : null;
                } catch (RuntimeException e) {
                    refused = "damaged (" + e + ")";
                }
            }
            found.put(slot, new Found(x.position(), x.writtenAt(), kept, refused, calendar));
        });
        if (found.isEmpty()) {
            return;
        }
        TreeMap<Long, List<InstanceSlot>> byPosition = new TreeMap<>();
        List<InstanceSlot> restored = new ArrayList<>();
        String firstRefusal = null;
        for (Map.Entry<String, HostSlot> e : hosts.entrySet()) {
            for (InstanceSlot slot : e.getValue().instances.values()) {
                Found f = found.get(slot);
                if (f == null) {
                    continue;
                }
                if (f.refused() == null) {
                    restored.add(slot);
                    byPosition.computeIfAbsent(f.position(), k -> new ArrayList<>()).add(slot);
                } else {
                    summaryCounts.refused++;
                    if (firstRefusal == null) {
                        firstRefusal = e.getKey() + "/" + slot.sections.name() + ": " + f.refused();
                    }
                }
            }
        }
        Instant historySince = now.minus(FleetStates.ACCELERATOR_HISTORY);
        for (int from = 0; from < restored.size(); from += RESTORED_PER_READ) {
            List<InstanceSlot> batch = restored.subList(from, Math.min(restored.size(), from + RESTORED_PER_READ));
            List<InstanceKey> keys = new ArrayList<>(batch.size());
            batch.forEach(slot -> keys.add(new InstanceKey(slot.host, slot.sections.name(), false)));
            List<List<AcceleratorChange>> changes = store.acceleratorChanges(keys, min(since, historySince));
            List<InstanceKey> undated = keys.stream().filter(k -> lacksCreateDate(hosts.get(k.host()).instances.get(k.instance())))
                    .toList();
            Map<InstanceKey, List<DatabaseEvent>> events = new HashMap<>();
            List<List<DatabaseEvent>> read = undated.isEmpty() ? List.of() : store.databaseEvents(undated, since);
            for (int n = 0; n < undated.size(); n++) {
                events.put(undated.get(n), read.get(n));
            }
            for (int n = 0; n < batch.size(); n++) {
                pacer.pace();
                InstanceSlot slot = batch.get(n);
                Found f = found.get(slot);
                restore(slot, f.kept(), changes.get(n), events.getOrDefault(keys.get(n), List.of()), since, historySince);
                slot.calendar = f.calendar();
                slot.summarisedMorning = f.kept().history().latestFinishedMorning();
                slot.summarisedAt = f.writtenAt();
                slot.restoredFrom = f.position();
                summaryCounts.restored++;
            }
        }
        if (firstRefusal != null) {
            LOG.info("alert stage: {} instances' summaries not used, rebuilt from their backups instead (the first: {})",
                    summaryCounts.refused, firstRefusal);
        }
        List<Long> positions = new ArrayList<>(byPosition.keySet());
        for (int n = 0; n < positions.size(); n++) {
            long from = positions.get(n);
            long upTo = n + 1 < positions.size() ? positions.get(n + 1) : backupsRead;
            if (from >= upTo) {
                continue;
            }
            List<StoredBackup> stretch = store.backupsBetween(from, upTo, since, keep).backups();
            summaryCounts.backupsAfter += stretch.size();
            for (StoredBackup b : stretch) {
                HostSlot h = hosts.get(b.host());
                InstanceSlot slot = h == null ? null : h.instances.get(b.instance());
                if (slot != null && !slot.stale && slot.restoredFrom >= 0 && slot.restoredFrom <= from) {
                    take(slot, b.backup(), now);
                }
            }
        }
        // brought to now here, so that one that cannot be (a fit needing backups no longer kept) joins the cold reads
        for (List<InstanceSlot> slots : byPosition.values()) {
            for (InstanceSlot slot : slots) {
                if (!slot.stale && !slot.history.advance(now)) {
                    slot.stale = true;
                }
            }
        }
    }

    /** A summary read for a kept instance: what it decoded to, or why it is not used. */
    private record Found(long position, Instant writtenAt, InstanceSummaryCodec.Kept kept, String refused, String calendar) {
    }

    /**
     * Restores {@code slot} from what its summary kept. What the summary does not hold is read as a rebuild reads it: its
     * accelerator {@code changes} since the earlier of {@code since} and {@code historySince} and its database
     * {@code events} since {@code since} (for its databases' first-seen times), both read for many instances at once; its
     * job activity at the refresh, as for any instance.
     */
    private static void restore(InstanceSlot slot, InstanceSummaryCodec.Kept kept, List<AcceleratorChange> changes,
                                List<DatabaseEvent> events, Instant since, Instant historySince) throws Exception {
        slot.acceleratorHistory = AcceleratorChange.since(changes, historySince);
        slot.databases = firstSeen(slot, events);
        slot.modes = FleetStates.qatModes(AcceleratorChange.since(changes, since), slot.state(List.of()));
        slot.history = kept.history();
        slot.digest = kept.digest();
        slot.digestSize = kept.digestSize();
        slot.digestValidUntil = kept.digestValidUntil();
        slot.compression = kept.compression();
        slot.fulls = kept.fulls();
        slot.chains = kept.chains();
        slot.future = List.of();
        slot.stale = false;
        slot.summaryDue = false;
    }

    private long configKey(String calendar) {
        return configKeys.computeIfAbsent(calendar, c -> InstanceSummaryCodec.configKey(config, calendars.get(c)));
    }

    /**
     * Writes the summaries of instances whose backups changed what they keep, as of this refresh's store position: all of
     * them at the first refresh, at most {@link #SUMMARIES_PER_REFRESH} after. An instance with a backup that starts in the
     * future is not summarised (it is rebuilt when that backup starts anyway). A failed write costs only the next start's
     * time: it is logged and tried again at the next refresh.
     */
    private void writeSummaries(ReportStore store, Instant now) {
        boolean first = !summarised;
        summarised = true;
        List<InstanceSummary> batch = new ArrayList<>();
        List<InstanceSlot> batched = new ArrayList<>();
        int budget = first ? Integer.MAX_VALUE : SUMMARIES_PER_REFRESH;
        try {
            for (Map.Entry<String, HostSlot> e : hosts.entrySet()) {
                for (InstanceSlot slot : e.getValue().instances.values()) {
                    if (budget == 0) {
                        break;
                    }
                    if (!due(slot, now) || slot.stale || !slot.future.isEmpty()) {
                        continue;
                    }
                    pacer.pace();
                    String name = slot.sections.name();
                    byte[] body = InstanceSummaryCodec.write(configKey(slot.calendar), new InstanceSummaryCodec.Kept(slot.digest,
                            slot.digestSize, slot.digestValidUntil, slot.history, slot.compression, slot.fulls, slot.chains),
                            now);
                    batch.add(new InstanceSummary(slot.host, name, InstanceSummaryCodec.FORMAT, backupsRead, slot.sectionsSeq,
                            now, body));
                    batched.add(slot);
                    budget--;
                    if (batch.size() == SUMMARIES_PER_WRITE) {
                        flush(store, batch, batched);
                    }
                }
            }
            flush(store, batch, batched);
        } catch (StoppablePacer.Stopped e) {
            // the collector is stopping: the instances not written are rebuilt from their backups at the next start
            throw e;
        } catch (Exception e) {
            LOG.warn("alert stage: writing {} instance summaries failed ({}); they are written again at the next evaluation,"
                    + " and a restart meanwhile reads those instances' backups instead", batch.size(), e.toString());
        }
    }

    /**
     * Whether {@code slot}'s summary is to be written: it was rebuilt or never written, a night finished since, its
     * backups changed it and the summary is older than {@link #SUMMARY_INTERVAL}, or the summary is half a day old (so
     * an idle instance's never ages out).
     */
    private static boolean due(InstanceSlot slot, Instant now) {
        if (slot.summaryDue || slot.summarisedAt == null) {
            return true;
        }
        if (!java.util.Objects.equals(slot.summarisedMorning, slot.history.latestFinishedMorning())) {
            return true;
        }
        if (slot.tookSinceSummary && slot.summarisedAt.isBefore(now.minus(SUMMARY_INTERVAL))) {
            return true;
        }
        return slot.summarisedAt.isBefore(now.minus(SUMMARY_MAX_AGE.dividedBy(2)));
    }

    private void flush(ReportStore store, List<InstanceSummary> batch, List<InstanceSlot> batched) throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        store.writeSummaries(batch);
        for (InstanceSummary x : batch) {
            summaryCounts.bytesWritten += x.body().length;
        }
        summaryCounts.written += batch.size();
        for (int n = 0; n < batched.size(); n++) {
            InstanceSlot slot = batched.get(n);
            slot.summaryDue = false;
            slot.tookSinceSummary = false;
            slot.summarisedAt = batch.get(n).writtenAt();
            slot.summarisedMorning = slot.history.latestFinishedMorning();
        }
        batch.clear();
        batched.clear();
    }

    /**
     * The instance's databases with the first-seen time in place of a missing {@code create_date} (agents before issue
     * 31), from the store's database events of the lookback period; null (read nothing) when every database has one.
     */
    private static List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> firstSeen(ReportStore store, InstanceSlot slot,
            Instant since) throws Exception {
        return lacksCreateDate(slot) ? firstSeen(slot, store.databaseEvents(slot.host, slot.sections.name(), since)) : null;
    }

    /** Whether a database of the instance has no {@code create_date} (an agent before issue 31). */
    private static boolean lacksCreateDate(InstanceSlot slot) {
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs = slot.sections.databases();
        return dbs != null && dbs.stream().anyMatch(d -> d.createdAt() == null);
    }

    /** As {@link #firstSeen(ReportStore, InstanceSlot, Instant)}, from the instance's database {@code events} read already. */
    private static List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> firstSeen(InstanceSlot slot,
            List<DatabaseEvent> events) {
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs = slot.sections.databases();
        if (!lacksCreateDate(slot)) {
            return null;
        }
        Map<String, Instant> appeared = new HashMap<>();
        for (DatabaseEvent e : events) {
            if (DatabaseEvent.APPEARED.equals(e.kind())) {
                appeared.put(e.database(), e.at());
            }
        }
        if (appeared.isEmpty()) {
            return null;
        }
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> out = new ArrayList<>(dbs.size());
        for (var d : dbs) {
            Instant at = d.createdAt() == null ? appeared.get(d.name()) : null;
            out.add(at == null ? d : new io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo(d.name(), d.databaseGuid(),
                    d.recoveryModel(), d.encryptionState(), d.availabilityGroup(), d.replicaRole(), d.preferredBackupReplica(),
                    d.familyGuid(), d.groupDatabaseId(), d.availabilityGroupId(), d.autoClose(), d.tdeEncryptorThumbprint(),
                    d.tdeEncryptorType(), at));
        }
        return List.copyOf(out);
    }

    /**
     * Reads the instance's job activity again when the store says it changed (or it was never read); else drops what
     * left the lookback period, as a fresh read would.
     */
    private static void jobs(ReportStore store, InstanceSlot slot, Instant since) throws Exception {
        if (slot.jobsSeq == 0) {
            // no agent ever reported jobs for it: nothing to read
            slot.jobs = JobActivity.NONE;
            slot.jobsSeqRead = 0;
        } else if (slot.jobs == null || slot.jobsSeqRead != slot.jobsSeq || slot.jobsSeq < 0) {
            slot.jobs = store.jobActivity(slot.host, slot.sections.name(), since);
            slot.jobsSeqRead = slot.jobsSeq;
        } else {
            slot.jobs = slot.jobs.since(since);
        }
    }

    /**
     * Applies the heads: new, changed and gone hosts and instances, last reports and running backups. The rows of the new
     * and changed hosts are read together.
     */
    private void heads(ReportStore store, List<FleetHead> heads) throws Exception {
        Map<String, FleetHead> byHost = new HashMap<>();
        List<String> reload = new ArrayList<>();
        for (FleetHead head : heads) {
            byHost.put(head.host(), head);
            HostSlot slot = hosts.get(head.host());
            if (slot == null || changed(slot, head)) {
                reload.add(head.host());
            }
        }
        for (FleetRow row : reload.isEmpty() ? List.<FleetRow>of() : store.fleetRows(reload)) {
            HostSlot slot = hosts.computeIfAbsent(row.host(), h -> new HostSlot());
            load(slot, row, byHost.get(row.host()));
        }
        Set<String> reloaded = new HashSet<>(reload);
        for (FleetHead head : heads) {
            HostSlot slot = hosts.get(head.host());
            if (slot == null || reloaded.contains(head.host())) {
                continue;
            }
            slot.lastSeen = head.lastSeen();
            for (InstanceHead ih : head.instances()) {
                InstanceSlot i = slot.instances.get(ih.name());
                i.lastSeen = ih.lastSeen();
                i.running = ih.runningBackups();
                i.jobsSeq = ih.jobsSeq();
            }
        }
        hosts.keySet().removeIf(host -> !byHost.containsKey(host));
    }

    private static boolean changed(HostSlot slot, FleetHead head) {
        if (head.sectionsSeq() != slot.sectionsSeq || head.instances().size() != slot.instances.size()) {
            return true;
        }
        for (InstanceHead ih : head.instances()) {
            InstanceSlot i = slot.instances.get(ih.name());
            if (i == null || i.sectionsSeq != ih.sectionsSeq()) {
                return true;
            }
        }
        return false;
    }

    /** (Re)loads a host's row: instances whose sections changed, and new ones, are rebuilt. */
    private static void load(HostSlot slot, FleetRow row, FleetHead head) {
        Map<String, Long> seqs = new HashMap<>();
        Map<String, Long> jobsSeqs = new HashMap<>();
        if (head != null) {
            head.instances().forEach(ih -> seqs.put(ih.name(), ih.sectionsSeq()));
            head.instances().forEach(ih -> jobsSeqs.put(ih.name(), ih.jobsSeq()));
        }
        slot.row = row;
        slot.lastSeen = row.lastSeen();
        slot.sectionsSeq = head == null ? -1 : head.sectionsSeq();
        Map<String, InstanceSlot> before = new TreeMap<>(slot.instances);
        slot.instances.clear();
        for (SqlInstanceSnapshot s : row.instances()) {
            InstanceSlot i = before.get(s.name());
            long seq = seqs.getOrDefault(s.name(), -1L);
            if (i == null || i.sectionsSeq != seq) {
                i = i == null ? new InstanceSlot(row.host()) : i;
                i.sections(s, seq);
            } else {
                i.lastSeen = s.collectedAt();
                i.running = s.runningBackups() == null ? List.of() : s.runningBackups();
            }
            i.jobsSeq = jobsSeqs.getOrDefault(s.name(), -1L);
            slot.instances.put(s.name(), i);
        }
    }
}
