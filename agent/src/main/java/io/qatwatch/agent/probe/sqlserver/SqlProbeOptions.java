package io.qatwatch.agent.probe.sqlserver;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --sql} options of {@code qatwatch probe} (a picocli mixin): which instance, which login, and
 * whether to accept a self-signed certificate. The password comes from a file or the
 * {@code QATWATCH_SQL_PASSWORD} environment variable, never from the command line.
 */
public final class SqlProbeOptions {

    /** Environment variable read when no password file is given. */
    public static final String PASSWORD_ENV = "QATWATCH_SQL_PASSWORD";
    /** How many of the newest backups the one-shot probe reads. */
    public static final int RECENT_BACKUPS = 5_000;
    /** Job-history, CommandLog and restore rows the one-shot probe starts below the newest of each. */
    public static final int RECENT_HISTORY_ROWS = 500;
    private static final Pattern INSTANCE = Pattern.compile("^jdbc:sqlserver://[^;:\\\\/]*\\\\([^;:/]+)", Pattern.CASE_INSENSITIVE);

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--sql", paramLabel = "JDBC_URL",
            description = "Also read this SQL Server instance, e.g. jdbc:sqlserver://sql01:1433 or jdbc:sqlserver://sql01\\\\PROD. "
                    + "Encryption stays on (the driver's default) unless the URL says encrypt=false.")
    String url;

    @Option(names = "--sql-user", paramLabel = "LOGIN",
            description = "SQL login (see install/sql/create-monitor-login.sql); without it, Windows integrated authentication is used.")
    String user;

    @Option(names = "--sql-password-file", paramLabel = "FILE",
            description = "File whose first line is the login's password; otherwise the " + PASSWORD_ENV + " environment variable is read.")
    Path passwordFile;

    @Option(names = "--trust-server-certificate",
            description = "Accept the server's certificate without checking it (traffic stays encrypted). For self-signed certificates only.")
    boolean trustServerCertificate;

    /** Whether {@code --sql} was given. */
    public boolean requested() {
        return url != null;
    }

    /** Settings for the probe; the instance is named after the URL's {@code \\INSTANCE}, else MSSQLSERVER. */
    public SqlInstanceSettings settings() {
        if (url == null || !url.toLowerCase(Locale.ROOT).startsWith("jdbc:sqlserver://")) {
            throw new ParameterException(command.commandLine(),
                    "--sql must be a JDBC URL starting with jdbc:sqlserver://, e.g. jdbc:sqlserver://sql01:1433; was: " + url);
        }
        if (passwordFile != null && user == null) {
            throw new ParameterException(command.commandLine(), "--sql-password-file needs --sql-user (Windows authentication uses no password)");
        }
        return new SqlInstanceSettings(instanceName(url), url, user, passwordFile, user != null && passwordFile == null ? PASSWORD_ENV : null,
                trustServerCertificate, Duration.ofSeconds(15), Duration.ofSeconds(60), 5_000);
    }

    /** Reads the instance once: everything, with the most recent backups. Blocking. */
    public SqlProbeResult probe(Clock clock) {
        return probe(clock, SqlRecorder.NONE);
    }

    /** As {@link #probe(Clock)}, every answer shown to {@code recorder} ({@code --capture}). */
    public SqlProbeResult probe(Clock clock, SqlRecorder recorder) {
        JdbcSqlInstanceProbe probe = new JdbcSqlInstanceProbe(settings(), clock, recorder);
        return probe.probeAfter(EnumSet.allOf(SqlSection.class), probe.startForRecent(RECENT_BACKUPS, RECENT_HISTORY_ROWS));
    }

    static String instanceName(String url) {
        Matcher m = INSTANCE.matcher(url);
        String name = m.find() ? m.group(1) : "MSSQLSERVER";
        return name.replaceAll("[^A-Za-z0-9_$#.\\-]", "_");
    }
}
