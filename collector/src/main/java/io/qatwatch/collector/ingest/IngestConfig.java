package io.qatwatch.collector.ingest;

import java.time.Duration;
import java.util.List;

/**
 * Report ingest limits ({@code ingest:}): how large a body may be, how fast an agent may report, and how long and how
 * many clients may take to send theirs, so that slow or hostile clients cannot hold the collector's memory or
 * connections.
 *
 * @param maxBodyBytes           largest accepted body, compressed or not (413 above it)
 * @param reportsPerMinute       per-agent rate limit (429 with Retry-After above it)
 * @param bodyIdleTimeoutSeconds longest pause while a body arrives (408, connection closed)
 * @param bodyTimeoutSeconds     longest time to receive a whole body (408, connection closed)
 * @param maxConcurrentBodies    bodies being received at once, over every connection (503 with Retry-After above it)
 * @param headerTimeoutSeconds   time a connection has to send a complete request head after it opened or after its
 *                               last answer, and the longest it may stay silent; then it is closed
 */
public record IngestConfig(long maxBodyBytes, int reportsPerMinute, int bodyIdleTimeoutSeconds, int bodyTimeoutSeconds,
                           int maxConcurrentBodies, int headerTimeoutSeconds) {

    public static final IngestConfig DEFAULTS = new IngestConfig(8L * 1024 * 1024, 120, 10, 60, 64, 60);

    /** The body limit and the rate, with the default timeouts and concurrency. */
    public IngestConfig(long maxBodyBytes, int reportsPerMinute) {
        this(maxBodyBytes, reportsPerMinute, DEFAULTS.bodyIdleTimeoutSeconds, DEFAULTS.bodyTimeoutSeconds,
                DEFAULTS.maxConcurrentBodies, DEFAULTS.headerTimeoutSeconds);
    }

    /** This section with what the file left out taken from the defaults. */
    public IngestConfig withDefaults() {
        return new IngestConfig(maxBodyBytes == 0 ? DEFAULTS.maxBodyBytes : maxBodyBytes,
                reportsPerMinute == 0 ? DEFAULTS.reportsPerMinute : reportsPerMinute,
                bodyIdleTimeoutSeconds == 0 ? DEFAULTS.bodyIdleTimeoutSeconds : bodyIdleTimeoutSeconds,
                bodyTimeoutSeconds == 0 ? DEFAULTS.bodyTimeoutSeconds : bodyTimeoutSeconds,
                maxConcurrentBodies == 0 ? DEFAULTS.maxConcurrentBodies : maxConcurrentBodies,
                headerTimeoutSeconds == 0 ? DEFAULTS.headerTimeoutSeconds : headerTimeoutSeconds);
    }

    /** As this, with other body timeouts (tests and benchmarks of stalled clients). */
    public IngestConfig withBodyTimeouts(int idleSeconds, int totalSeconds) {
        return new IngestConfig(maxBodyBytes, reportsPerMinute, idleSeconds, totalSeconds, maxConcurrentBodies,
                headerTimeoutSeconds);
    }

    public Duration bodyIdleTimeout() {
        return Duration.ofSeconds(bodyIdleTimeoutSeconds);
    }

    public Duration bodyTimeout() {
        return Duration.ofSeconds(bodyTimeoutSeconds);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (maxBodyBytes < 1024 || maxBodyBytes > 256L * 1024 * 1024) {
            problems.add("ingest.maxBodyBytes: must be between 1024 and 268435456, was " + maxBodyBytes);
        }
        if (reportsPerMinute < 1) {
            problems.add("ingest.reportsPerMinute: must be at least 1, was " + reportsPerMinute);
        }
        if (bodyIdleTimeoutSeconds < 1 || bodyIdleTimeoutSeconds > 3600) {
            problems.add("ingest.bodyIdleTimeoutSeconds: must be between 1 and 3600, was " + bodyIdleTimeoutSeconds);
        }
        if (bodyTimeoutSeconds < bodyIdleTimeoutSeconds || bodyTimeoutSeconds > 3600) {
            problems.add("ingest.bodyTimeoutSeconds: must be between ingest.bodyIdleTimeoutSeconds ("
                    + bodyIdleTimeoutSeconds + ") and 3600, was " + bodyTimeoutSeconds);
        }
        if (maxConcurrentBodies < 1 || maxConcurrentBodies > 100_000) {
            problems.add("ingest.maxConcurrentBodies: must be between 1 and 100000, was " + maxConcurrentBodies);
        }
        if (headerTimeoutSeconds < 1 || headerTimeoutSeconds > 3600) {
            problems.add("ingest.headerTimeoutSeconds: must be between 1 and 3600, was " + headerTimeoutSeconds);
        }
    }
}
