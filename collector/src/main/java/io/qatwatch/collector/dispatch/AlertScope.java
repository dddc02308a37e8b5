package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.store.HostSlices;
import java.util.Set;
import java.util.TreeSet;

/**
 * The hosts whose alerts this collector evaluates, keeps and announces: every host (one collector, the default), or
 * those of the {@link HostSlices} it leases when several collectors share a PostgreSQL store.
 *
 * @param slices the leased slices; null for every host
 */
public record AlertScope(Set<Integer> slices) {

    /** Every host: a collector alone on its store. */
    public static final AlertScope ALL = new AlertScope(null);

    public AlertScope {
        slices = slices == null ? null : Set.copyOf(new TreeSet<>(slices));
    }

    public boolean all() {
        return slices == null;
    }

    public boolean owns(String host) {
        return all() || host != null && slices.contains(HostSlices.of(host));
    }

    public boolean ownsSlice(int slice) {
        return all() || slices.contains(slice);
    }
}
