package io.qatwatch.collector.cli;

import java.nio.file.Path;

/** The data directory: {@code --data}, else {@code QATWATCH_DATA}, else {@code ./.qatwatch}. */
final class DataDir {

    private DataDir() {
    }

    static Path resolve(Path option) {
        if (option != null) {
            return option;
        }
        String env = System.getenv("QATWATCH_DATA");
        return Path.of(env == null || env.isBlank() ? ".qatwatch" : env);
    }
}
