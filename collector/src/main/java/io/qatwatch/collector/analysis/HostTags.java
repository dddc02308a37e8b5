package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.FleetRow;
import java.util.Set;
import java.util.function.Function;

/** A host's tags for host-group matching: its agent's own, and those the collector adds. */
final class HostTags {

    private final Function<String, Set<String>> tagsOf;

    HostTags(Function<String, Set<String>> tagsOf) {
        this.tagsOf = tagsOf;
    }

    /** The host's tags: its agent's {@code agent.tags}, and what {@code tagsOf} adds. */
    Set<String> of(FleetRow row) {
        Set<String> extra = tagsOf.apply(row.host());
        Set<String> own = HostGroupConfig.tagSet(row.agent() == null ? null : row.agent().tags());
        if (extra.isEmpty()) {
            return own;
        }
        Set<String> all = new java.util.TreeSet<>(own);
        all.addAll(extra);
        return all;
    }
}
