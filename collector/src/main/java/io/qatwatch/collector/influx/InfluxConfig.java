package io.qatwatch.collector.influx;

import java.nio.file.Path;
import java.util.List;

/**
 * The InfluxDB sink; off when {@code url} is null.
 *
 * @param mode            {@code v2}: {@code /api/v2/write} through influxdb-client-java (InfluxDB 2.x, 3.x, 1.8+);
 *                        {@code v1}: {@code /write} with database, retention policy and user/password (InfluxDB 1.x)
 * @param tokenFile       v2: file holding the API token (else the environment variable {@code QATWATCH_INFLUX_TOKEN})
 * @param passwordFile    v1: file holding the password (else {@code QATWATCH_INFLUX_PASSWORD}); none without a user
 * @param queueReports    accepted reports waiting for the writer; beyond it their points are dropped and counted
 * @param spoolMaxBytes   on-disk spool for points InfluxDB could not take; the oldest are dropped beyond it
 * @param retryMaxSeconds longest wait between write attempts while InfluxDB is down
 */
public record InfluxConfig(String url, String mode, String org, String bucket, Path tokenFile, String database,
        String retentionPolicy, String user, Path passwordFile, int batchPoints, int queueReports,
        long spoolMaxBytes, int retryMaxSeconds, int timeoutSeconds) {

    /** Off, with the defaults a config file starts from. */
    public static final InfluxConfig DEFAULTS = new InfluxConfig(null, "v2", null, null, null, null, null, null, null, 5000,
            10_000, 256L * 1024 * 1024, 60, 10);

    public boolean enabled() {
        return url != null && !url.isBlank();
    }

    public boolean v1() {
        return "v1".equals(mode);
    }

    /** This section with what the file left out taken from the defaults. */
    public InfluxConfig withDefaults() {
        return new InfluxConfig(url, mode == null ? DEFAULTS.mode : mode, org, bucket, tokenFile, database,
                retentionPolicy, user, passwordFile,
                batchPoints == 0 ? DEFAULTS.batchPoints : batchPoints,
                queueReports == 0 ? DEFAULTS.queueReports : queueReports,
                spoolMaxBytes == 0 ? DEFAULTS.spoolMaxBytes : spoolMaxBytes,
                retryMaxSeconds == 0 ? DEFAULTS.retryMaxSeconds : retryMaxSeconds,
                timeoutSeconds == 0 ? DEFAULTS.timeoutSeconds : timeoutSeconds);
    }

    /** Adds each problem, naming its key; nothing when the sink is off. */
    public void validate(List<String> problems) {
        if (!enabled()) {
            return;
        }
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            problems.add("influx.url: must start with http:// or https://, was " + url);
        }
        if (!"v1".equals(mode) && !"v2".equals(mode)) {
            problems.add("influx.mode: must be v2 (/api/v2/write: InfluxDB 2.x, 3.x, 1.8+) or v1 (/write: InfluxDB 1.x), was "
                    + mode);
        } else if (v1()) {
            if (database == null || database.isBlank()) {
                problems.add("influx.database: required in v1 mode (the InfluxDB 1.x database to write to)");
            }
            if (passwordFile != null && user == null) {
                problems.add("influx.user: set it together with influx.passwordFile");
            }
        } else {
            if (org == null || org.isBlank()) {
                problems.add("influx.org: required in v2 mode (any value for InfluxDB 1.8+)");
            }
            if (bucket == null || bucket.isBlank()) {
                problems.add("influx.bucket: required in v2 mode (for InfluxDB 1.8+: database/retention-policy)");
            }
        }
        if (batchPoints < 1 || batchPoints > 100_000) {
            problems.add("influx.batchPoints: must be 1..100000, was " + batchPoints);
        }
        if (queueReports < 1) {
            problems.add("influx.queueReports: must be at least 1, was " + queueReports);
        }
        if (spoolMaxBytes < 1024 * 1024) {
            problems.add("influx.spoolMaxBytes: must be at least 1048576 (1 MiB), was " + spoolMaxBytes);
        }
        if (retryMaxSeconds < 1) {
            problems.add("influx.retryMaxSeconds: must be at least 1, was " + retryMaxSeconds);
        }
        if (timeoutSeconds < 1) {
            problems.add("influx.timeoutSeconds: must be at least 1, was " + timeoutSeconds);
        }
    }
}
