package io.qatwatch.agent.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

/** Reads the collector token from its file or environment variable. The value is never logged or echoed. */
public final class Secrets {

    private Secrets() {
    }

    /** The agent's bearer token: first line of {@code collector.tokenFile}, else the variable named by {@code collector.tokenEnv}. */
    public static String collectorToken(AgentConfig.Collector collector, Map<String, String> env) {
        if (collector.tokenFile() != null) {
            String token;
            try {
                token = firstLine(Files.readString(collector.tokenFile(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ConfigException("collector.tokenFile", "cannot read " + collector.tokenFile() + " (" + e.getClass().getSimpleName() + ")");
            }
            if (token.isEmpty()) {
                throw new ConfigException("collector.tokenFile", collector.tokenFile() + " is empty; save the token issued by the collector there");
            }
            return token;
        }
        String name = collector.tokenEnv();
        String token = name == null ? null : env.get(name);
        if (token == null || token.isBlank()) {
            throw new ConfigException("collector.tokenFile", "no agent token: set collector.tokenFile to a file holding the token "
                    + "issued by the collector, or the environment variable " + (name == null ? AgentConfig.DEFAULT_TOKEN_ENV : name)
                    + " (collector.tokenEnv)");
        }
        return firstLine(token);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
