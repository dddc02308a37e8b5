package io.qatwatch.agent.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Windows service's entry points for procrun in jvm mode ({@code --StartMode=jvm --StartClass=}this
 * {@code --StartMethod=start}, the same for stop): the agent runs inside prunsrv.exe's JVM.
 */
public final class WindowsService {

    private static final Logger LOG = LoggerFactory.getLogger(WindowsService.class);

    /** procrun waits {@code --StopTimeout} (45 s in install-agent.ps1) before it kills the JVM; stop well before that. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private static final Object LOCK = new Object();
    private static ServiceHost running;
    private static boolean stopBeforeStart;

    private WindowsService() {
    }

    /** Called by procrun on service start; returns only after {@link #stop} has stopped the agent. */
    public static void start(String[] args) {
        ServiceOutcome outcome = run(args, arguments -> new AgentDaemonRuntime(arguments, System.getenv()),
                START_TIMEOUT, STOP_TIMEOUT);
        if (outcome != ServiceOutcome.STOPPED) {
            // procrun reports the JVM's exit code to the Service Control Manager: non-zero triggers the recovery actions
            System.exit(outcome.exitCode());
        }
    }

    /** Called by procrun, on another thread, when Windows stops the service. */
    public static void stop(String[] args) {
        ServiceHost host;
        synchronized (LOCK) {
            host = running;
            if (host == null) {
                // procrun reports the service running as soon as start() is called, so a stop can overtake it
                stopBeforeStart = true;
                return;
            }
        }
        try {
            if (!host.requestStop()) {
                LOG.error("qatwatch agent service: the agent did not stop in time; procrun will end the JVM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Parses the arguments, builds the runtime, runs it until {@link #stop}; never throws. */
    static ServiceOutcome run(String[] args, AgentRuntimeFactory factory,
                              Duration startTimeout, Duration stopTimeout) {
        ServiceHost host;
        ServiceArguments arguments;
        try {
            arguments = ServiceArguments.parse(Arrays.asList(args == null ? new String[0] : args));
            LOG.info("qatwatch agent service starting: config {}, data {}", arguments.configFile(), arguments.dataDir());
            host = new ServiceHost(factory.create(arguments), startTimeout, stopTimeout);
        } catch (RuntimeException e) {
            LOG.error("qatwatch agent service cannot start: {}", e.getMessage());
            return ServiceOutcome.START_FAILED;
        }
        synchronized (LOCK) {
            if (running != null) {
                LOG.error("qatwatch agent service: start called twice in one JVM; the second start is refused");
                return ServiceOutcome.START_FAILED;
            }
            if (stopBeforeStart) {
                stopBeforeStart = false;
                LOG.info("qatwatch agent service: stopped before it started");
                return ServiceOutcome.STOPPED;
            }
            running = host;
        }
        ScheduledExecutorService logPruning = pruneLogsDaily(arguments);
        try {
            return host.run();
        } finally {
            logPruning.shutdownNow();
            synchronized (LOCK) {
                running = null;
            }
        }
    }

    /** procrun keeps every daily log file forever: delete the old ones at start and once a day. */
    private static ScheduledExecutorService pruneLogsDaily(ServiceArguments arguments) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "qatwatch-log-pruning");
            thread.setDaemon(true);
            return thread;
        });
        if (arguments.logDir() != null) {
            Duration keep = Duration.ofDays(arguments.keepLogDays());
            executor.scheduleWithFixedDelay(() -> ProcrunLogs.prune(arguments.logDir(), Instant.now(), keep),
                    0, 1, TimeUnit.DAYS);
        }
        return executor;
    }
}
