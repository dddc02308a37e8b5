package io.qatwatch.collector.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An alert with its life: since when it fires, when it resolved (null while firing), whether a silence mutes it,
 * and when it fired again after resolving (the last ones, for flapping).
 *
 * @param refires when the alert fired again after having resolved, oldest first; only the recent ones are kept
 */
public record AlertRecord(Alert alert, Instant since, Instant resolvedAt, boolean silenced, List<Instant> refires) {

    public AlertRecord {
        refires = refires == null ? List.of() : List.copyOf(refires);
    }

    /** A record that never flapped. */
    public AlertRecord(Alert alert, Instant since, Instant resolvedAt, boolean silenced) {
        this(alert, since, resolvedAt, silenced, List.of());
    }

    public String id() {
        return alert.id();
    }

    /** True while it fires. */
    public boolean firing() {
        return resolvedAt == null;
    }

    /** How often it fired again after resolving in the {@code window} up to {@code now}. */
    public int refiresWithin(Instant now, Duration window) {
        Instant from = now.minus(window);
        return (int) refires.stream().filter(t -> t.isAfter(from)).count();
    }

    /**
     * True when it resolved and fired again at least {@code threshold} times in the {@code window} up to {@code now}
     * (a threshold of 0 never flaps).
     */
    public boolean flapping(Instant now, Duration window, int threshold) {
        return threshold > 0 && refiresWithin(now, window) >= threshold;
    }
}
