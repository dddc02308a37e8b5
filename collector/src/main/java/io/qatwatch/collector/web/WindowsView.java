package io.qatwatch.collector.web;

import java.time.Instant;

/**
 * The nightly backup windows of one instance behind {@code GET /api/v1/instances/{host}/{instance}/windows}:
 * windows, margins and trend; implemented by the window analysis. Blocking.
 */
public interface WindowsView {

    /** A JSON-serialisable value (records, lists, maps), or null when the host or instance is unknown (404). */
    Object windows(String host, String instance, Instant now) throws Exception;
}
