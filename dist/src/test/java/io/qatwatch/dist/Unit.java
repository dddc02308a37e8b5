package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A systemd unit file's settings, by key (every key the packaged units use appears once). */
final class Unit {

    private Unit() {
    }

    static Map<String, String> settings(Path unitFile) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : Files.readAllLines(unitFile)) {
            int equals = line.indexOf('=');
            if (line.isBlank() || line.startsWith("#") || line.startsWith("[") || equals < 0) {
                continue;
            }
            String key = line.substring(0, equals);
            assertThat(settings.put(key, line.substring(equals + 1))).as(key + " set twice in " + unitFile).isNull();
        }
        return settings;
    }
}
