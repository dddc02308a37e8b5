package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One instance's results of the rules that read only the instance, kept between the alert stage's minutes: a rule's result
 * is given again while the instance's state is the same object (the alert stage keeps it while nothing of the instance
 * changed), the rules' configuration is the same object, the rest the rule read is equal, and the result's due time has
 * not come (the first instant at which the passing of time alone could change it). Not thread-safe: the alert stage
 * evaluates one minute at a time.
 */
public final class InstanceMemo {

    /** A rule's result and the first instant at which time alone could change it ({@link Instant#MAX}: never). */
    public record Result<T>(T value, Instant due) {
    }

    private record Entry(InstanceState state, Object config, Object context, Instant from, Instant due, Object value) {
    }

    private final Map<String, Entry> entries = new HashMap<>(4);

    /**
     * {@code rule}'s result for {@code state} as of {@code now}: the one kept when it was worked out for this very state and
     * configuration, an equal {@code context} (what else of the fleet it read), at or before {@code now} and before its due
     * time; else {@code compute}'s, kept.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(String rule, InstanceState state, Object config, Object context, Instant now, Supplier<Result<T>> compute) {
        Entry e = entries.get(rule);
        if (e != null && e.state() == state && e.config() == config && Objects.equals(e.context(), context)
                && !now.isBefore(e.from()) && now.isBefore(e.due())) {
            return (T) e.value();
        }
        Result<T> r = compute.get();
        entries.put(rule, new Entry(state, config, context, now, r.due(), r.value()));
        return r.value();
    }
}
