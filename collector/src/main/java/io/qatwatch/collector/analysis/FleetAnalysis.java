package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.DatabaseRecords.NO_CHAINS;
import static io.qatwatch.collector.analysis.DatabaseRecords.finished;
import static io.qatwatch.collector.analysis.DatabaseRecords.primary;
import static io.qatwatch.collector.analysis.DatabaseRecords.withChains;
import static io.qatwatch.collector.analysis.DatabaseRecords.withRow;

import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.CreepAnalysis;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.collector.window.SpillForecast;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The fleet seen through the configuration at one instant: each instance's calendar, nightly windows,
 * creep trend and spill forecasts, each availability group's merged windows, and every database merged
 * across replicas by its identity ({@link DatabaseIdentities}: an availability database's group_database_id,
 * else its database_guid). Pure; the status page and the InfluxDB sink can read it too.
 */
public final class FleetAnalysis {

    private final FleetState fleet;
    private final AnalysisConfig config;
    private final Instant now;
    private final Map<String, BusinessCalendar> calendars;
    private final List<InstanceAnalysis> instances = new ArrayList<>();
    private final Map<String, MergedDatabase> databases;
    private final Map<String, List<NightlyWindow>> groupWindows = new LinkedHashMap<>();
    private final Map<InstanceState, List<BackupRecord>> recent = new IdentityHashMap<>();
    private final FleetCompression compression;
    private final Function<InstanceState, List<DatabaseBackup>> keyed;
    private final Function<InstanceState, Map<String, BaselineFulls>> baselines;
    private final FleetCompression previousCompression;
    private final Function<InstanceState, DatabaseIdentities> identities;
    private final Function<InstanceState, Map<String, LogChain>> chains;
    /** Each instance's merged databases kept between the alert stage's evaluations; null for any other analysis. */
    private final MergedContributions contributions;
    /** The fleet's restore speeds (issue 30): set by the alert stage from the store's observed restores; none by default. */
    private volatile RestoreSpeeds restoreSpeeds = RestoreSpeeds.NONE;

    /** Analyses {@code fleet} as of {@code now}; {@code config} must have passed validation. */
    public FleetAnalysis(FleetState fleet, AnalysisConfig config, Instant now) {
        this(fleet, config, now, null);
    }

    /**
     * Analyses {@code fleet} as of {@code now} with each instance's {@link History} already known (the alert
     * stage keeps them between evaluations): its instances' backups then need only be what the rules read
     * ({@link BackupDigest}). No availability-group windows are built this way.
     */
    public FleetAnalysis(FleetState fleet, AnalysisConfig config, Instant now, Function<InstanceState, History> known) {
        this(fleet, config, now, known, null);
    }

    /**
     * As {@link #FleetAnalysis(FleetState, AnalysisConfig, Instant, Function)}, with each instance's backups already
     * turned into {@link DatabaseBackup}s keyed by their database's identity ({@code keyed}, in the order of
     * {@link InstanceState#backups()}; the alert stage keeps them between evaluations), so that only the lookback
     * period is applied to them here.
     */
    public FleetAnalysis(FleetState fleet, AnalysisConfig config, Instant now, Function<InstanceState, History> known,
                         Function<InstanceState, List<DatabaseBackup>> keyed) {
        this(fleet, config, now, known, keyed, null);
    }

    /**
     * As {@link #FleetAnalysis(FleetState, AnalysisConfig, Instant, Function, Function)}, with each instance's
     * {@link BaselineFulls} by database identity already known ({@code baselines}, kept by the alert stage between
     * evaluations, none left out of the lookback period): its backups then need not hold the fulls the throughput
     * baseline compares ({@link BackupDigest}).
     */
    public FleetAnalysis(FleetState fleet, AnalysisConfig config, Instant now, Function<InstanceState, History> known,
                         Function<InstanceState, List<DatabaseBackup>> keyed,
                         Function<InstanceState, Map<String, BaselineFulls>> baselines) {
        this(fleet, config, now, known, keyed, baselines, null, null, null, null);
    }

    /**
     * As above, reusing of {@code previous} (the alert stage's last compression) every host whose comparisons are the same,
     * and of {@code contributions} (the alert stage's, kept from its last evaluation and given this one's) every instance's
     * merged databases whose inputs are the same; {@code contributions} needs every function given.
     */
    FleetAnalysis(FleetState fleet, AnalysisConfig config, Instant now, Function<InstanceState, History> known,
                  Function<InstanceState, List<DatabaseBackup>> keyed,
                  Function<InstanceState, Map<String, BaselineFulls>> baselines, FleetCompression previous,
                  Function<InstanceState, DatabaseIdentities> identities, Function<InstanceState, Map<String, LogChain>> chains,
                  MergedContributions contributions) {
        this.identities = identities;
        this.contributions = known != null && keyed != null && baselines != null && identities != null && chains != null
                ? contributions : null;
        this.chains = chains;
        int count = 0;
        for (HostState h : fleet.hosts()) {
            for (InstanceState i : h.instances()) {
                count += i.databases().size();
            }
        }
        // the fleet's databases: sized once rather than grown through every power of two each minute
        this.databases = new LinkedHashMap<>((int) Math.min(1 << 30, count * 4L / 3 + 16));
        this.keyed = keyed;
        this.baselines = baselines;
        this.previousCompression = previous;
        this.fleet = fleet;
        this.config = config;
        this.now = now;
        this.calendars = config.businessCalendars();
        for (HostState h : fleet.hosts()) {
            for (InstanceState i : h.instances()) {
                String scope = h.host() + "/" + i.name();
                BusinessCalendar calendar = calendarFor(h, i.name());
                History history = known == null ? history(scope, calendar, i, recent(i), config, now) : known.apply(i);
                instances.add(analyse(h, i, scope, calendar, history));
            }
        }
        if (this.contributions != null) {
            new ContributionMerge(config, now, instances, databases, keyed, baselines, identities, chains,
                    this.contributions).merge();
        } else {
            mergeDatabases(known == null);
        }
        compression = compare();
    }

    /**
     * Every instance's compression comparisons, from the samples the instance came with (the store's and the
     * alert stage's know each QAT_DEFLATE backup's mode) or else from its backups in the accelerator's current mode.
     */
    private FleetCompression compare() {
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        Map<InstanceState, List<Comparison>> comparisons = new IdentityHashMap<>();
        for (HostState h : fleet.hosts()) {
            for (InstanceState i : h.instances()) {
                CompressionSamples samples = i.compression() != null ? i.compression()
                        : FleetStates.compressionSamples(i.backups(), QatModes.constant(QatModes.modeOf(i.accelerators())),
                                config.compression(), now);
                Map<String, Boolean> tde = identities != null ? identities.apply(i).tde(i) : tde(i);
                comparisons.put(i, samples.comparisons(from, tde, config.compression()));
            }
        }
        return FleetCompression.of(fleet, comparisons, previousCompression);
    }

    /**
     * Each database's TDE state by lower-case name, from {@code sys.dm_database_encryption_keys}: on unless NONE or
     * UNENCRYPTED (a database being encrypted or decrypted has encrypted pages); databases without a state are left out.
     */
    static Map<String, Boolean> tde(InstanceState i) {
        Map<String, Boolean> out = new HashMap<>();
        for (DatabaseInfo d : i.databases()) {
            String state = d.encryptionState();
            if (d.name() != null && state != null && !state.isBlank()) {
                String s = state.trim().toUpperCase(Locale.ROOT);
                out.put(d.name().toLowerCase(Locale.ROOT), !s.equals("NONE") && !s.equals("UNENCRYPTED"));
            }
        }
        return out;
    }

    /** The fleet's compression comparisons, host verdicts and restore burden. */
    public FleetCompression compression() {
        return compression;
    }

    /** How fast each host restored backups, per algorithm and target: what restore-time estimates go by. */
    public RestoreSpeeds restoreSpeeds() {
        return restoreSpeeds;
    }

    /** Gives this analysis the restore speeds read from the store (the alert stage does, each refresh). */
    FleetAnalysis withRestoreSpeeds(RestoreSpeeds speeds) {
        this.restoreSpeeds = speeds;
        return this;
    }

    /**
     * What an instance's backup history gives, as of one instant: its nightly windows, the creep fit of each
     * kind of night over the finished ones, and each database's tail on its latest finished night (for spill
     * forecasts). A night counts whole while it began inside the lookback period, and leaves it whole. The
     * history holds until {@code validUntil}: then a window finishes, the oldest night leaves the lookback
     * period, or a backup stops being in the future; a new backup that counts for the windows ends it earlier.
     */
    public record History(List<NightlyWindow> windows, Map<NightKind, CreepAnalysis.Fit> fits, Map<String, Long> tails,
                          Instant validUntil) {

        /**
         * The same history with each window reduced to its {@link NightlyWindow#summary() summary}; as of
         * {@code now}, the finished nights before the latest keep no backup at all (no rule reads them).
         */
        public History summary(Instant now) {
            int latestFinished = -1;
            for (int k = 0; k < windows.size(); k++) {
                if (!windows.get(k).businessStart().isAfter(now)) {
                    latestFinished = k;
                }
            }
            List<NightlyWindow> out = new ArrayList<>(windows.size());
            for (int k = 0; k < windows.size(); k++) {
                NightlyWindow w = windows.get(k).summary();
                out.add(k < latestFinished ? w.withoutBackups() : w);
            }
            return new History(List.copyOf(out), fits, tails, validUntil);
        }
    }

    /**
     * An instance's {@link History} from its backups loaded for the lookback period ({@code loaded}, all of
     * them, as the store returned them) as of {@code now}.
     */
    public static History history(String scope, BusinessCalendar calendar, InstanceState i, List<BackupRecord> loaded,
                                  AnalysisConfig config, Instant now) {
        return history(scope, new NightlyWindows.Nights(calendar), i, loaded, config, now);
    }

    /** As {@link #history(String, BusinessCalendar, InstanceState, List, AnalysisConfig, Instant)}, with the calendar's nights. */
    public static History history(String scope, NightlyWindows.Nights nights, InstanceState i, List<BackupRecord> loaded,
                                  AnalysisConfig config, Instant now) {
        BusinessCalendar calendar = nights.calendar();
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        Instant validUntil = Instant.MAX;
        List<DatabaseBackup> backups = new ArrayList<>(loaded.size());
        DatabaseIdentities ids = DatabaseIdentities.of(scope, i);
        for (BackupRecord b : loaded) {
            if (b.finishedAt() == null || b.startedAt() == null) {
                continue;
            }
            if (b.startedAt().isAfter(now)) {
                validUntil = min(validUntil, b.startedAt());
                continue;
            }
            BusinessCalendar.Night night = nights.containing(b.startedAt());
            if (night != null && night.businessEnd().isAfter(from)) {
                backups.add(toBackup(scope, b, ids));
            }
        }
        List<NightlyWindow> windows = NightlyWindows.build(scope, backups, nights, config.windows());
        List<NightlyWindow> finished = new ArrayList<>();
        for (NightlyWindow w : windows) {
            if (w.businessStart().isAfter(now)) {
                validUntil = min(validUntil, w.businessStart());
            } else {
                finished.add(w);
            }
        }
        if (!windows.isEmpty()) {
            validUntil = min(validUntil, windows.get(0).businessEnd().plus(Duration.ofDays(config.windows().lookbackDays())));
        }
        return new History(windows, CreepAnalysis.fits(finished, calendar, config.creep()),
                SpillForecast.tails(finished), validUntil);
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /**
     * One instance's analysis.
     *
     * @param scope {@code host/instance}
     * @param silent the instance's agent has not reported within the agent-silent threshold
     */
    public record InstanceAnalysis(HostState host, InstanceState instance, String scope, BusinessCalendar calendar,
                                   List<NightlyWindow> windows, Map<NightKind, CreepTrend> creep,
                                   List<SpillForecast> spills, boolean silent) {
    }

    /**
     * A database across the fleet: every replica's backups together, so a backup taken on a secondary
     * counts for the database, and no replica's own msdb makes it look unprotected.
     *
     * @param key        its identity ({@link DatabaseIdentities}), the key of {@link #databases()}
     * @param host       the host of the primary replica (or the only copy)
     * @param replicas   {@code host/instance} of every copy
     * @param silent     every agent holding a copy is silent: nothing here is current
     * @param fulls      each replica's fulls that the throughput baseline compares (in {@link #backups} only as far as
     *                   other rules read them), in the order of {@code replicas}
     * @param chains     each replica's {@link LogChain} of the database (the replicas whose backups carry LSNs), in the order
     *                   of {@code replicas}: what its restore plan and log-chain-broken read
     */
    public record MergedDatabase(String key, String name, String availabilityGroup, String host, String instance,
                                 String recoveryModel, List<String> replicas, List<DatabaseBackup> backups, boolean silent,
                                 List<BaselineFulls> fulls, List<LogChain> chains, Instant appearedAt) {
    }

    /**
     * Each database's {@link LogChain} of one instance, by identity, from its backups in store order (those without
     * LSNs left out); {@code everyLog} keeps each log backup a link of its own, as the restore plan API lists them.
     */
    public static Map<String, LogChain> chains(String scope, List<BackupRecord> backups, DatabaseIdentities ids,
                                               boolean everyLog) {
        Map<String, LogChain> out = new HashMap<>();
        for (BackupRecord b : backups) {
            ChainBackup c = ChainBackup.of(scope, b);
            if (c != null) {
                out.computeIfAbsent(ids.key(b), k -> new LogChain(everyLog)).add(c);
            }
        }
        return out;
    }

    public Instant now() {
        return now;
    }

    public AnalysisConfig config() {
        return config;
    }

    public FleetState fleet() {
        return fleet;
    }

    public List<InstanceAnalysis> instances() {
        return instances;
    }

    /** One instance's analysis, if the fleet has it (host and instance names compare case-insensitively). */
    public java.util.Optional<InstanceAnalysis> instance(String host, String instance) {
        return instances.stream().filter(ia -> ia.host().host().equalsIgnoreCase(host)
                && ia.instance().name().equalsIgnoreCase(instance)).findFirst();
    }

    /** Databases by identity ({@link DatabaseIdentities}; {@code host/instance/name} when an agent sent no guid). */
    public Map<String, MergedDatabase> databases() {
        return databases;
    }

    /** Nightly windows of each availability group, merged across its replicas, by group name. */
    public Map<String, List<NightlyWindow>> availabilityGroupWindows() {
        return groupWindows;
    }

    /** The calendar that applies to a host and instance. */
    public BusinessCalendar calendarFor(HostState h, String instance) {
        return calendars.get(config.calendarNameFor(h.host(), instance, h.tags()));
    }

    /** True when the host's agent has not reported for longer than the agent-silent threshold. */
    public boolean silent(HostState h) {
        return h.lastSeen() == null
                || Duration.between(h.lastSeen(), now).toMinutes() > config.agentSilentMinutes();
    }

    private InstanceAnalysis analyse(HostState h, InstanceState i, String scope, BusinessCalendar calendar, History history) {
        LocalDate today = now.atZone(calendar.zone()).toLocalDate();
        Map<NightKind, CreepTrend> creep = new EnumMap<>(NightKind.class);
        history.fits().forEach((kind, fit) -> creep.put(kind, fit.project(today)));
        List<SpillForecast> spills = new ArrayList<>();
        Instant at = i.collectedAt() == null ? now : i.collectedAt();
        for (RunningBackup r : i.runningBackups()) {
            if (r.command() == null || !r.command().toUpperCase(Locale.ROOT).startsWith("BACKUP DATABASE")) {
                continue;
            }
            SpillForecast.of(scope, r.databaseName(), r.startedAt(), r.percentComplete(), r.elapsedSeconds(), at, calendar,
                    SpillForecast.tail(history.tails(), r.databaseName()),
                    config.spillMinPercentComplete()).ifPresent(spills::add);
        }
        return new InstanceAnalysis(h, i, scope, calendar, history.windows(), creep, spills, silent(h));
    }

    /** The instance's backups inside the lookback period. */
    private List<BackupRecord> recent(InstanceState i) {
        return recent.computeIfAbsent(i, this::inLookback);
    }

    private List<BackupRecord> inLookback(InstanceState i) {
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        return i.backups().stream().filter(b -> b.finishedAt() != null && b.startedAt() != null
                && b.finishedAt().isAfter(from) && !b.startedAt().isAfter(now)).toList();
    }

    static DatabaseBackup toBackup(String scope, BackupRecord b, DatabaseIdentities ids) {
        return new DatabaseBackup(scope, b.databaseName(), ids.key(b), b.type(), b.copyOnly(), b.startedAt(),
                b.finishedAt(), b.backupSizeBytes(), b.compressedSizeBytes(), b.compressionAlgorithm(), b.target(),
                ids.onSecondary(b), b.sizeIsEstimate());
    }

    /** Where the backups of a database the instance does not list go: nowhere. */
    private static final List<DatabaseBackup> NOWHERE = List.of();

    /**
     * Merges each database's replicas. A database's backups, fulls and chains lists are made with its first replica's
     * record and handed on to the records of the next ones, so that no fleet-wide map per list is built each
     * evaluation (three maps of every database were most of this method's cost at 10,000 instances); a database gets a
     * chains list of its own only when a replica has a chain.
     */
    private void mergeDatabases(boolean groupWindowsToo) {
        Map<String, List<DatabaseBackup>> agBackups = new LinkedHashMap<>();
        Map<String, BusinessCalendar> agCalendar = new LinkedHashMap<>();
        for (InstanceAnalysis ia : instances) {
            DatabaseIdentities ids = identities != null ? identities.apply(ia.instance())
                    : DatabaseIdentities.of(ia.scope(), ia.instance());
            for (DatabaseInfo d : ia.instance().databases()) {
                String key = ids.key(d);
                boolean primary = primary(d);
                databases.put(key, withRow(databases.get(key), key, d, ia));
                if (d.availabilityGroup() != null) {
                    agCalendar.putIfAbsent(d.availabilityGroup(), ia.calendar());
                    if (primary) {
                        agCalendar.put(d.availabilityGroup(), ia.calendar());
                    }
                }
            }
            // The fleet-wide maps are large: look each database up once per instance, not once per backup.
            Map<String, List<DatabaseBackup>> mine = new HashMap<>();
            List<DatabaseBackup> known = keyed == null ? null : keyed.apply(ia.instance());
            List<BackupRecord> records = known == null ? recent(ia.instance()) : List.of();
            Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
            Map<String, BaselineFulls> instanceFulls = baselines != null ? baselines.apply(ia.instance())
                    : BaselineFulls.of(ia.scope(), recent(ia.instance()), ids, config);
            int n = known == null ? records.size() : known.size();
            for (int k = 0; k < n; k++) {
                DatabaseBackup backup;
                if (known == null) {
                    BackupRecord b = records.get(k);
                    backup = toBackup(ia.scope(), b, ids);
                } else {
                    backup = known.get(k);
                    if (!backup.finishedAfter(from) || backup.startedAfter(now)) {
                        continue;
                    }
                }
                String key = backup.databaseKey();
                List<DatabaseBackup> into = mine.computeIfAbsent(key, c -> {
                    MergedDatabase m = databases.get(c);
                    return m == null ? NOWHERE : m.backups();
                });
                if (into == NOWHERE) {
                    continue;
                }
                into.add(backup);
                String ag = groupWindowsToo ? databases.get(key).availabilityGroup() : null;
                if (ag != null) {
                    agBackups.computeIfAbsent(ag, g -> new ArrayList<>()).add(backup);
                }
            }
            // as the backups: a database only a later instance lists gets none of this one's
            instanceFulls.forEach((key, f) -> {
                MergedDatabase m = f.size() > 0 ? databases.get(key) : null;
                if (m != null) {
                    m.fulls().add(f);
                }
            });
            Map<String, LogChain> instanceChains = chains != null ? chains.apply(ia.instance())
                    : chains(ia.scope(), recent(ia.instance()), ids, false);
            instanceChains.forEach((key, c) -> {
                MergedDatabase m = c.isEmpty() ? null : databases.get(key);
                if (m != null) {
                    if (m.chains() == NO_CHAINS) {
                        m = withChains(m);
                        databases.put(key, m);
                    }
                    m.chains().add(c);
                }
            });
        }
        agBackups.forEach((ag, backups) -> groupWindows.put(ag, NightlyWindows.build("ag:" + ag, backups,
                agCalendar.get(ag), config.windows())));
        // the evaluation is held until the next: each database's lists as immutable ones of the size they came to (one
        // or two backups and at most one replica's fulls hold no array), not the growable ones the merge filled
        databases.replaceAll((key, m) -> finished(m));
    }
}
