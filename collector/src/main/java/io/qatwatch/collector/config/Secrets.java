package io.qatwatch.collector.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a secret (an InfluxDB token, a webhook URL, an SMTP password) from a file or an environment variable, never
 * from the YAML itself: the file's first line, stripped, else the variable's value. Blocking (file read).
 */
public final class Secrets {

    private final Map<String, String> environment;

    /** Secrets over {@code environment}, usually {@code System.getenv()}. */
    public Secrets(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** Secrets over this process's environment. */
    public static Secrets fromEnvironment() {
        return new Secrets(System.getenv());
    }

    /**
     * The secret in {@code file}, else in the environment variable {@code env}, else null when neither is set.
     *
     * @param key the config key naming the file, for the error message
     */
    public char[] read(Path file, String env, String key) {
        if (file != null) {
            return firstLine(file, key).toCharArray();
        }
        String value = env == null ? null : environment.get(env);
        return value == null || value.isBlank() ? null : value.strip().toCharArray();
    }

    /**
     * A channel secret: {@code inline} when given (token-free endpoints and tests), else the first line of
     * {@code file}, else the variable {@code env}; null when none of the three is given. A missing file or unset
     * variable is an error naming {@code key} and what to do.
     */
    public String resolve(String key, String inline, String file, String env) {
        if (inline != null) {
            return inline;
        }
        if (file != null) {
            return firstLine(Path.of(file), key + "File");
        }
        if (env != null) {
            String v = environment.get(env);
            if (v == null || v.isBlank()) {
                throw new ConfigException(key + "Env: environment variable " + env + " is not set; set it in the "
                        + "collector's service environment");
            }
            return v.strip();
        }
        return null;
    }

    private static String firstLine(Path file, String key) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int nl = text.indexOf('\n');
            String first = (nl < 0 ? text : text.substring(0, nl)).strip();
            if (first.isEmpty()) {
                throw new ConfigException(key + ": " + file + " is empty; put the secret on its first line");
            }
            return first;
        } catch (IOException e) {
            throw new ConfigException(key + ": cannot read " + file + " (" + e.getClass().getSimpleName()
                    + "); create it with the secret, readable by the collector's user only");
        }
    }
}
