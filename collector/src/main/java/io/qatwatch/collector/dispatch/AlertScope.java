package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.store.HostSlices;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The hosts whose alerts this collector evaluates, keeps and announces: every host (one collector, the default), or
 * those of the {@link HostSlices} it leases when several collectors share a PostgreSQL store.
 *
 * @param slices the leased slices; null for every host
 * @param epochs each leased slice's epoch (raised at every acquisition, kept by renewals); empty when not known, then
 *               any epoch of a held slice will do
 */
public record AlertScope(Set<Integer> slices, Map<Integer, Long> epochs) {

    /** Every host: a collector alone on its store. */
    public static final AlertScope ALL = new AlertScope(null, Map.of());

    /** An epoch that matches whatever a slice's lease holds ({@link #epochs} not known). */
    public static final long ANY_EPOCH = -1;

    public AlertScope {
        slices = slices == null ? null : Set.copyOf(new TreeSet<>(slices));
        epochs = epochs == null ? Map.of() : Map.copyOf(epochs);
    }

    /** Leased slices whose epochs are not known. */
    public AlertScope(Set<Integer> slices) {
        this(slices, Map.of());
    }

    /** The slices of these leases, slice to epoch. */
    public static AlertScope leased(Map<Integer, Long> leases) {
        return new AlertScope(leases.keySet(), leases);
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

    /** The epoch of a held slice's lease, or {@link #ANY_EPOCH} when not known. */
    public long epoch(int slice) {
        return epochs.getOrDefault(slice, ANY_EPOCH);
    }

    /** True when a lease of {@code slice} at {@code epoch} is this scope's (ANY_EPOCH on either side matches any). */
    public boolean holds(int slice, long epoch) {
        if (all()) {
            return true;
        }
        long mine = epoch(slice);
        return slices.contains(slice) && (mine == ANY_EPOCH || epoch == ANY_EPOCH || mine == epoch);
    }

    /**
     * Slices this scope holds that {@code before} held too, but under another lease: lost and taken again between the
     * two (a pause, the database away), so what was kept of them before is stale.
     */
    public Set<Integer> retakenSince(AlertScope before) {
        Set<Integer> out = new TreeSet<>();
        if (all() || before.all()) {
            return out;
        }
        for (int slice : slices) {
            if (before.slices.contains(slice) && !before.holds(slice, epoch(slice))) {
                out.add(slice);
            }
        }
        return out;
    }

    /** The slices of this scope that {@code now} still holds under the same lease. */
    public AlertScope stillHeldIn(AlertScope now) {
        if (all()) {
            return this;
        }
        Map<Integer, Long> kept = new TreeMap<>();
        Set<Integer> same = new TreeSet<>();
        for (int slice : slices) {
            if (now.holds(slice, epoch(slice))) {
                same.add(slice);
                if (epochs.containsKey(slice)) {
                    kept.put(slice, epoch(slice));
                }
            }
        }
        return new AlertScope(same, kept);
    }
}
