package io.qatwatch.agent.probe.sqlserver;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

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
 * @param backupPageSize         backup rows per page of the first sync and of catch-up reads (job history, CommandLog and
 *                               restores use the same page size)
 * @param commandLogDatabase     the database holding Ola Hallengren's dbo.CommandLog: {@code master} by default, where his
 *                               MaintenanceSolution.sql installs it
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
        int backupPageSize,
        String commandLogDatabase) {

    /**
     * A database name the agent may put into a query's text (bracketed): a letter or '_', then letters, digits, '_', '@',
     * '$' or '#', at most 128, SQL Server's rule for regular identifiers. Anything else is refused at configuration.
     */
    public static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_@$#]{0,127}");

    /** Where Ola Hallengren's MaintenanceSolution.sql creates dbo.CommandLog unless told otherwise. */
    public static final String DEFAULT_COMMAND_LOG_DATABASE = "master";

    public SqlInstanceSettings {
        commandLogDatabase = commandLogDatabase == null ? DEFAULT_COMMAND_LOG_DATABASE : commandLogDatabase;
    }

    /** As before issue 15: CommandLog in master. */
    public SqlInstanceSettings(String name, String jdbcUrl, String user, Path passwordFile, String passwordEnv,
            boolean trustServerCertificate, Duration loginTimeout, Duration queryTimeout, int backupPageSize) {
        this(name, jdbcUrl, user, passwordFile, passwordEnv, trustServerCertificate, loginTimeout, queryTimeout, backupPageSize,
                DEFAULT_COMMAND_LOG_DATABASE);
    }
}
