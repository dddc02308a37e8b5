package io.qatwatch.agent.service;

/** Builds the agent runtime for a service start: {@link AgentDaemonRuntime} in the service, a fake in tests. */
@FunctionalInterface
public interface AgentRuntimeFactory {

    /** A runtime reading its configuration from {@code arguments.configFile()}, keeping state in {@code arguments.dataDir()}. */
    AgentRuntime create(ServiceArguments arguments);
}
