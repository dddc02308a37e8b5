package io.qatwatch.agent.cli;

import io.qatwatch.agent.config.AgentConfig;
import io.qatwatch.agent.config.AgentConfigLoader;
import io.qatwatch.agent.config.ConfigException;
import io.qatwatch.agent.config.Secrets;
import io.qatwatch.agent.daemon.AgentDaemon;
import io.qatwatch.agent.daemon.LiveProbes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the agent daemon until SIGTERM or Ctrl-C. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Run the agent: probe on schedule, keep reports in the outbox, deliver them to the collector.")
public final class AgentCommand implements Callable<Integer> {

    /** How long a stop may take before the process exits anyway; every report is on disk before that. */
    static final long STOP_SECONDS = 8;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "agent configuration (YAML); see install/agent.example.yaml")
    Path config;

    @Option(names = "--data", paramLabel = "DIR",
            description = "the agent's folder for its outbox and state (default: $QATWATCH_DATA, else ./.qatwatch)")
    Path data;

    /**
     * The daemon's own command line, {@code agent --config FILE [--data DIR]} (each also as {@code --flag=VALUE}),
     * read without picocli: its model of every command and option is ~180 classes that the daemon would keep loaded
     * for its whole life for one parse. Null for anything else (help, version, an unknown, repeated or missing flag,
     * a value that starts with {@code -} or an {@code @file}), which picocli then reads and answers as it always did.
     */
    public static AgentCommand plain(String... args) {
        if (args.length < 3 || !"agent".equals(args[0])) {
            return null;
        }
        AgentCommand command = new AgentCommand();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return null;
            }
            if (value.isEmpty() || value.startsWith("-") || value.startsWith("@") || arg.startsWith("@")) {
                return null;
            }
            if ("--config".equals(name) && command.config == null) {
                command.config = Path.of(value);
            } else if ("--data".equals(name) && command.data == null) {
                command.data = Path.of(value);
            } else {
                return null;
            }
        }
        return command.config == null ? null : command;
    }

    @Override
    public Integer call() throws Exception {
        LogSetup.daemon();
        Map<String, String> env = System.getenv();
        Path dataDir = data != null ? data : Path.of(env.getOrDefault("QATWATCH_DATA", ".qatwatch"));
        AgentConfigLoader.Loaded loaded;
        String token;
        try {
            loaded = AgentConfigLoader.load(config, env);
            token = Secrets.collectorToken(loaded.config().collector(), env);
        } catch (ConfigException e) {
            System.err.println("qatwatch agent: " + config + ": " + e.getMessage());
            return 2;
        }
        org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AgentCommand.class);
        loaded.warnings().forEach(w -> log.warn("{}", w));
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            System.err.println("qatwatch agent: cannot create the data folder " + dataDir + " (--data, QATWATCH_DATA): " + e);
            return 1;
        }
        return run(loaded.config(), dataDir, token);
    }

    private static int run(AgentConfig config, Path dataDir, String token) throws InterruptedException {
        Vertx vertx = vertx(config.sqlInstances().size());
        AgentDaemon daemon;
        try {
            daemon = AgentDaemon.start(vertx, config, dataDir, token, LiveProbes.create(Clock.systemDefaultZone()), Clock.systemUTC())
                    .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println("qatwatch agent: could not start: " + cause.getMessage());
            vertx.close();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                daemon.stop().eventually(vertx::close).toCompletionStage().toCompletableFuture()
                        .get(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                org.slf4j.LoggerFactory.getLogger(AgentCommand.class).warn("stop took too long or failed: {}", e.toString());
            } finally {
                stopped.countDown();
            }
        }, "qatwatch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        return 0;
    }

    /**
     * The daemon's Vert.x ({@link #smallVertx}), its Netty without JFR events unless {@code -Dio.netty.jfr.enabled}
     * asks for them: Netty 4.2 defines events for its buffer allocations, and the first allocation would load them
     * and start {@code jdk.jfr}'s machinery, which generates a handler class for each (82 {@code jdk.jfr} classes and
     * 6 generated ones that no class-data archive can hold) for recordings nobody takes of the agent. And its buffer
     * allocator's queues of reusable buffer objects hold 16 instead of 1,024 each: Vert.x 5 gives its connections
     * Netty's adaptive allocator even with {@code -Dio.netty.allocator.type=unpooled}, and its 38 magazines' queues
     * were 0.46 MB of the agent's 7.3 MB of live heap, for one connection at a time. Call before anything else uses
     * Netty (it reads each property once).
     */
    public static Vertx vertx(int sqlInstances) {
        defaultProperty("io.netty.jfr.enabled", "false");
        defaultProperty("io.netty.allocator.magazineBufferQueueCapacity", "16");
        return Vertx.vertx(smallVertx(sqlInstances));
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /**
     * One event loop and a small worker pool: the agent does little, and every thread costs memory. Two
     * workers for the outbox and the host probe, plus one per SQL Server instance (up to 8) so that a slow
     * instance does not hold up the others or the outbox.
     */
    public static VertxOptions smallVertx(int sqlInstances) {
        return new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(2 + Math.min(sqlInstances, 8))
                .setInternalBlockingPoolSize(2)
                // each check wakes a thread (~0.5 ms of CPU measured); once a minute still names a stuck event loop
                .setBlockedThreadCheckInterval(60_000)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false));
    }
}
