package io.qatwatch.collector;

import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.influx.InfluxConfig;
import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.store.RetentionConfig;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.web.ListenConfig;
import io.qatwatch.collector.web.StatusPageConfig;
import io.qatwatch.collector.web.TlsConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The collector's configuration, assembled from the sections each part owns: typed, defaulted in code
 * ({@link #defaults()}), validated at start ({@link #validate()} names the key). {@code install/collector.example.yaml}
 * documents every key.
 */
public record CollectorConfig(ListenConfig listen, TlsConfig tls, IngestConfig ingest, RetentionConfig retention,
        StatusPageConfig statusPage, InfluxConfig influx, AlertsConfig alerts, StoreConfig store,
        EvaluationConfig evaluation) {

    public static CollectorConfig defaults() {
        return new CollectorConfig(ListenConfig.DEFAULTS, TlsConfig.PLAIN, IngestConfig.DEFAULTS, RetentionConfig.DEFAULTS,
                StatusPageConfig.DEFAULTS, InfluxConfig.DEFAULTS, AlertsConfig.DEFAULTS, StoreConfig.DEFAULTS,
                EvaluationConfig.DEFAULTS);
    }

    /** The sections before {@code store} and {@code evaluation}, those with their defaults. */
    public CollectorConfig(ListenConfig listen, TlsConfig tls, IngestConfig ingest, RetentionConfig retention,
            StatusPageConfig statusPage, InfluxConfig influx, AlertsConfig alerts) {
        this(listen, tls, ingest, retention, statusPage, influx, alerts, StoreConfig.DEFAULTS, EvaluationConfig.DEFAULTS);
    }

    /** A config without an InfluxDB sink (the form callers used before the {@code influx} section existed). */
    public CollectorConfig(ListenConfig listen, TlsConfig tls, IngestConfig ingest, RetentionConfig retention,
            StatusPageConfig statusPage) {
        this(listen, tls, ingest, retention, statusPage, InfluxConfig.DEFAULTS, AlertsConfig.DEFAULTS);
    }

    /** This config listening on {@code host:port} (tests and {@code qatwatch up}). */
    public CollectorConfig withListen(String host, int port) {
        return new CollectorConfig(listen.at(host, port), tls, ingest, retention, statusPage, influx, alerts, store, evaluation);
    }

    public CollectorConfig withListen(ListenConfig newListen) {
        return new CollectorConfig(newListen, tls, ingest, retention, statusPage, influx, alerts, store, evaluation);
    }

    public CollectorConfig withStatusPage(String publicUrl) {
        return new CollectorConfig(listen, tls, ingest, retention, new StatusPageConfig(publicUrl, statusPage.notice(),
                statusPage.sessionMinutes(), statusPage.openOnLoopback()), influx, alerts, store, evaluation);
    }

    public CollectorConfig withInflux(InfluxConfig newInflux) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, newInflux, alerts, store, evaluation);
    }

    public CollectorConfig withIngest(IngestConfig newIngest) {
        return new CollectorConfig(listen, tls, newIngest, retention, statusPage, influx, alerts, store, evaluation);
    }

    public CollectorConfig withStatusPage(StatusPageConfig newStatusPage) {
        return new CollectorConfig(listen, tls, ingest, retention, newStatusPage, influx, alerts);
    }

    public CollectorConfig withTls(TlsConfig newTls) {
        return new CollectorConfig(listen, newTls, ingest, retention, statusPage, influx, alerts, store, evaluation);
    }

    public CollectorConfig withAlerts(AlertsConfig newAlerts) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, influx, newAlerts, store, evaluation);
    }

    public CollectorConfig withStore(StoreConfig newStore) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, influx, alerts, newStore, evaluation);
    }

    public CollectorConfig withEvaluation(EvaluationConfig newEvaluation) {
        return new CollectorConfig(listen, tls, ingest, retention, statusPage, influx, alerts, store, newEvaluation);
    }

    /** Fills every section or value left out of a config file with its default. */
    public CollectorConfig withDefaults() {
        CollectorConfig d = defaults();
        return new CollectorConfig(
                listen == null ? d.listen : listen.withDefaults(),
                tls == null ? d.tls : tls,
                ingest == null ? d.ingest : ingest.withDefaults(),
                retention == null ? d.retention : retention.withDefaults(),
                statusPage == null ? d.statusPage : statusPage.withDefaults(),
                influx == null ? d.influx : influx.withDefaults(),
                alerts == null ? d.alerts : alerts,
                store == null ? d.store : store.withDefaults(),
                evaluation == null ? d.evaluation : evaluation.withDefaults());
    }

    /** The problems found, each naming its key; empty when the config is usable. */
    public List<String> validate() {
        List<String> problems = new ArrayList<>();
        listen.validate(problems);
        tls.validate(problems);
        ingest.validate(problems);
        retention.validate(problems);
        statusPage.validate(problems);
        influx.validate(problems);
        store.validate(problems);
        evaluation.validate(problems);
        if (store.postgresql() && !alerts.pipeline().groupBy().contains("host")) {
            // each collector announces the hosts it leases; a group of several hosts would be announced in parts
            problems.add("alerts.pipeline.groupBy: must include host with store.kind postgresql (several collectors "
                    + "split the fleet by host), was " + alerts.pipeline().groupBy());
        }
        try {
            alerts.validate();
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        return problems;
    }
}
