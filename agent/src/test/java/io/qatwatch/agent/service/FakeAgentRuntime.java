package io.qatwatch.agent.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** An agent runtime whose start and stop complete when the test says so; counts the calls. */
final class FakeAgentRuntime implements AgentRuntime {

    final CompletableFuture<Void> started = new CompletableFuture<>();
    final CompletableFuture<Void> stopped = new CompletableFuture<>();
    final CountDownLatch startCalled = new CountDownLatch(1);
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stops = new AtomicInteger();

    static FakeAgentRuntime healthy() {
        FakeAgentRuntime runtime = new FakeAgentRuntime();
        runtime.started.complete(null);
        runtime.stopped.complete(null);
        return runtime;
    }

    @Override
    public CompletionStage<Void> start() {
        starts.incrementAndGet();
        startCalled.countDown();
        return started;
    }

    @Override
    public CompletionStage<Void> stop() {
        stops.incrementAndGet();
        return stopped;
    }
}
