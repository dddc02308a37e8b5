package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServiceHostTest {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final Duration LONG = Duration.ofSeconds(10);

    @Test
    void runKeepsTheAgentRunningUntilStopIsRequestedThenStopsIt() throws Exception {
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();
        ServiceHost host = new ServiceHost(runtime, LONG, LONG);

        CompletableFuture<ServiceOutcome> run = runUntilStartCalled(host, runtime);
        Thread.sleep(100);
        assertThat(run).as("procrun treats a returned start method as a stopped service").isNotDone();
        assertThat(runtime.stops).hasValue(0);

        assertThat(host.requestStop()).isTrue();
        assertThat(run.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOPPED);
        assertThat(runtime.starts).hasValue(1);
        assertThat(runtime.stops).hasValue(1);
    }

    @Test
    void aFailedStartEndsTheRunAtOnceWithANonZeroExitAndReleasesTheAgent() {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.started.completeExceptionally(new IllegalArgumentException("agent.yaml: collector.url is missing"));
        runtime.stopped.complete(null);

        ServiceOutcome outcome = new ServiceHost(runtime, LONG, LONG).run();

        assertThat(outcome).isEqualTo(ServiceOutcome.START_FAILED);
        assertThat(outcome.exitCode()).isNotZero();
        assertThat(runtime.stops).hasValue(1);
    }

    @Test
    void aStartThatHangsTimesOut() {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.stopped.complete(null);
        long before = System.nanoTime();

        ServiceOutcome outcome = new ServiceHost(runtime, SHORT, SHORT).run();

        assertThat(outcome).isEqualTo(ServiceOutcome.START_TIMED_OUT);
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aStopThatHangsTimesOutAndStillLetsTheStopCallerGo() throws Exception {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.started.complete(null);
        ServiceHost host = new ServiceHost(runtime, SHORT, SHORT);
        CompletableFuture<ServiceOutcome> run = runUntilStartCalled(host, runtime);

        assertThat(host.requestStop()).isTrue();
        assertThat(run.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOP_TIMED_OUT);
        assertThat(ServiceOutcome.STOP_TIMED_OUT.exitCode()).isNotZero();
    }

    @Test
    void aFailingStopIsReported() throws Exception {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.started.complete(null);
        runtime.stopped.completeExceptionally(new IllegalStateException("outbox: disk full"));
        ServiceHost host = new ServiceHost(runtime, LONG, LONG);
        CompletableFuture<ServiceOutcome> run = runUntilStartCalled(host, runtime);

        host.requestStop();

        assertThat(run.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOP_FAILED);
    }

    @Test
    void aStopThatArrivesWhileTheAgentIsStartingStopsItOnceStarted() throws Exception {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.stopped.complete(null);
        ServiceHost host = new ServiceHost(runtime, LONG, LONG);
        CompletableFuture<ServiceOutcome> run = runUntilStartCalled(host, runtime);

        CompletableFuture<Boolean> stop = CompletableFuture.supplyAsync(() -> {
            try {
                return host.requestStop();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);
        assertThat(stop).isNotDone();

        runtime.started.complete(null);

        assertThat(stop.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(run.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOPPED);
        assertThat(runtime.stops).hasValue(1);
    }

    /** Runs the host on another thread, as procrun does, and returns once the agent's start was called. */
    private static CompletableFuture<ServiceOutcome> runUntilStartCalled(ServiceHost host, FakeAgentRuntime runtime)
            throws InterruptedException {
        CompletableFuture<ServiceOutcome> run = CompletableFuture.supplyAsync(host::run);
        assertThat(runtime.startCalled.await(5, TimeUnit.SECONDS)).isTrue();
        return run;
    }
}
