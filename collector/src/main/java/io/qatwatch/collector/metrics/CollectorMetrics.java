package io.qatwatch.collector.metrics;

import io.qatwatch.collector.metrics.PrometheusText.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The ingest counters and agents' outbox depths the collector exposes on {@code GET /metrics}. */
public final class CollectorMetrics implements MetricsSource {

    private final LongAdder accepted = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder backupsStored = new LongAdder();
    private final Map<String, LongAdder> rejected = new ConcurrentHashMap<>();
    private final Map<List<String>, LongAdder> apiBodiesRejected = new ConcurrentHashMap<>();
    private final LongAdder ingestSeconds = new LongAdder();
    private final LongAdder ingestCount = new LongAdder();
    private final Map<String, LongAdder> notificationsSent = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> notificationsFailed = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> notificationsDropped = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> notificationsAfterLapse = new ConcurrentHashMap<>();
    private final long[] latencyBucketsMs = {5, 10, 25, 50, 100, 250, 500, 1000, 5000};
    private final LongAdder[] latencyCounts = new LongAdder[latencyBucketsMs.length];
    private final Map<String, Long> outboxDepths = new ConcurrentHashMap<>();
    /** The alert stage's figures; null while the collector runs without one. */
    private volatile StageFigures stage;

    /**
     * What the alert stage reports of itself: evaluations done, the latest one's start and duration, instances rebuilt
     * from their rows and restored from their summaries, the instances held, and how long it was held back for ingest.
     */
    private static final class StageFigures {
        final LongAdder evaluations = new LongAdder();
        final LongAdder rebuilt = new LongAdder();
        volatile long restored;
        volatile long summariesWritten;
        volatile double lastStartedSeconds;
        volatile double lastDurationSeconds;
        volatile long instances;
        final java.util.function.LongSupplier heldBackNanos;

        StageFigures(java.util.function.LongSupplier heldBackNanos) {
            this.heldBackNanos = heldBackNanos;
        }
    }

    public CollectorMetrics() {
        for (int i = 0; i < latencyCounts.length; i++) {
            latencyCounts[i] = new LongAdder();
        }
    }

    /** Reports stored since the collector started (the pacer's sign that ingest is busy). */
    public long reportsAccepted() {
        return accepted.sum();
    }

    /** The alert stage runs: its families appear, {@code heldBackNanos} counting the time its pacer held it back. */
    public void alertStage(java.util.function.LongSupplier heldBackNanos) {
        stage = new StageFigures(heldBackNanos);
    }

    /**
     * One evaluation ended: it started at {@code startedEpochMillis} and took {@code nanos}, rebuilt {@code rebuilt}
     * instances from their rows, and the stage holds {@code instances}; since it started, it restored {@code restored}
     * instances from their persisted summaries and wrote {@code summariesWritten} summaries. Only a {@code finished}
     * one (its alerts saved) counts as an evaluation and moves the latest one's start and duration: one that failed
     * (the store away or damaged) or was ended by a stop does not, so a stage that fails every minute shows it.
     */
    public void evaluated(boolean finished, long startedEpochMillis, long nanos, int rebuilt, long instances, long restored,
            long summariesWritten) {
        StageFigures s = stage;
        if (s == null) {
            return;
        }
        s.rebuilt.add(rebuilt);
        s.restored = restored;
        s.summariesWritten = summariesWritten;
        s.instances = instances;
        if (finished) {
            s.lastStartedSeconds = startedEpochMillis / 1000.0;
            s.lastDurationSeconds = nanos / 1e9;
            s.evaluations.increment();
        }
    }

    public void accepted(int newBackups, boolean duplicate) {
        if (duplicate) {
            duplicates.increment();
        } else {
            accepted.increment();
            backupsStored.add(newBackups);
        }
    }

    /** A refused report, by reason: {@code unauthorized}, {@code invalid}, {@code too_large}, {@code rate_limited}, ... */
    public void rejected(String reason) {
        rejected.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** A request body an API route other than reports refused: its route ({@code notes}, {@code tokens}, ...) and reason. */
    public void apiBodyRejected(String route, String reason) {
        apiBodiesRejected.computeIfAbsent(List.of(route, reason), k -> new LongAdder()).increment();
    }

    /** A notification a chat channel accepted. */
    public void notificationSent(String channel) {
        notificationsSent.computeIfAbsent(channel, c -> new LongAdder()).increment();
    }

    /** A notification put off to the next evaluation: its channel was retrying its most groups already. */
    public void notificationDropped(String channel) {
        notificationsDropped.computeIfAbsent(channel, c -> new LongAdder()).increment();
    }

    /**
     * A delivery that ended after the lease on its host's slice lapsed (a pause, the database away): the slice's new
     * owner announces it again, so the channel may have it twice.
     */
    public void notificationAfterLapse(String channel) {
        notificationsAfterLapse.computeIfAbsent(channel, c -> new LongAdder()).increment();
    }

    /** A delivery attempt a chat channel failed or refused (each retry counts). */
    public void notificationFailed(String channel) {
        notificationsFailed.computeIfAbsent(channel, c -> new LongAdder()).increment();
    }

    public void ingestLatency(long nanos) {
        ingestCount.increment();
        ingestSeconds.add(nanos / 1000);
        long ms = nanos / 1_000_000;
        for (int i = 0; i < latencyBucketsMs.length; i++) {
            if (ms <= latencyBucketsMs[i]) {
                latencyCounts[i].increment();
            }
        }
    }

    /** The outbox depth an agent reported last (reports waiting on its disk); the fleet's sum and maximum are gauges. */
    public void agentOutbox(String host, long depth) {
        outboxDepths.put(host, depth);
    }

    /** Ingest counters and the latency histogram, then the agents' outbox depths. */
    @Override
    public void writeTo(PrometheusText out) {
        out.family("qatwatch_reports_accepted_total", Type.COUNTER, "Reports stored.").sample(accepted.sum());
        out.family("qatwatch_reports_duplicate_total", Type.COUNTER, "Reports received again (same reportId), stored once.")
                .sample(duplicates.sum());
        out.family("qatwatch_backups_stored_total", Type.COUNTER, "Backup rows stored, from the reports accepted.")
                .sample(backupsStored.sum());
        out.family("qatwatch_reports_rejected_total", Type.COUNTER, "Reports refused, by reason.");
        rejected.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.sample(Map.of("reason", e.getKey()), e.getValue().sum()));
        out.family("qatwatch_api_bodies_rejected_total", Type.COUNTER,
                "Request bodies refused by an API route other than reports, by route and reason.");
        apiBodiesRejected.entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> String.join("/", a).compareTo(String.join("/", b))))
                .forEach(e -> {
                    Map<String, String> labels = new LinkedHashMap<>();
                    labels.put("route", e.getKey().get(0));
                    labels.put("reason", e.getKey().get(1));
                    out.sample(labels, e.getValue().sum());
                });
        out.family("qatwatch_ingest_latency_seconds", Type.HISTOGRAM, "Time from request to answer for accepted reports.");
        for (int i = 0; i < latencyBucketsMs.length; i++) {
            out.sample("_bucket", Map.of("le", Double.toString(latencyBucketsMs[i] / 1000.0)), latencyCounts[i].sum());
        }
        out.sample("_bucket", Map.of("le", "+Inf"), ingestCount.sum())
                .sample("_sum", Map.of(), ingestSeconds.sum() / 1_000_000.0)
                .sample("_count", Map.of(), ingestCount.sum());
        long sum = 0;
        long max = 0;
        for (long depth : outboxDepths.values()) {
            sum += depth;
            max = Math.max(max, depth);
        }
        out.family("qatwatch_agent_outbox_reports", Type.GAUGE,
                "Reports waiting in the agents' outboxes, as each agent last reported (agents heard from since the collector started).")
                .sample(sum);
        out.family("qatwatch_agent_outbox_max_reports", Type.GAUGE, "The fullest agent outbox, in reports, as last reported.")
                .sample(max);
        StageFigures s = stage;
        if (s != null) {
            writeStage(out, s);
        }
        perChannel(out, "qatwatch_notifications_sent_total", "Notifications a chat channel accepted, by channel.",
                notificationsSent);
        perChannel(out, "qatwatch_notifications_failed_total",
                "Delivery attempts a chat channel failed or refused (each retry counts), by channel.", notificationsFailed);
        perChannel(out, "qatwatch_notifications_dropped_total", "Notifications put off to the next evaluation because "
                + "the channel was retrying its most groups already, by channel.", notificationsDropped);
        perChannel(out, "qatwatch_notifications_after_lease_lapse_total", "Deliveries that ended after the lease on their "
                + "host's slice lapsed (a pause, the database away): the slice's new owner announces them again, so the "
                + "channel may have them twice; by channel.", notificationsAfterLapse);
    }

    private static void perChannel(PrometheusText out, String name, String help, Map<String, LongAdder> counts) {
        out.family(name, Type.COUNTER, help);
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.sample(Map.of("channel", e.getKey()), e.getValue().sum()));
    }

    private static void writeStage(PrometheusText out, StageFigures s) {
        out.family("qatwatch_alert_evaluations_total", Type.COUNTER, "Evaluations of the fleet the alert stage finished.")
                .sample(s.evaluations.sum());
        out.family("qatwatch_alert_evaluation_last_start_seconds", Type.GAUGE,
                "When the latest finished evaluation started, in seconds since the Unix epoch (0 before the first).")
                .sample(s.lastStartedSeconds);
        out.family("qatwatch_alert_evaluation_last_duration_seconds", Type.GAUGE,
                "How long the latest finished evaluation took, reads, rules and saving its alerts included.")
                .sample(s.lastDurationSeconds);
        out.family("qatwatch_alert_instances", Type.GAUGE, "SQL Server instances the alert stage holds and evaluates.")
                .sample(s.instances);
        out.family("qatwatch_alert_instances_rebuilt_total", Type.COUNTER,
                "Instances the alert stage built from their backup rows (new, changed, or without a usable summary).")
                .sample(s.rebuilt.sum());
        out.family("qatwatch_alert_instances_restored_total", Type.COUNTER,
                "Instances the alert stage restored from their persisted summaries at a start.")
                .sample(s.restored);
        out.family("qatwatch_alert_summaries_written_total", Type.COUNTER,
                "Persisted instance summaries the alert stage wrote (a night finished, a rebuild).")
                .sample(s.summariesWritten);
        out.family("qatwatch_alert_stage_held_back_seconds_total", Type.COUNTER,
                "Time the alert stage's threads slept so that reports arriving had the CPU (evaluation.busyCoreShare).")
                .sample(s.heldBackNanos.getAsLong() / 1e9);
    }
}
