package io.qatwatch.agent.service;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What procrun passes to the service's start method
 * ({@code --StartParams=--config;FILE;--data;DIR;--logs;DIR;--keep-log-days;N}): the agent's configuration file,
 * its state directory and, optionally, procrun's log folder and how many days of logs to keep there.
 *
 * @param logDir      procrun's {@code --LogPath}, or null: no log files are deleted
 * @param keepLogDays days of daily log files kept in {@code logDir}
 */
public record ServiceArguments(Path configFile, Path dataDir, Path logDir, int keepLogDays) {

    /** Days of procrun logs kept when {@code --logs} is given without {@code --keep-log-days}. */
    static final int DEFAULT_KEEP_LOG_DAYS = 30;

    public ServiceArguments {
        Objects.requireNonNull(configFile, "configFile");
        Objects.requireNonNull(dataDir, "dataDir");
    }

    public ServiceArguments(Path configFile, Path dataDir) {
        this(configFile, dataDir, null, DEFAULT_KEEP_LOG_DAYS);
    }

    /**
     * Parses {@code --config FILE --data DIR} (both required) and {@code --logs DIR --keep-log-days N} (optional),
     * in any order; the message names what is wrong.
     */
    public static ServiceArguments parse(List<String> args) {
        Path config = null;
        Path data = null;
        Path logs = null;
        int keepDays = DEFAULT_KEEP_LOG_DAYS;
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            if (!List.of("--config", "--data", "--logs", "--keep-log-days").contains(name)) {
                throw new IllegalArgumentException("unknown service start parameter '" + name
                        + "': expected --config FILE and --data DIR, optionally --logs DIR and --keep-log-days N"
                        + " (procrun --StartParams, see install-agent.ps1)");
            }
            if (i + 1 >= args.size() || args.get(i + 1).isBlank()) {
                throw new IllegalArgumentException("service start parameter " + name + " has no value:"
                        + " give it after a ';' in procrun --StartParams,"
                        + " e.g. --StartParams=--config;C:\\ProgramData\\qatwatch\\agent.yaml");
            }
            String value = args.get(++i);
            switch (name) {
                case "--config" -> config = Path.of(value);
                case "--data" -> data = Path.of(value);
                case "--logs" -> logs = Path.of(value);
                default -> keepDays = days(value);
            }
        }
        if (config == null) {
            throw new IllegalArgumentException("service start parameter --config FILE is missing:"
                    + " re-run install-agent.ps1 or add it to procrun --StartParams");
        }
        if (data == null) {
            throw new IllegalArgumentException("service start parameter --data DIR is missing:"
                    + " re-run install-agent.ps1 or add it to procrun --StartParams");
        }
        return new ServiceArguments(config, data, logs, keepDays);
    }

    private static int days(String value) {
        try {
            int days = Integer.parseInt(value);
            if (days >= 1) {
                return days;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new IllegalArgumentException("service start parameter --keep-log-days must be a whole number of days, 1 or more,"
                + " not '" + value + "' (install-agent.ps1 -LogDays)");
    }
}
