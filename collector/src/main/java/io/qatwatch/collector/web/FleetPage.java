package io.qatwatch.collector.web;

import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.ReportStore;
import java.util.List;

/**
 * One page of the fleet as a query asks for it, and the query of the next page (null on the last).
 * Blocking: read on the store's worker.
 */
public record FleetPage(List<FleetRow> rows, FleetQuery next) {

    /** Reads one host more than the page holds: whether a next page exists, without counting the matches. */
    public static FleetPage read(ReportStore store, FleetStatus status, FleetQuery query) throws Exception {
        List<FleetRow> rows = store.fleetPage(query.after(), query.host(), status.filter(query), query.limit() + 1);
        if (rows.size() <= query.limit()) {
            return new FleetPage(rows, null);
        }
        List<FleetRow> page = rows.subList(0, query.limit());
        return new FleetPage(List.copyOf(page), query.next(page.get(page.size() - 1).host()));
    }
}
