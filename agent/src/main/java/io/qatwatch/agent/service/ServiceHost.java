package io.qatwatch.agent.service;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link AgentRuntime} the way procrun's jvm mode wants it: {@link #run()} starts the agent and
 * blocks until {@link #requestStop()} (called from another thread) has stopped it.
 */
public final class ServiceHost {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceHost.class);

    private final AgentRuntime runtime;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);

    public ServiceHost(AgentRuntime runtime, Duration startTimeout, Duration stopTimeout) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
        this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
    }

    /** Starts the agent, waits for a stop request, stops the agent; returns how it went. Call once. */
    public ServiceOutcome run() {
        try {
            ServiceOutcome started = await("start", runtime.start(), startTimeout,
                    ServiceOutcome.START_FAILED, ServiceOutcome.START_TIMED_OUT);
            if (started != null) {
                stopQuietly();
                return started;
            }
            LOG.info("qatwatch agent service running");
            stopRequested.await();
            LOG.info("qatwatch agent service stopping");
            ServiceOutcome stopped = await("stop", runtime.stop(), stopTimeout,
                    ServiceOutcome.STOP_FAILED, ServiceOutcome.STOP_TIMED_OUT);
            return stopped == null ? ServiceOutcome.STOPPED : stopped;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopQuietly();
            return ServiceOutcome.STOP_FAILED;
        } finally {
            finished.countDown();
        }
    }

    /**
     * Asks {@link #run()} to stop the agent and waits until it has (bounded by the start and stop timeouts,
     * since a stop can arrive while the agent is still starting). Returns whether it finished in that time.
     */
    public boolean requestStop() throws InterruptedException {
        stopRequested.countDown();
        return finished.await(startTimeout.plus(stopTimeout).toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Null when the stage completed normally in time, otherwise the outcome to report (after logging why). */
    private static ServiceOutcome await(String step, CompletionStage<Void> stage, Duration timeout,
                                        ServiceOutcome failed, ServiceOutcome timedOut) throws InterruptedException {
        try {
            stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            LOG.error("qatwatch agent failed to {}: {}", step, e.getCause().getMessage(), e.getCause());
            return failed;
        } catch (TimeoutException e) {
            LOG.error("qatwatch agent did not {} within {} s; the service exits so Windows recovery can restart it",
                    step, timeout.toSeconds());
            return timedOut;
        }
    }

    /** After a failed start: release whatever the agent did open, without waiting long or failing again. */
    private void stopQuietly() {
        try {
            runtime.stop().toCompletableFuture().get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("qatwatch agent did not stop cleanly after a failed start: {}", e.toString());
        }
    }
}
