package io.qatwatch.agent;

/** Entry point of the agent jar. */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) {
    }
}
