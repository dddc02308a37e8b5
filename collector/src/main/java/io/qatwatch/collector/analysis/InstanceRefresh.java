package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceHistory;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Brings each kept instance to the refresh's {@code now}: its new backups taken into its open night, digest, baseline
 * fulls and log chains, what left the lookback period dropped, its job activity read again when it changed, and the
 * instance rebuilt from its stored backups when that cannot be worked out in memory.
 */
final class InstanceRefresh {

    private final AnalysisConfig config;
    private final Map<String, HostSlot> hosts;
    private final HostTags tags;
    private final FleetCalendars calendars;
    /** Strings the digests share (names, guids, algorithms, targets): a fleet has few distinct ones per instance. */
    private final SharedStrings strings = new SharedStrings();

    InstanceRefresh(AnalysisConfig config, Map<String, HostSlot> hosts, HostTags tags, FleetCalendars calendars) {
        this.config = config;
        this.hosts = hosts;
        this.tags = tags;
        this.calendars = calendars;
    }

    /**
     * Brings {@code slot} to {@code now}: rebuilt when stale or when its history cannot advance in memory, else its
     * backups taken since the previous refresh join its digest. Returns whether it was rebuilt.
     */
    boolean bringToNow(ReportStore store, InstanceSlot slot, ColdReads cold, Instant since, Instant now) throws Exception {
        boolean rebuilt = false;
        if (slot.stale || !slot.history.advance(now)) {
            rebuild(store, slot, cold, since, now);
            rebuilt = true;
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
        return rebuilt;
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

    String canon(String s) {
        return strings.share(s);
    }

    /**
     * Makes the sections' database names and GUIDs the fleet's shared copies, before the instance's digest is shared:
     * the digest's backups then name their databases with the very strings the sections hold, not equal copies.
     */
    void shareSectionStrings(InstanceSlot slot) {
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
    void take(InstanceSlot slot, BackupRecord b, Instant now) {
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

    static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private void rebuild(ReportStore store, InstanceSlot slot, ColdReads cold, Instant since, Instant now) throws Exception {
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
        slot.databases = FirstSeenDatabases.firstSeen(store, slot, since);
        shareSectionStrings(slot);
        InstanceState state = slot.state(loaded);
        String calendar = config.calendarNameFor(slot.host, state.name(), tags.of(hosts.get(slot.host).row));
        NightlyWindows.Nights known = calendars.nights(calendar);
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
}
