package io.qatwatch.collector.alert;

import java.time.Instant;

/**
 * An alert with its life: since when it fires, when it resolved (null while firing), whether a silence mutes it.
 */
public record AlertRecord(Alert alert, Instant since, Instant resolvedAt, boolean silenced) {

    public String id() {
        return alert.id();
    }

    /** True while it fires. */
    public boolean firing() {
        return resolvedAt == null;
    }
}
