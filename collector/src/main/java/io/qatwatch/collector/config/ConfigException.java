package io.qatwatch.collector.config;

import java.util.List;

/**
 * A configuration that cannot be used. Each problem names its key (e.g. {@code alerts.channels[0].url}) and, where
 * it was read from one, the file.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /** One problem, already naming the file and key. */
    public ConfigException(String message) {
        super(message);
        this.problems = List.of(message);
    }

    /** Several problems of one section, under {@code heading} (e.g. "invalid alerts configuration"). */
    public ConfigException(String heading, List<String> problems) {
        super(heading + ":\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each starting with the key. */
    public List<String> problems() {
        return problems;
    }
}
