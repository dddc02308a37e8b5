package io.qatwatch.collector.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where state lives, the one rule every command applies ({@code collector}, {@code collector token ...}, {@code up}):
 * the data directory is {@code --data DIR}, else {@code $QATWATCH_DATA}, else {@code ./.qatwatch}; the collector's
 * store is {@code DIR/qatwatch.db}, and {@code up}'s local agent keeps its token, config and outbox in {@code DIR/agent/}.
 */
final class DataDir {

    static final String RULE = "the data directory is --data DIR, else $QATWATCH_DATA, else ./.qatwatch";
    static final String STORE = "qatwatch.db";

    private DataDir() {
    }

    /** The data directory for {@code option} (null when not given), absolute. */
    static Path resolve(Path option) {
        return resolve(option, System.getenv());
    }

    static Path resolve(Path option, Map<String, String> env) {
        if (option != null) {
            return option.toAbsolutePath().normalize();
        }
        String value = env.get("QATWATCH_DATA");
        return Path.of(value == null || value.isBlank() ? ".qatwatch" : value).toAbsolutePath().normalize();
    }

    static Path store(Path dir) {
        return dir.resolve(STORE);
    }

    /** {@code the store DIR/qatwatch.db (the data directory is --data DIR, ...)}: for every message about the store. */
    static String describe(Path dir) {
        return "the store " + store(dir) + " (" + RULE + ")";
    }

    /** What to do when the store's folder cannot be created or written: the cause in words, and the next step. */
    static String whatToDo(Path dir, Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof AccessDeniedException)) {
            cause = cause.getCause();
        }
        String reason = cause instanceof AccessDeniedException ? "permission denied on " + cause.getMessage()
                : String.valueOf(e.getMessage());
        StringBuilder out = new StringBuilder("cannot open ").append(describe(dir)).append(": ").append(reason).append(". ");
        if (dir.startsWith("/var/lib/qatwatch")) {
            out.append("On a packaged install the collector's data directory is created when the service first starts: run ")
                    .append("'sudo systemctl start qatwatch-collector' once (or 'sudo install -d -o qatwatch-collector -g ")
                    .append("qatwatch-collector -m 0750 ").append(dir).append("'), then as the collector's user: ")
                    .append("sudo -u qatwatch-collector qatwatch collector token add NAME --data ").append(dir);
        } else {
            out.append("Run the command as a user that may write ").append(dir).append(", or give another --data DIR.");
        }
        return out.toString();
    }

    /**
     * Why this user should not write the store, or empty: root writing a store another user owns would leave files
     * (the write-ahead log) that the collector, running as that user, cannot write.
     */
    static Optional<String> wrongUser(Path dir, String user) {
        Path store = store(dir);
        if (!"root".equals(user) || !Files.exists(store)) {
            return Optional.empty();
        }
        try {
            String owner = Files.getOwner(store).getName();
            if (owner.equals(user)) {
                return Optional.empty();
            }
            return Optional.of(store + " belongs to " + owner + "; as root this command would leave files " + owner
                    + " cannot write. Run it as the store's owner: sudo -u " + owner + " qatwatch collector token ... --data " + dir);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * Before one data-directory rule, {@code up} kept its collector store in {@code DIR/collector/}: moves it to
     * {@code DIR}, where every command looks, and says so. Nothing is moved when {@code DIR} has a store already.
     */
    static Optional<String> moveOldUpLayout(Path dir) throws IOException {
        Path old = dir.resolve("collector");
        if (!Files.isRegularFile(store(old)) || Files.exists(store(dir))) {
            return Optional.empty();
        }
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> list = Files.list(old)) {
            list.forEach(entries::add);
        }
        for (Path entry : entries) {
            Path target = dir.resolve(entry.getFileName());
            if (!Files.exists(target)) {
                Files.move(entry, target, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        try (Stream<Path> left = Files.list(old)) {
            if (left.findAny().isEmpty()) {
                Files.delete(old);
            }
        }
        return Optional.of("moved the collector's store from " + store(old) + " to " + store(dir)
                + ", where every command looks (" + RULE + ")");
    }
}
