package io.qatwatch.collector.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Credentials from a file (first line, trimmed) or an environment variable; never from the YAML itself. */
public final class Secrets {

    private Secrets() {
    }

    /**
     * The secret in {@code file}, else in the environment variable {@code env}, else null.
     *
     * @param key the config key naming the file, for the error message
     */
    public static char[] read(Path file, String env, String key) {
        if (file != null) {
            try {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                int nl = text.indexOf('\n');
                String first = (nl < 0 ? text : text.substring(0, nl)).strip();
                if (first.isEmpty()) {
                    throw new ConfigLoader.ConfigException(key + ": " + file + " is empty; put the secret on its first line");
                }
                return first.toCharArray();
            } catch (IOException e) {
                throw new ConfigLoader.ConfigException(key + ": cannot read " + file + " (" + e.getClass().getSimpleName()
                        + "); check the path and that the collector's user may read it");
            }
        }
        String value = System.getenv(env);
        return value == null || value.isBlank() ? null : value.strip().toCharArray();
    }
}
