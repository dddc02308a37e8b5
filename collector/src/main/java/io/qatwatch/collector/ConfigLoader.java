package io.qatwatch.collector;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qatwatch.collector.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the collector's YAML config; unknown keys and wrong types are errors that name the key. */
public final class ConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(com.fasterxml.jackson.databind.MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS);

    private ConfigLoader() {
    }

    /** Loads {@code file}, or the defaults when it is null. */
    public static CollectorConfig load(Path file) {
        CollectorConfig config;
        if (file == null) {
            config = CollectorConfig.defaults();
        } else {
            if (!Files.isReadable(file)) {
                throw new ConfigException(file + ": config file not found or not readable");
            }
            try {
                CollectorConfig read = YAML.readValue(file.toFile(), CollectorConfig.class);
                config = read == null ? CollectorConfig.defaults() : read.withDefaults();
            } catch (JsonMappingException e) {
                throw new ConfigException(file + ": " + keyOf(e) + ": " + firstLine(e.getOriginalMessage()));
            } catch (IOException e) {
                throw new ConfigException(file + ": not valid YAML: " + firstLine(e.getMessage()));
            }
        }
        List<String> problems = config.validate();
        if (!problems.isEmpty()) {
            throw new ConfigException((file == null ? "defaults" : file.toString()) + ": " + String.join("; ", problems));
        }
        return config;
    }

    private static String keyOf(JsonMappingException e) {
        StringBuilder key = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                key.append(key.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                key.append('[').append(ref.getIndex()).append(']');
            }
        }
        return key.isEmpty() ? "(top level)" : key.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "invalid";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
