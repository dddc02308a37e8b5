package io.qatwatch.collector.store;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The hosts whose rows a read of the alert stage returns: every host (one collector), or the hosts of some
 * {@link HostSlices} and a few hosts named besides (a collector's leased slices and its availability-group partners).
 * On PostgreSQL the store filters in SQL, by the {@code hosts.slice} column, so a collector reads its share only.
 *
 * @param slices the slices whose hosts are selected; null for every host
 * @param hosts  hosts selected whatever their slice
 */
public record HostSelection(Set<Integer> slices, Set<String> hosts) implements Predicate<String> {

    /** Every host. */
    public static final HostSelection ALL = new HostSelection(null, Set.of());

    public HostSelection {
        slices = slices == null ? null : Set.copyOf(new TreeSet<>(slices));
        hosts = hosts == null ? Set.of() : Set.copyOf(hosts);
    }

    /** Every host when {@code slices} is null, else the hosts of {@code slices} and {@code hosts}. */
    public static HostSelection of(Set<Integer> slices, Set<String> hosts) {
        return slices == null ? ALL : new HostSelection(slices, hosts);
    }

    public boolean all() {
        return slices == null;
    }

    @Override
    public boolean test(String host) {
        return all() || host != null && (hosts.contains(host) || slices.contains(HostSlices.of(host)));
    }
}
