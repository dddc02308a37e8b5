package io.qatwatch.agent.service;

import java.util.concurrent.CompletionStage;

/**
 * The agent daemon as a service host sees it: started once, stopped once, both asynchronous.
 * The daemon implements this; {@link ServiceHost} drives it for the Windows service.
 */
public interface AgentRuntime {

    /** Starts probing and shipping; completes once the agent runs, fails when it cannot start (bad config, no disk). */
    CompletionStage<Void> start();

    /** Stops the agent (finishes the current write to the outbox); completes once everything is closed. */
    CompletionStage<Void> stop();
}
