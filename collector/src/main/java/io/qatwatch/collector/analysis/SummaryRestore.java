package io.qatwatch.collector.analysis;

import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.DatabaseEvent;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.window.NightlyWindows;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At the first refresh, restores the kept instances from their persisted summaries (issue 33,
 * {@link InstanceSummaryCodec}) instead of reading every backup row of the lookback period.
 */
final class SummaryRestore {

    /** Under {@link LiveFleet}'s name, as before the stage's summary work had a class of its own: log filters still match. */
    private static final Logger LOG = LoggerFactory.getLogger(LiveFleet.class);
    /** Restored instances whose accelerator changes one store read takes. */
    private static final int RESTORED_PER_READ = 256;
    /**
     * A summary older than this is not restored: after a night away most instances have a backup of a night that has
     * finished since, which rebuilds them from their rows anyway, and the backups since would be read into memory at once.
     */
    static final Duration SUMMARY_MAX_AGE = Duration.ofHours(24);

    private final AnalysisConfig config;
    private final Map<String, HostSlot> hosts;
    private final HostTags tags;
    private final FleetCalendars calendars;
    private final InstanceRefresh instances;
    private final LiveFleet.SummaryCounts summaryCounts;

    SummaryRestore(AnalysisConfig config, Map<String, HostSlot> hosts, HostTags tags, FleetCalendars calendars,
                   InstanceRefresh instances, LiveFleet.SummaryCounts summaryCounts) {
        this.config = config;
        this.hosts = hosts;
        this.tags = tags;
        this.calendars = calendars;
        this.instances = instances;
        this.summaryCounts = summaryCounts;
    }

    /**
     * At the first refresh: every kept instance whose summary matches (this format, its sections, this configuration, not
     * older than {@link #SUMMARY_MAX_AGE}, not ahead of the store) is restored from it, then takes the backups stored
     * since it was written, each stretch between two summaries' positions read once; then it is brought to {@code now}
     * as any kept instance is. The rest stay stale: the cold reads rebuild them from their rows.
     */
    void restore(ReportStore store, HostSelection keep, Instant since, Instant now, long backupsRead, Pacer pacer)
            throws Exception {
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
                h.tags = tags.of(h.row);
                calendar = config.calendarNameFor(slot.host, name, h.tags);
                NightlyWindows.Nights known = calendars.nights(calendar);
                instances.shareSectionStrings(slot);
                try {
                    kept = InstanceSummaryCodec.read(x.body(), calendars.configKey(calendar), slot.scope, known, config,
                            instances::canon);
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
            List<List<AcceleratorChange>> changes = store.acceleratorChanges(keys, InstanceRefresh.min(since, historySince));
            List<InstanceKey> undated = keys.stream().filter(k -> FirstSeenDatabases.lacksCreateDate(hosts.get(k.host()).instances.get(k.instance())))
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
                    instances.take(slot, b.backup(), now);
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
        slot.databases = FirstSeenDatabases.firstSeen(slot, events);
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
}
