package io.qatwatch.agent.service;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What procrun passes to the service's start method ({@code --StartParams=--config;FILE;--data;DIR}):
 * the agent's configuration file and its state directory.
 */
public record ServiceArguments(Path configFile, Path dataDir) {

    public ServiceArguments {
        Objects.requireNonNull(configFile, "configFile");
        Objects.requireNonNull(dataDir, "dataDir");
    }

    /** Parses {@code --config FILE --data DIR} (both required, any order); the message names what is wrong. */
    public static ServiceArguments parse(List<String> args) {
        Path config = null;
        Path data = null;
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            if (!name.equals("--config") && !name.equals("--data")) {
                throw new IllegalArgumentException("unknown service start parameter '" + name
                        + "': expected --config FILE and --data DIR (procrun --StartParams, see install-agent.ps1)");
            }
            if (i + 1 >= args.size() || args.get(i + 1).isBlank()) {
                throw new IllegalArgumentException("service start parameter " + name + " has no value:"
                        + " give it after a ';' in procrun --StartParams, e.g. --StartParams=--config;C:\\ProgramData\\qatwatch\\agent.yaml");
            }
            Path value = Path.of(args.get(++i));
            if (name.equals("--config")) {
                config = value;
            } else {
                data = value;
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
        return new ServiceArguments(config, data);
    }
}
