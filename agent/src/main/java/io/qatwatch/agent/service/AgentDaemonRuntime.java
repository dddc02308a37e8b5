package io.qatwatch.agent.service;

import io.qatwatch.agent.cli.AgentCommand;
import io.qatwatch.agent.config.AgentConfigLoader;
import io.qatwatch.agent.config.ConfigException;
import io.qatwatch.agent.config.Secrets;
import io.qatwatch.agent.daemon.AgentDaemon;
import io.qatwatch.agent.daemon.LiveProbes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent daemon behind the Windows service: reads the config and token as {@code qatwatch agent} does,
 * runs {@link AgentDaemon} on its own small Vert.x instance, and closes both on stop.
 */
public final class AgentDaemonRuntime implements AgentRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(AgentDaemonRuntime.class);

    private final ServiceArguments arguments;
    private final Map<String, String> env;
    private volatile Vertx vertx;
    private volatile AgentDaemon daemon;

    public AgentDaemonRuntime(ServiceArguments arguments, Map<String, String> env) {
        this.arguments = arguments;
        this.env = Map.copyOf(env);
    }

    @Override
    public CompletionStage<Void> start() {
        AgentConfigLoader.Loaded loaded;
        String token;
        try {
            loaded = AgentConfigLoader.load(arguments.configFile(), env);
            token = Secrets.collectorToken(loaded.config().collector(), env);
            Files.createDirectories(arguments.dataDir());
        } catch (ConfigException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(arguments.configFile() + ": " + e.getMessage(), e));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new IllegalStateException("cannot create the data folder "
                    + arguments.dataDir() + " (--data in procrun --StartParams): " + e, e));
        }
        loaded.warnings().forEach(warning -> LOG.warn("{}", warning));
        Vertx started = AgentCommand.vertx(loaded.config().sqlInstances().size());
        vertx = started;
        return AgentDaemon.start(started, loaded.config(), arguments.dataDir(), token, LiveProbes.create(Clock.systemDefaultZone()), Clock.systemUTC())
                .onSuccess(running -> daemon = running)
                .<Void>mapEmpty()
                .toCompletionStage();
    }

    @Override
    public CompletionStage<Void> stop() {
        Vertx running = vertx;
        if (running == null) {
            return CompletableFuture.completedFuture(null);
        }
        AgentDaemon started = daemon;
        Future<Void> stopping = started == null ? Future.succeededFuture() : started.stop();
        return stopping.eventually(running::close).toCompletionStage();
    }
}
