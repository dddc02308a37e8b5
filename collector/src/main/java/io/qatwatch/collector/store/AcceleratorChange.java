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
}
