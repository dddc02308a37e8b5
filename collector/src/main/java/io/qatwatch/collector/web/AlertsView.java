package io.qatwatch.collector.web;

import java.time.Instant;
import java.util.List;

/** The active alerts behind {@code GET /api/v1/alerts}; implemented by the alert pipeline. Blocking. */
public interface AlertsView {

    /**
     * One active alert, in the shape of Contract 2 with its life: silenced, flapping, acknowledged.
     *
     * @param acknowledged who took it and until when, or null
     */
    record ActiveAlert(String id, String rule, String severity, String host, String instance, String database,
            String summary, String details, Instant since, boolean silenced, boolean flapping, Acknowledged acknowledged) {

        /** An alert nobody acknowledged, not silenced, not flapping. */
        public ActiveAlert(String id, String rule, String severity, String host, String instance, String database,
                String summary, String details, Instant since) {
            this(id, rule, severity, host, instance, database, summary, details, since, false, false, null);
        }
    }

    /** An acknowledgement as the API shows it; {@code expiresAt} and {@code note} may be null. */
    record Acknowledged(String by, Instant at, String note, Instant expiresAt) {
    }

    List<ActiveAlert> active() throws Exception;

    /**
     * Where an active alert fires, which rule and how badly: all the fleet's states and {@code /metrics} count, without
     * what {@link #active()} builds for each alert (its id, details, acknowledgement and flapping).
     */
    record ActiveHead(String host, String rule, String severity) {

        /** An active alert's view cut down to its head. */
        public static ActiveHead of(ActiveAlert a) {
            return new ActiveHead(a.host(), a.rule(), a.severity());
        }
    }

    /**
     * The active alerts' heads, in no particular order. A fleet can have tens of thousands of active alerts, and a
     * scrape or a fleet page that counts them should not build each one's view; this default does, for views that
     * have nothing cheaper.
     */
    default List<ActiveHead> heads() throws Exception {
        return active().stream().map(ActiveHead::of).toList();
    }

    /**
     * An alert that fired and resolved, as long as the pipeline keeps it (a week: {@code Lifecycle.KEEP_RESOLVED}).
     *
     * @param since      when it started firing
     * @param resolvedAt when the evaluation no longer found it
     */
    record ResolvedAlert(String id, String rule, String severity, String host, String instance, String database,
            String summary, Instant since, Instant resolvedAt) {
    }

    /**
     * One host's alerts that resolved lately (the pipeline keeps them a week), last resolved first, at most
     * {@code limit}; empty when none is kept.
     */
    default List<ResolvedAlert> resolved(String host, int limit) throws Exception {
        return List.of();
    }

    /** How each chat channel's deliveries went (for the status page); empty when there are none. */
    default List<ChannelHealth> channels() {
        return List.of();
    }

    /**
     * One channel's deliveries since the collector started.
     *
     * @param lastError what the last failure said, or null
     */
    record ChannelHealth(String name, long delivered, long failed, Instant lastFailedAt, String lastError, boolean failing) {
    }
}
