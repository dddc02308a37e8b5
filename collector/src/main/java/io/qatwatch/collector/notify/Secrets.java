package io.qatwatch.collector.notify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Reads a channel secret from an inline value, a file, or an environment variable. Blocking (file read). */
public final class Secrets {

    private final Map<String, String> environment;

    public Secrets(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * The secret, trimmed; null when none of the three is given. A missing file or unset variable is an
     * error naming {@code key} and what to do.
     */
    public String resolve(String key, String inline, String file, String env) {
        if (inline != null) {
            return inline;
        }
        if (file != null) {
            try {
                return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                throw new IllegalArgumentException(key + "File: cannot read " + file + " (" + e.getClass().getSimpleName()
                        + "); create it with the secret, readable by the collector's user only");
            }
        }
        if (env != null) {
            String v = environment.get(env);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException(key + "Env: environment variable " + env + " is not set; set it in the "
                        + "collector's service environment");
            }
            return v.trim();
        }
        return null;
    }
}
