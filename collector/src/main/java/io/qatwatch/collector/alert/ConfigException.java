package io.qatwatch.collector.alert;

import java.util.List;

/** The alerts configuration is wrong; each problem names its key, e.g. {@code alerts.channels[0].url}. */
public final class ConfigException extends RuntimeException {

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super("invalid alerts configuration:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each starting with the key. */
    public List<String> problems() {
        return problems;
    }
}
