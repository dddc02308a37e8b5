package io.qatwatch.agent.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed reads from one section of the YAML tree: each read names its key, supplies the default, and
 * lets an environment variable override it ({@code collector.tokenFile} → {@code QATWATCH_COLLECTOR_TOKEN_FILE}).
 * {@link #finish()} rejects keys nobody read, so a typo is an error rather than a silently ignored line.
 */
final class ConfigReader {

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");

    private final JsonNode node;
    private final String prefix;
    private final Map<String, String> env;
    private final Path baseDir;
    private final boolean envAllowed;
    private final Set<String> read = new LinkedHashSet<>();
    private final Set<String> allKeys;

    private ConfigReader(JsonNode node, String prefix, Map<String, String> env, Path baseDir, boolean envAllowed, Set<String> allKeys) {
        this.node = node;
        this.prefix = prefix;
        this.env = env;
        this.baseDir = baseDir;
        this.envAllowed = envAllowed;
        this.allKeys = allKeys;
    }

    static ConfigReader root(JsonNode node, Map<String, String> env, Path baseDir, Set<String> allKeys) {
        if (node != null && !node.isNull() && !node.isMissingNode() && !node.isObject()) {
            throw new ConfigException("(top level)", "expected a YAML mapping of sections (agent:, collector:, ...)");
        }
        return new ConfigReader(node, "", env, baseDir, true, allKeys);
    }

    ConfigReader section(String key) {
        JsonNode child = raw(key);
        if (child != null && !child.isObject()) {
            throw new ConfigException(key(key), "expected a mapping of keys under it");
        }
        return new ConfigReader(child, key(key) + ".", env, baseDir, envAllowed, allKeys);
    }

    List<ConfigReader> list(String key) {
        JsonNode child = raw(key);
        List<ConfigReader> out = new ArrayList<>();
        if (child == null) {
            return out;
        }
        if (!child.isArray()) {
            throw new ConfigException(key(key), "expected a list (entries starting with '- ')");
        }
        for (int i = 0; i < child.size(); i++) {
            if (!child.get(i).isObject()) {
                throw new ConfigException(key(key) + "[" + i + "]", "expected a mapping of keys");
            }
            out.add(new ConfigReader(child.get(i), key(key) + "[" + i + "].", env, baseDir, false, allKeys));
        }
        return out;
    }

    String string(String key, String fallback) {
        String v = scalar(key);
        return v == null ? fallback : v;
    }

    boolean bool(String key, boolean fallback) {
        String v = scalar(key);
        if (v == null) {
            return fallback;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(key(key), "expected true or false (was '" + v + "')");
        };
    }

    int integer(String key, int fallback, int min, int max) {
        String v = scalar(key);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new ConfigException(key(key), "must be between " + min + " and " + max + " (was " + n + ")");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ConfigException(key(key), "expected a whole number (was '" + v + "')");
        }
    }

    Duration duration(String key, Duration fallback, Duration min) {
        String v = scalar(key);
        if (v == null) {
            return fallback;
        }
        Matcher m = DURATION.matcher(v.trim());
        if (!m.matches()) {
            throw new ConfigException(key(key), "expected a duration such as 500ms, 30s, 5m, 1h or 1d (was '" + v + "')");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.compareTo(min) < 0) {
            throw new ConfigException(key(key), "must be at least " + format(min) + " (was " + v + ")");
        }
        return d;
    }

    long bytes(String key, long fallback, long min) {
        String v = scalar(key);
        if (v == null) {
            return fallback;
        }
        Matcher m = SIZE.matcher(v.trim());
        if (!m.matches()) {
            throw new ConfigException(key(key), "expected a size such as 65536, 512KiB, 64MiB or 1GiB (was '" + v + "')");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "B" : m.group(2);
        long size = switch (unit) {
            case "KiB" -> n << 10;
            case "MiB" -> n << 20;
            case "GiB" -> n << 30;
            default -> n;
        };
        if (size < min) {
            throw new ConfigException(key(key), "must be at least " + min + " bytes (was " + v + ")");
        }
        return size;
    }

    /**
     * A mapping of single values ({@code tags: {env: prod, site: fra}}), in key order; the environment variable
     * overrides it whole as {@code key=value,key=value}. Empty when absent.
     */
    Map<String, String> stringMap(String key) {
        JsonNode v = raw(key);
        Map<String, String> out = new java.util.TreeMap<>();
        String override = envAllowed ? env.get(envName(key(key))) : null;
        if (override != null) {
            for (String pair : override.split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new ConfigException(key(key), "expected key=value,key=value in " + envName(key(key)) + " (was '"
                            + override + "')");
                }
                out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
            return out;
        }
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isObject()) {
            throw new ConfigException(key(key), "expected a mapping such as {env: prod, site: fra}");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = v.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (!f.getValue().isValueNode() || f.getValue().isNull()) {
                throw new ConfigException(key(key) + "." + f.getKey(), "expected a single value");
            }
            out.put(f.getKey(), f.getValue().asText());
        }
        return out;
    }

    /** A path; relative ones are taken from the config file's folder. Empty means none. */
    Path path(String key, Path fallback) {
        String v = scalar(key);
        if (v == null) {
            return fallback;
        }
        if (v.isBlank()) {
            return null;
        }
        return baseDir.resolve(v).normalize();
    }

    /** Fails on keys in this section that no read asked for. */
    void finish() {
        if (node == null) {
            return;
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!read.contains(name)) {
                Set<String> known = new TreeSet<>(read);
                throw new ConfigException(key(name), "unknown key; known keys here: " + String.join(", ", known)
                        + " (see install/agent.example.yaml)");
            }
        }
    }

    /** The environment variable that overrides {@code key}. */
    static String envName(String dottedKey) {
        return "QATWATCH_" + dottedKey.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    private String scalar(String key) {
        JsonNode v = raw(key);
        if (envAllowed) {
            String override = env.get(envName(key(key)));
            if (override != null) {
                return override;
            }
        }
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isValueNode()) {
            throw new ConfigException(key(key), "expected a single value, not a " + (v.isArray() ? "list" : "mapping"));
        }
        return v.asText();
    }

    private JsonNode raw(String key) {
        read.add(key);
        allKeys.add(genericKey(key(key)));
        if (node == null) {
            return null;
        }
        JsonNode v = node.get(key);
        return v == null || v.isMissingNode() ? null : v;
    }

    private String key(String key) {
        return prefix + key;
    }

    private static String genericKey(String key) {
        return key.replaceAll("\\[\\d+]", "[]");
    }

    static String format(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        if (s % 86400 == 0) {
            return s / 86400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }
}
