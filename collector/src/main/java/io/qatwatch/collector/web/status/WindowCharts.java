package io.qatwatch.collector.web.status;

import java.time.Instant;
import java.util.List;

/** The window analysis as the status page needs it: per instance, its recent nights and trend. Blocking. */
@FunctionalInterface
public interface WindowCharts {

    /** Every instance with nightly windows, in display order, each with its last 30 nights (oldest first). */
    List<StatusView.InstanceWindows> lastNights(Instant now) throws Exception;
}
