package io.qatwatch.collector.web.status;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** The window analysis as the status page needs it: per instance, its recent nights and trend. Blocking. */
@FunctionalInterface
public interface WindowCharts {

    /**
     * The instances of {@code hosts} with nightly windows, in display order, each with its last 30 nights
     * (oldest first): a status page shows one page of hosts, never the whole fleet's charts.
     */
    List<StatusView.InstanceWindows> lastNights(Instant now, Set<String> hosts) throws Exception;
}
