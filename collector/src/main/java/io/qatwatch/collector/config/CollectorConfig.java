package io.qatwatch.collector.config;

import io.qatwatch.collector.alert.AlertsConfig;
import io.qatwatch.collector.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The collector's configuration: typed, defaulted in code ({@link #defaults()}), validated at start
 * ({@link #validate()} names the key). {@code install/collector.example.yaml} documents every key.
 */
public record CollectorConfig(Listen listen, Tls tls, Ingest ingest, Retention retention, StatusPage statusPage,
        Influx influx, AlertsConfig alerts) {

    /** Where the HTTP(S) server listens. Loopback by default: expose it on purpose. */
    public record Listen(String host, int port) {
    }

    /** PEM certificate chain and private key; both null means plain HTTP. */
    public record Tls(Path certFile, Path keyFile) {
        public boolean enabled() {
            return certFile != null || keyFile != null;
        }
    }

    /**
     * Report ingest limits.
     *
     * @param maxBodyBytes       largest accepted body, compressed or not (413 above it)
     * @param reportsPerMinute   per-agent rate limit (429 with Retry-After above it)
     */
    public record Ingest(long maxBodyBytes, int reportsPerMinute) {
    }

    /** How long backup history and report ids are kept. */
    public record Retention(int backupDays, int reportIdDays) {
    }

    /** The status page; {@code publicUrl} is the link put in chat messages. */
    public record StatusPage(String publicUrl) {
    }

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
    public record Influx(String url, String mode, String org, String bucket, Path tokenFile, String database,
            String retentionPolicy, String user, Path passwordFile, int batchPoints, int queueReports,
            long spoolMaxBytes, int retryMaxSeconds, int timeoutSeconds) {

        public boolean enabled() {
            return url != null && !url.isBlank();
        }

        public boolean v1() {
            return "v1".equals(mode);
        }
    }

    public static CollectorConfig defaults() {
        return new CollectorConfig(
                new Listen("127.0.0.1", 8470),
                new Tls(null, null),
                new Ingest(8L * 1024 * 1024, 120),
                new Retention(400, 30),
                new StatusPage("http://127.0.0.1:8470/"),
                new Influx(null, "v2", null, null, null, null, null, null, null, 5000, 10_000,
                        256L * 1024 * 1024, 60, 10),
                AlertsConfig.DEFAULTS);
    }

    /** A config without an InfluxDB sink (the form callers used before the {@code influx} section existed). */
    public CollectorConfig(Listen listen, Tls tls, Ingest ingest, Retention retention, StatusPage statusPage) {
        this(listen, tls, ingest, retention, statusPage, defaults().influx(), AlertsConfig.DEFAULTS);
    }

    /** This config listening on {@code host:port} (tests and {@code qatwatch up}). */
    public CollectorConfig withListen(String host, int port) {
        return new CollectorConfig(new Listen(host, port), tls, ingest, retention, statusPage, influx, alerts);
    }

    public CollectorConfig withStatusPage(String publicUrl) {
        return new CollectorConfig(listen, tls, ingest, retention, new StatusPage(publicUrl), influx, alerts);
    }

    public CollectorConfig withInflux(Influx newInflux) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, newInflux, alerts);
    }

    public CollectorConfig withIngest(Ingest newIngest) {
        return new CollectorConfig(listen, tls, newIngest, retention, statusPage, influx, alerts);
    }

    public CollectorConfig withTls(Tls newTls) {
        return new CollectorConfig(listen, newTls, ingest, retention, statusPage, influx, alerts);
    }

    public CollectorConfig withAlerts(AlertsConfig newAlerts) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, influx, newAlerts);
    }

    /** Fills every section or value left out of a config file with its default. */
    public CollectorConfig withDefaults() {
        CollectorConfig d = defaults();
        return new CollectorConfig(
                listen == null ? d.listen : new Listen(
                        listen.host == null ? d.listen.host : listen.host,
                        listen.port == 0 && listen.host == null ? d.listen.port : listen.port),
                tls == null ? d.tls : tls,
                ingest == null ? d.ingest : new Ingest(
                        ingest.maxBodyBytes == 0 ? d.ingest.maxBodyBytes : ingest.maxBodyBytes,
                        ingest.reportsPerMinute == 0 ? d.ingest.reportsPerMinute : ingest.reportsPerMinute),
                retention == null ? d.retention : new Retention(
                        retention.backupDays == 0 ? d.retention.backupDays : retention.backupDays,
                        retention.reportIdDays == 0 ? d.retention.reportIdDays : retention.reportIdDays),
                statusPage == null || statusPage.publicUrl == null ? d.statusPage : statusPage,
                influx == null ? d.influx : influxWithDefaults(influx, d.influx),
                alerts == null ? d.alerts : alerts);
    }

    private static Influx influxWithDefaults(Influx i, Influx d) {
        return new Influx(i.url, i.mode == null ? d.mode : i.mode, i.org, i.bucket, i.tokenFile, i.database,
                i.retentionPolicy, i.user, i.passwordFile,
                i.batchPoints == 0 ? d.batchPoints : i.batchPoints,
                i.queueReports == 0 ? d.queueReports : i.queueReports,
                i.spoolMaxBytes == 0 ? d.spoolMaxBytes : i.spoolMaxBytes,
                i.retryMaxSeconds == 0 ? d.retryMaxSeconds : i.retryMaxSeconds,
                i.timeoutSeconds == 0 ? d.timeoutSeconds : i.timeoutSeconds);
    }

    /** The problems found, each naming its key; empty when the config is usable. */
    public List<String> validate() {
        List<String> problems = new ArrayList<>();
        if (listen.host == null || listen.host.isBlank()) {
            problems.add("listen.host: must name an address to listen on, e.g. 127.0.0.1 or 0.0.0.0");
        }
        if (listen.port < 0 || listen.port > 65535) {
            problems.add("listen.port: must be 0..65535 (0 picks a free port), was " + listen.port);
        }
        if (tls.enabled() && (tls.certFile == null || tls.keyFile == null)) {
            problems.add("tls: set both tls.certFile and tls.keyFile (PEM), or neither for plain HTTP");
        }
        if (ingest.maxBodyBytes < 1024 || ingest.maxBodyBytes > 256L * 1024 * 1024) {
            problems.add("ingest.maxBodyBytes: must be between 1024 and 268435456, was " + ingest.maxBodyBytes);
        }
        if (ingest.reportsPerMinute < 1) {
            problems.add("ingest.reportsPerMinute: must be at least 1, was " + ingest.reportsPerMinute);
        }
        if (retention.backupDays < 1) {
            problems.add("retention.backupDays: must be at least 1, was " + retention.backupDays);
        }
        if (retention.reportIdDays < 1) {
            problems.add("retention.reportIdDays: must be at least 1, was " + retention.reportIdDays);
        }
        validateInflux(problems);
        try {
            alerts.validate();
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        return problems;
    }

    private void validateInflux(List<String> problems) {
        if (!influx.enabled()) {
            return;
        }
        if (!influx.url.startsWith("http://") && !influx.url.startsWith("https://")) {
            problems.add("influx.url: must start with http:// or https://, was " + influx.url);
        }
        if (!"v1".equals(influx.mode) && !"v2".equals(influx.mode)) {
            problems.add("influx.mode: must be v2 (/api/v2/write: InfluxDB 2.x, 3.x, 1.8+) or v1 (/write: InfluxDB 1.x), was "
                    + influx.mode);
        } else if (influx.v1()) {
            if (influx.database == null || influx.database.isBlank()) {
                problems.add("influx.database: required in v1 mode (the InfluxDB 1.x database to write to)");
            }
            if (influx.passwordFile != null && influx.user == null) {
                problems.add("influx.user: set it together with influx.passwordFile");
            }
        } else {
            if (influx.org == null || influx.org.isBlank()) {
                problems.add("influx.org: required in v2 mode (any value for InfluxDB 1.8+)");
            }
            if (influx.bucket == null || influx.bucket.isBlank()) {
                problems.add("influx.bucket: required in v2 mode (for InfluxDB 1.8+: database/retention-policy)");
            }
        }
        if (influx.batchPoints < 1 || influx.batchPoints > 100_000) {
            problems.add("influx.batchPoints: must be 1..100000, was " + influx.batchPoints);
        }
        if (influx.queueReports < 1) {
            problems.add("influx.queueReports: must be at least 1, was " + influx.queueReports);
        }
        if (influx.spoolMaxBytes < 1024 * 1024) {
            problems.add("influx.spoolMaxBytes: must be at least 1048576 (1 MiB), was " + influx.spoolMaxBytes);
        }
        if (influx.retryMaxSeconds < 1) {
            problems.add("influx.retryMaxSeconds: must be at least 1, was " + influx.retryMaxSeconds);
        }
        if (influx.timeoutSeconds < 1) {
            problems.add("influx.timeoutSeconds: must be at least 1, was " + influx.timeoutSeconds);
        }
    }
}
