package io.qatwatch.collector.web;

import java.time.Instant;
import java.util.List;

/** The active alerts behind {@code GET /api/v1/alerts}; implemented by the alert pipeline. Blocking. */
public interface AlertsView {

    /** One active alert, in the shape of Contract 2. */
    record ActiveAlert(String id, String rule, String severity, String host, String instance, String database,
            String summary, String details, Instant since) {
    }

    List<ActiveAlert> active() throws Exception;
}
