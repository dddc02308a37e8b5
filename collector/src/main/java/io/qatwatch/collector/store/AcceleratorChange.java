package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.time.Instant;
import java.util.List;

/**
 * An instance's accelerator status ({@code sys.dm_server_accelerator_status}) as it became at {@code at}: the time of
 * the first snapshot that showed it. The store keeps one per change, from the instance's first report on.
 */
public record AcceleratorChange(Instant at, List<AcceleratorStatus> accelerators) {

    public AcceleratorChange {
        accelerators = accelerators == null ? List.of() : List.copyOf(accelerators);
    }

    /**
     * What {@link ReportStore#acceleratorChanges} returns for {@code since} when {@code history} is what it returned for
     * an earlier instant: the change in force at {@code since} (the last one before it), then every change from it on.
     */
    public static List<AcceleratorChange> since(List<AcceleratorChange> history, Instant since) {
        int first = 0;
        while (first < history.size() && history.get(first).at().isBefore(since)) {
            first++;
        }
        return List.copyOf(history.subList(Math.max(0, first - 1), history.size()));
    }
}
