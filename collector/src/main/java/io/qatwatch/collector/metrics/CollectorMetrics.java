package io.qatwatch.collector.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counters the collector exposes on {@code GET /metrics} in Prometheus text format. */
public final class CollectorMetrics {

    private final LongAdder accepted = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder backupsStored = new LongAdder();
    private final Map<String, LongAdder> rejected = new ConcurrentHashMap<>();
    private final LongAdder ingestSeconds = new LongAdder();
    private final LongAdder ingestCount = new LongAdder();
    private final Map<String, LongAdder> notificationsSent = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> notificationsFailed = new ConcurrentHashMap<>();
    private final long[] latencyBucketsMs = {5, 10, 25, 50, 100, 250, 500, 1000, 5000};
    private final LongAdder[] latencyCounts = new LongAdder[latencyBucketsMs.length];

    public CollectorMetrics() {
        for (int i = 0; i < latencyCounts.length; i++) {
            latencyCounts[i] = new LongAdder();
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

    /** A notification a chat channel accepted. */
    public void notificationSent(String channel) {
        notificationsSent.computeIfAbsent(channel, c -> new LongAdder()).increment();
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

    /** Prometheus text exposition format 0.0.4. */
    public String render(Map<String, Long> gauges) {
        StringBuilder out = new StringBuilder(1024);
        out.append("# HELP qatwatch_reports_accepted_total Reports stored.\n# TYPE qatwatch_reports_accepted_total counter\n")
                .append("qatwatch_reports_accepted_total ").append(accepted.sum()).append('\n');
        out.append("# HELP qatwatch_reports_duplicate_total Reports received again (same reportId), stored once.\n")
                .append("# TYPE qatwatch_reports_duplicate_total counter\n")
                .append("qatwatch_reports_duplicate_total ").append(duplicates.sum()).append('\n');
        out.append("# HELP qatwatch_backups_stored_total Backup rows stored.\n# TYPE qatwatch_backups_stored_total counter\n")
                .append("qatwatch_backups_stored_total ").append(backupsStored.sum()).append('\n');
        out.append("# HELP qatwatch_reports_rejected_total Reports refused, by reason.\n")
                .append("# TYPE qatwatch_reports_rejected_total counter\n");
        rejected.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                out.append("qatwatch_reports_rejected_total{reason=\"").append(e.getKey()).append("\"} ")
                        .append(e.getValue().sum()).append('\n'));
        out.append("# HELP qatwatch_ingest_latency_seconds Time from request to answer for accepted reports.\n")
                .append("# TYPE qatwatch_ingest_latency_seconds histogram\n");
        for (int i = 0; i < latencyBucketsMs.length; i++) {
            out.append("qatwatch_ingest_latency_seconds_bucket{le=\"").append(latencyBucketsMs[i] / 1000.0).append("\"} ")
                    .append(latencyCounts[i].sum()).append('\n');
        }
        out.append("qatwatch_ingest_latency_seconds_bucket{le=\"+Inf\"} ").append(ingestCount.sum()).append('\n')
                .append("qatwatch_ingest_latency_seconds_sum ").append(ingestSeconds.sum() / 1_000_000.0).append('\n')
                .append("qatwatch_ingest_latency_seconds_count ").append(ingestCount.sum()).append('\n');
        perChannel(out, "qatwatch_notifications_sent_total", "Notifications a chat channel accepted, by channel.",
                notificationsSent);
        perChannel(out, "qatwatch_notifications_failed_total",
                "Delivery attempts a chat channel failed or refused (retries count), by channel.", notificationsFailed);
        gauges.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                out.append("# TYPE ").append(e.getKey()).append(e.getKey().endsWith("_total") ? " counter\n" : " gauge\n")
                        .append(e.getKey()).append(' ').append(e.getValue()).append('\n'));
        return out.toString();
    }

    private static void perChannel(StringBuilder out, String name, String help, Map<String, LongAdder> counts) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name).append(" counter\n");
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> out.append(name).append("{channel=\"")
                .append(e.getKey().replace("\\", "\\\\").replace("\"", "\\\"")).append("\"} ").append(e.getValue().sum())
                .append('\n'));
    }
}
