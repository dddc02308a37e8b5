package io.qatwatch.collector.analysis;

import io.qatwatch.collector.pacing.Pacer;
import io.qatwatch.collector.pacing.StoppablePacer;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes the persisted summaries (issue 33) of the kept instances whose backups changed what they keep. */
final class SummaryWrites {

    /** Under {@link LiveFleet}'s name, as before the stage's summary work had a class of its own: log filters still match. */
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
    /**
     * Summaries written per transaction: ~1 MB at 90 nights (31.5 KiB each), so ingest's next group commit, which waits
     * for the writer, waits for one such chunk at most (500 a transaction held it for ~15 MB).
     */
    private static final int SUMMARIES_PER_WRITE = 32;

    private final Map<String, HostSlot> hosts;
    private final FleetCalendars calendars;
    private final LiveFleet.SummaryCounts summaryCounts;
    private boolean summarised;

    SummaryWrites(Map<String, HostSlot> hosts, FleetCalendars calendars, LiveFleet.SummaryCounts summaryCounts) {
        this.hosts = hosts;
        this.calendars = calendars;
        this.summaryCounts = summaryCounts;
    }

    /**
     * Writes the summaries of instances whose backups changed what they keep, as of this refresh's store position: all of
     * them at the first refresh, at most {@link #SUMMARIES_PER_REFRESH} after. An instance with a backup that starts in the
     * future is not summarised (it is rebuilt when that backup starts anyway). A failed write costs only the next start's
     * time: it is logged and tried again at the next refresh.
     */
    void write(ReportStore store, Instant now, long backupsRead, Pacer pacer) {
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
                    byte[] body = InstanceSummaryCodec.write(calendars.configKey(slot.calendar), new InstanceSummaryCodec.Kept(slot.digest,
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
        return slot.summarisedAt.isBefore(now.minus(SummaryRestore.SUMMARY_MAX_AGE.dividedBy(2)));
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
}
