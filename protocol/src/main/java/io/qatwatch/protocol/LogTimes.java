package io.qatwatch.protocol;

import java.util.TimeZone;
import org.slf4j.LoggerFactory;

/**
 * Every log line of the long-running commands (agent, collector, up, demo) starts with its ISO-8601 UTC time
 * ({@code 2026-12-01T22:15:03.123Z}), so an outage can be timed from a file or a terminal (journald adds its own time).
 * The agent and the collector share slf4j-simple; a user's own {@code -Dorg.slf4j.simpleLogger.*} settings win.
 */
public final class LogTimes {

    /** SimpleDateFormat's pattern: in UTC, {@code X} prints {@code Z}. */
    public static final String PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSX";

    private LogTimes() {
    }

    /**
     * Turns the times on, then makes slf4j-simple build its formatter. It builds one SimpleDateFormat, in the JVM's
     * default zone, at its first logger and offers no zone setting: so it is built while the default zone is UTC,
     * which is given back at once (the agent reads the host's zone for backups whose time zone msdb does not know).
     * Call it before anything logs.
     */
    public static void utc() {
        if (System.getProperty("org.slf4j.simpleLogger.showDateTime") == null) {
            System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        }
        if (System.getProperty("org.slf4j.simpleLogger.dateTimeFormat") == null) {
            System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", PATTERN);
        }
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        try {
            LoggerFactory.getLogger(LogTimes.class);
        } finally {
            TimeZone.setDefault(zone);
        }
    }
}
