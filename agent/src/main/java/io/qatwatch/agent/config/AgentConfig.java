package io.qatwatch.agent.config;

import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.OutboxSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The agent's configuration, typed. {@link #defaults()} is the one place defaults live;
 * {@code install/agent.example.yaml} shows the same values and a test keeps the two equal.
 *
 * @param name      the agent's name in reports and logs; empty means the host name
 * @param tags      the host's tags, sent with every report; the collector's host groups and channels match them
 */
public record AgentConfig(
        String name,
        Collector collector,
        OutboxSettings outbox,
        Schedule schedule,
        int healthPort,
        List<SqlInstanceSettings> sqlInstances,
        Map<String, String> tags) {

    public AgentConfig {
        sqlInstances = List.copyOf(sqlInstances);
        tags = tags == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(tags));
    }

    /** A configuration without tags. */
    public AgentConfig(String name, Collector collector, OutboxSettings outbox, Schedule schedule, int healthPort,
            List<SqlInstanceSettings> sqlInstances) {
        this(name, collector, outbox, schedule, healthPort, sqlInstances, Map.of());
    }

    /**
     * Where and how reports are delivered.
     *
     * @param url            the collector's base URL; required, no default
     * @param tokenFile      file holding the agent's bearer token (first line)
     * @param tokenEnv       environment variable holding the token when {@code tokenFile} is not set
     * @param caFile         PEM with the CA(s) that signed the collector's certificate; null: system trust store
     * @param initialBackoff wait after the first failed delivery; doubles per failure, with jitter
     * @param maxBackoff     the longest wait between tries
     */
    public record Collector(
            URI url,
            Path tokenFile,
            String tokenEnv,
            Path caFile,
            boolean gzip,
            Duration connectTimeout,
            Duration requestTimeout,
            Duration initialBackoff,
            Duration maxBackoff) {
    }

    /**
     * How often each probe runs. SQL sections: inventory = server, databases, certificates;
     * configuration = sp_configure and the accelerator status; backups = history and running backups.
     *
     * @param backupCatchUp wait before reading the next page of backup history when a page came back full (and the
     *                      outbox holds at most the report being delivered; else the next page waits for a delivery)
     */
    public record Schedule(
            Duration host,
            Duration sqlInventory,
            Duration sqlConfiguration,
            Duration sqlBackups,
            Duration backupCatchUp) {
    }

    public static final int DEFAULT_HEALTH_PORT = 8471;
    public static final String DEFAULT_TOKEN_ENV = "QATWATCH_AGENT_TOKEN";

    public static AgentConfig defaults() {
        return new AgentConfig(
                "",
                new Collector(null, null, DEFAULT_TOKEN_ENV, null, true,
                        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(5)),
                new OutboxSettings(64L << 20, 4L << 20, true, 20),
                new Schedule(Duration.ofHours(1), Duration.ofHours(1), Duration.ofMinutes(5), Duration.ofMinutes(1),
                        Duration.ofMillis(500)),
                DEFAULT_HEALTH_PORT,
                List.of());
    }

    /** Defaults of one {@code sqlserver.instances[]} entry; name and jdbcUrl have none. */
    public static SqlInstanceSettings instanceDefaults(String name, String jdbcUrl) {
        return new SqlInstanceSettings(name, jdbcUrl, null, null, null, false,
                Duration.ofSeconds(15), Duration.ofSeconds(30), 5000);
    }
}
