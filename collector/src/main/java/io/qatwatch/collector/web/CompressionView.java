package io.qatwatch.collector.web;

import io.qatwatch.collector.analysis.FleetCompression;

/**
 * The compression comparison of the latest evaluation, behind {@code GET /api/v1/compression} and the status page;
 * implemented over the alert stage.
 */
@FunctionalInterface
public interface CompressionView {

    /** The latest evaluation's comparisons; null before the first evaluation. */
    FleetCompression latest();
}
