package io.qatwatch.collector.cli;

import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.ConfigLoader;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code qatwatch collector}: runs the central server until stopped. */
@Command(name = "collector", mixinStandardHelpOptions = true,
        description = "Run the collector: receive agent reports, store them, analyse backup windows, alert, serve the status page.",
        subcommands = {TokenCommand.class, StoreCommand.class})
public final class CollectorCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE",
            description = "YAML config (see install/collector.example.yaml); defaults apply without it.")
    Path config;

    @Option(names = "--data", paramLabel = "DIR",
            description = "Data directory (default: $QATWATCH_DATA, else ./.qatwatch); the store is DIR/qatwatch.db,"
                    + " the one 'qatwatch collector token' uses with the same directory.")
    Path data;

    @Override
    public Integer call() throws Exception {
        CollectorConfig cfg;
        try {
            cfg = ConfigLoader.load(config);
        } catch (ConfigException e) {
            System.err.println("collector: " + e.getMessage());
            return 2;
        }
        return runUntilStopped(cfg, DataDir.resolve(data));
    }

    static int runUntilStopped(CollectorConfig cfg, Path dataDir) throws InterruptedException {
        Vertx vertx = Vertx.vertx();
        Collector collector;
        Duration startWait = StartTimeout.of(cfg, dataDir);
        try {
            collector = AlertStage.startCollector(vertx, cfg, dataDir, Clock.systemUTC())
                    .await(startWait.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            System.err.println("collector: " + StartTimeout.exceeded(startWait));
            vertx.close();
            return 1;
        } catch (Exception e) {
            System.err.println("collector: could not start on " + cfg.listen().host() + ":" + cfg.listen().port()
                    + ": " + e.getMessage());
            vertx.close();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(collector, vertx);
            stopped.countDown();
        }, "qatwatch-collector-stop"));
        stopped.await();
        return 0;
    }

    /**
     * Stops the collector, then closes Vert.x apart from it: a callback chained on the stop ({@code stop().eventually(
     * vertx::close)}) lands on an event loop that the close has terminated, so its future never completes and whoever
     * waits for it waits out its whole limit. Used by every process that runs a collector until SIGTERM (the bench's
     * {@code serve} too).
     */
    public static void stop(Collector collector, Vertx vertx) {
        try {
            collector.stop().await(10, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // stopping anyway
        }
        try {
            vertx.close().await(10, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // stopping anyway
        }
    }
}
