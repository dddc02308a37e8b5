package io.qatwatch.agent.probe.sqlserver;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns a driver exception into what a DBA reads in {@code probes[]}: what failed and what to do about it. */
final class SqlProbeErrors {

    /** What went wrong and the next step. */
    record Explained(String error, String hint) {
    }

    private static final Pattern SERVER_PERMISSION = Pattern.compile("^(.+?) permission was denied on object 'server'");
    private static final Pattern OBJECT_PERMISSION =
            Pattern.compile("The (\\w+) permission was denied on the object '([^']+)', database '([^']+)', schema '([^']+)'");
    private static final String SCRIPT = "install/sql/create-monitor-login.sql";

    private SqlProbeErrors() {
    }

    /**
     * @param where   e.g. {@code sqlserver PROD (jdbc:sqlserver://sql01:1433), query backup-history.sql}
     * @param query   the query that failed, or null for the connection itself
     * @param login   the login to name in GRANT statements, or null for Windows authentication
     */
    static Explained explain(SQLException e, String where, SqlQuery query, String login, int queryTimeoutSeconds) {
        String message = firstLine(e.getMessage());
        String grantee = login == null ? "[DOMAIN\\service-account]" : "[" + login + "]";
        if (e instanceof SQLTimeoutException || message.toLowerCase(Locale.ROOT).contains("timed out")) {
            return new Explained(where + ": " + message,
                    query == null
                            ? "check that the server is up and reachable on that host and port (firewall, TCP/IP enabled), or raise loginTimeout"
                            : "the query ran longer than " + queryTimeoutSeconds + " s: raise queryTimeout, or look for blocking on msdb (long backup-history cleanup)");
        }
        switch (e.getErrorCode()) {
            case 300 -> {
                Matcher m = SERVER_PERMISSION.matcher(message);
                String permission = m.find() ? m.group(1) : "VIEW SERVER STATE";
                return new Explained(where + ": " + message,
                        "USE master; GRANT " + permission + " TO " + grantee + "; (see " + SCRIPT + ")");
            }
            case 229 -> {
                Matcher m = OBJECT_PERMISSION.matcher(message);
                String grant = m.find()
                        ? "USE " + m.group(3) + "; GRANT " + m.group(1) + " ON " + m.group(4) + "." + m.group(2) + " TO " + grantee + ";"
                        : "GRANT SELECT on the msdb backup tables to " + grantee + ";";
                return new Explained(where + ": " + message, grant + " (see " + SCRIPT + ")");
            }
            case 916 -> {
                return new Explained(where + ": " + message,
                        "create a user for the login in msdb: USE msdb; CREATE USER " + grantee + " FOR LOGIN " + grantee + "; (see " + SCRIPT + ")");
            }
            case 208 -> {
                return new Explained(where + ": " + message, query == null ? null
                        : "this server does not have what " + query.name() + " reads (needs major version "
                                + query.minimumMajorVersion() + "+); report this with the server's version");
            }
            case 18456 -> {
                return new Explained(where + ": " + message,
                        "check the login name and the password file or environment variable; the server's error log says why (state number)");
            }
            default -> {
                // fall through to the connection checks below
            }
        }
        String lower = message.toLowerCase(Locale.ROOT);
        if (lower.contains("ssl") || lower.contains("tls") || lower.contains("certificate") || lower.contains("encrypt")) {
            return new Explained(where + ": " + message,
                    "the connection is encrypted by default: give the server a certificate this machine trusts, or set "
                            + "trustServerCertificate=true (--trust-server-certificate) to accept its self-signed one");
        }
        if ("08S01".equals(e.getSQLState()) || lower.contains("connection refused") || lower.contains("tcp/ip connection")) {
            return new Explained(where + ": " + message,
                    "check host and port in the JDBC URL, that TCP/IP is enabled in SQL Server Configuration Manager, and the firewall; "
                            + "for a named instance without a port, the SQL Server Browser service must run");
        }
        return new Explained(where + ": " + message + " (error " + e.getErrorCode() + ", state " + e.getSQLState() + ")",
                query == null ? null : "the query needs: " + query.permission());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        int id = line.indexOf(" ClientConnectionId:");
        return (id < 0 ? line : line.substring(0, id)).trim();
    }
}
