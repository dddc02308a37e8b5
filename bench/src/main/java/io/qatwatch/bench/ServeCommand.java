package io.qatwatch.bench;

import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.EvaluationConfig;
import io.qatwatch.collector.cli.CollectorCommand;
import io.qatwatch.collector.influx.InfluxConfig;
import io.qatwatch.collector.ingest.IngestConfig;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bench serve collector|bare}: the server under test, run by {@link ServerProcess} in a JVM of its
 * own. Prints {@code READY <port>} when listening; stops when its stdin closes (the bench exited) or on SIGTERM.
 */
@Command(name = "serve", hidden = true, description = "Run a server under test (started by the bench itself).")
final class ServeCommand implements Callable<Integer> {

    /** What to serve. */
    enum Kind { collector, bare }

    @Parameters(index = "0", description = "collector or bare")
    Kind kind;

    @Option(names = "--data", description = "Collector data directory.")
    Path data;

    @Option(names = "--agents", defaultValue = "0", description = "Agent tokens to enroll (hosts sql0..sqlN-1).")
    int agents;

    @Option(names = "--reader", description = "Also enroll a read token named bench-reader.")
    boolean reader;

    @Option(names = "--influx-url", description = "Collector: write to this InfluxDB 1.x (v1 /write mode).")
    String influxUrl;

    @Option(names = "--influx-database", defaultValue = "qatwatch", description = "Collector: the InfluxDB 1.x database.")
    String influxDatabase;

    @Option(names = "--no-alert-stage", description = "Collector: without the alert stage, i.e. the store, ingest and "
            + "the read side alone (/api/v1/alerts and the windows answer 503).")
    boolean noAlertStage;

    @Option(names = "--store-url", description = "Collector: a PostgreSQL store at this JDBC URL instead of SQLite.")
    String storeUrl;

    @Option(names = "--store-user", description = "Collector: the PostgreSQL login.")
    String storeUser;

    @Option(names = "--store-password-file", description = "Collector: the file holding the PostgreSQL password.")
    Path storePasswordFile;

    @Option(names = "--busy-core-share", description = "Collector: evaluation.busyCoreShare (default: the collector's, 0.25; "
            + "at or above the machine's cores the alert stage is never held back).")
    Double busyCoreShare;

    @Option(names = "--tokens", required = true, description = "File to write 'name token' lines to.")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
        Vertx vertx = Vertx.vertx();
        int port;
        Runnable stop;
        if (kind == Kind.collector) {
            CollectorConfig config = benchConfig(influxUrl, influxDatabase);
            if (busyCoreShare != null) {
                EvaluationConfig e = config.evaluation();
                config = config.withEvaluation(new EvaluationConfig(e.everySeconds(), e.leaseSeconds(), busyCoreShare));
            }
            if (storeUrl != null) {
                config = config.withStore(StoreConfig.postgresql(storeUrl, storeUser, storePasswordFile, null, 8));
            }
            // as `qatwatch collector` starts it: with the alert stage (windows, rules, evaluation every minute)
            Collector collector = (noAlertStage ? Collector.start(vertx, config, data, Clock.systemUTC())
                    : AlertStage.startCollector(vertx, config, data, Clock.systemUTC())).await(120, TimeUnit.SECONDS);
            enroll(collector.tokens());
            port = collector.port();
            // as `qatwatch collector` stops: a close chained on the stop never completed, so every stop of a bench
            // collector took the whole wait and ServerProcess killed it 30 s after SIGTERM
            stop = () -> CollectorCommand.stop(collector, vertx);
        } else {
            port = deployBare(vertx, Runtime.getRuntime().availableProcessors());
            stop = () -> {
                try {
                    vertx.close().await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.err.println("bench serve: stopping the bare server failed: " + e);
                }
            };
        }
        Runtime.getRuntime().addShutdownHook(new Thread(stop));
        System.out.println("READY " + port);
        System.out.flush();
        drain(System.in);
        System.exit(0);
        return 0;
    }

    /** The collector's defaults on a free loopback port, without the per-agent rate limit, optionally with the sink. */
    static CollectorConfig benchConfig(String influxUrl, String influxDatabase) {
        CollectorConfig d = CollectorConfig.defaults();
        // the per-agent rate limit would turn a load test into a 429 test
        CollectorConfig config = d.withListen("127.0.0.1", 0)
                .withIngest(new IngestConfig(d.ingest().maxBodyBytes(), 1_000_000));
        if (influxUrl == null) {
            return config;
        }
        InfluxConfig i = d.influx();
        return config.withInflux(new InfluxConfig(influxUrl, "v1", null, null, null, influxDatabase, null,
                null, null, i.batchPoints(), i.queueReports(), i.spoolMaxBytes(), i.retryMaxSeconds(),
                i.timeoutSeconds()));
    }

    /** One instance per core, deployed together so they share one port (Vert.x server sharing). */
    static int deployBare(Vertx vertx, int instances) throws Exception {
        AtomicInteger port = new AtomicInteger();
        vertx.deployVerticle(() -> new BareIngestServer(0, port), new DeploymentOptions().setInstances(instances))
                .await(30, TimeUnit.SECONDS);
        return port.get();
    }

    private void enroll(TokenStore tokens) throws Exception {
        List<String> lines = new ArrayList<>();
        Instant now = Instant.now();
        for (int i = 0; i < agents; i++) {
            String host = new SimulatedAgent(i).host();
            lines.add(host + " " + tokens.add(host, TokenStore.Kind.AGENT, now));
        }
        if (reader) {
            // a second server on the same store (the growth bench's read side alone) issues its own
            tokens.revoke("bench-reader", now);
            lines.add("bench-reader " + tokens.add("bench-reader", TokenStore.Kind.READ, now));
        }
        Files.write(tokenFile, lines);
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // the bench writes nothing; EOF means it is gone
            }
        } catch (IOException ignored) {
            // a broken pipe is the same news as EOF
        }
    }
}
