package io.qatwatch.agent.service;

/**
 * Builds the agent runtime for a service start. The daemon registers its one implementation in
 * {@code META-INF/services/io.qatwatch.agent.service.AgentRuntimeFactory}.
 */
public interface AgentRuntimeFactory {

    /** A runtime reading its configuration from {@code arguments.configFile()}, keeping state in {@code arguments.dataDir()}. */
    AgentRuntime create(ServiceArguments arguments);
}
