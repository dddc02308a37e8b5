package io.qatwatch.agent.config;

/** A configuration value that cannot be used, with the key that holds it and what to do instead. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public ConfigException(String key, String message) {
        super(key + ": " + message);
        this.key = key;
    }

    /** The dotted key, e.g. {@code collector.url} or {@code sqlserver.instances[0].jdbcUrl}. */
    public String key() {
        return key;
    }
}
