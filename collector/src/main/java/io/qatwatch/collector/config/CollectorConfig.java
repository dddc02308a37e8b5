package io.qatwatch.collector.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The collector's configuration: typed, defaulted in code ({@link #defaults()}), validated at start
 * ({@link #validate()} names the key). {@code install/collector.example.yaml} documents every key.
 */
public record CollectorConfig(Listen listen, Tls tls, Ingest ingest, Retention retention, StatusPage statusPage) {

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

    public static CollectorConfig defaults() {
        return new CollectorConfig(
                new Listen("127.0.0.1", 8470),
                new Tls(null, null),
                new Ingest(8L * 1024 * 1024, 120),
                new Retention(400, 30),
                new StatusPage("http://127.0.0.1:8470/"));
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
                statusPage == null || statusPage.publicUrl == null ? d.statusPage : statusPage);
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
        return problems;
    }
}
