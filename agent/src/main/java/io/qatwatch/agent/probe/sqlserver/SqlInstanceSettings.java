package io.qatwatch.agent.probe.sqlserver;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach one SQL Server instance. The password comes from a file or an environment variable, never
 * from the config file itself.
 *
 * @param name                   the instance's name in reports (letters, digits, {@code _ $ # . -})
 * @param jdbcUrl                a {@code jdbc:sqlserver://} URL without credentials
 * @param user                   SQL login; null for Windows integrated authentication
 * @param passwordFile           file holding the password (first line), or null
 * @param passwordEnv            environment variable holding the password, or null
 * @param trustServerCertificate accept the server's certificate without validation (encrypt stays on)
 * @param backupPageSize         backup rows per page of the first sync and of catch-up reads
 */
public record SqlInstanceSettings(
        String name,
        String jdbcUrl,
        String user,
        Path passwordFile,
        String passwordEnv,
        boolean trustServerCertificate,
        Duration loginTimeout,
        Duration queryTimeout,
        int backupPageSize) {
}
