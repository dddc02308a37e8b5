package io.qatwatch.collector.metrics;

/** A part of the collector that adds its families to {@code GET /metrics} on each scrape. */
@FunctionalInterface
public interface MetricsSource {

    /** Nothing to add: a part that is not configured (e.g. the InfluxDB sink without influx.url). */
    MetricsSource NONE = out -> { };

    /** Writes this part's families, each with its help and type; called on a scrape, never on the event loop. */
    void writeTo(PrometheusText out);
}
