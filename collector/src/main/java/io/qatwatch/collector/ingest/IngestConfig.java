package io.qatwatch.collector.ingest;

import java.util.List;

/**
 * Report ingest limits ({@code ingest:}).
 *
 * @param maxBodyBytes     largest accepted body, compressed or not (413 above it)
 * @param reportsPerMinute per-agent rate limit (429 with Retry-After above it)
 */
public record IngestConfig(long maxBodyBytes, int reportsPerMinute) {

    public static final IngestConfig DEFAULTS = new IngestConfig(8L * 1024 * 1024, 120);

    /** This section with what the file left out taken from the defaults. */
    public IngestConfig withDefaults() {
        return new IngestConfig(maxBodyBytes == 0 ? DEFAULTS.maxBodyBytes : maxBodyBytes,
                reportsPerMinute == 0 ? DEFAULTS.reportsPerMinute : reportsPerMinute);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (maxBodyBytes < 1024 || maxBodyBytes > 256L * 1024 * 1024) {
            problems.add("ingest.maxBodyBytes: must be between 1024 and 268435456, was " + maxBodyBytes);
        }
        if (reportsPerMinute < 1) {
            problems.add("ingest.reportsPerMinute: must be at least 1, was " + reportsPerMinute);
        }
    }
}
