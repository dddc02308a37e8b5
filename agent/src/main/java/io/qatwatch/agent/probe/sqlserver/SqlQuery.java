package io.qatwatch.agent.probe.sqlserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One query of the SQL Server probe, read from {@code /sqlserver/<name>.sql}. The file's header says what it
 * reads, the minimum major version, the permission (entries separated by {@code ;}, each a permission with an optional
 * {@code ON securable IN database} and an optional release range such as {@code (2016-2019)} or {@code (2022+)}; or
 * {@code public}), the sources of its facts and the columns; the text goes to the server unchanged
 * (header included, so a trace on the server names the file), except {@code {placeholders}} that the agent
 * fills with numbers it formats itself.
 *
 * @param name                 file name, e.g. {@code backup-history.sql}; also the probe name's suffix and the
 *                             key the TDS test server answers by
 * @param minimumMajorVersion  lowest {@code ProductMajorVersion} the query runs on (13 = 2016, 16 = 2022)
 * @param permission           what the header says the login needs, used in hints
 */
record SqlQuery(String name, int minimumMajorVersion, String permission, String text) {

    private static final Pattern MINIMUM = Pattern.compile("^-- Minimum:\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern PERMISSION = Pattern.compile("^-- Permission:\\s+(.+)$", Pattern.MULTILINE);
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

    static final SqlQuery SERVER_PROPERTIES = load("server-properties.sql");
    static final SqlQuery CONFIGURATION = load("configuration.sql");
    static final SqlQuery ACCELERATOR_STATUS = load("accelerator-status.sql");
    static final SqlQuery DATABASES = load("databases.sql");
    static final SqlQuery DATABASE_GUIDS = load("database-guids.sql");
    static final SqlQuery GUIDS_FROM_BACKUPS = load("guids-from-backups.sql");
    static final SqlQuery DATABASE_ENCRYPTION = load("database-encryption.sql");
    static final SqlQuery AVAILABILITY_DATABASES = load("availability-databases.sql");
    static final SqlQuery BACKUP_HISTORY = load("backup-history.sql");
    static final SqlQuery BACKUP_HISTORY_2022 = load("backup-history-2022.sql");
    static final SqlQuery RUNNING_BACKUPS = load("running-backups.sql");
    static final SqlQuery CERTIFICATES = load("certificates.sql");
    static final SqlQuery ASYMMETRIC_KEYS = load("asymmetric-keys.sql");
    static final SqlQuery LATEST_BACKUP_SET_ID = load("latest-backup-set-id.sql");
    static final SqlQuery AGENT_STATUS = load("agent-status.sql");
    static final SqlQuery AGENT_JOBS = load("agent-jobs.sql");
    static final SqlQuery AGENT_SCHEDULES = load("agent-schedules.sql");
    static final SqlQuery JOB_HISTORY = load("job-history.sql");
    static final SqlQuery JOB_HISTORY_LATEST = load("job-history-latest.sql");
    static final SqlQuery COMMAND_LOG = load("command-log.sql");
    static final SqlQuery COMMAND_LOG_LATEST = load("command-log-latest.sql");
    static final SqlQuery RESTORE_HISTORY = load("restore-history.sql");
    static final SqlQuery RESTORE_HISTORY_LATEST = load("restore-history-latest.sql");

    /** Every query the agent sends, in the order a full read sends them. */
    static List<SqlQuery> all() {
        return List.of(SERVER_PROPERTIES, CONFIGURATION, ACCELERATOR_STATUS, DATABASES, DATABASE_GUIDS, GUIDS_FROM_BACKUPS, DATABASE_ENCRYPTION,
                AVAILABILITY_DATABASES, BACKUP_HISTORY, BACKUP_HISTORY_2022, RUNNING_BACKUPS, CERTIFICATES, ASYMMETRIC_KEYS,
                LATEST_BACKUP_SET_ID, AGENT_STATUS, AGENT_JOBS, AGENT_SCHEDULES, JOB_HISTORY, JOB_HISTORY_LATEST, COMMAND_LOG,
                COMMAND_LOG_LATEST, RESTORE_HISTORY, RESTORE_HISTORY_LATEST);
    }

    static SqlQuery load(String name) {
        String resource = "/sqlserver/" + name;
        try (InputStream in = SqlQuery.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("query resource missing from the agent jar: " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher minimum = MINIMUM.matcher(text);
            Matcher permission = PERMISSION.matcher(text);
            if (!text.startsWith("-- qatwatch query: " + name + "\n") || !minimum.find() || !permission.find()
                    || !text.contains("\n-- Source:")) {
                throw new IllegalStateException(resource + ": header must start with '-- qatwatch query: " + name
                        + "' and carry '-- Minimum: <major version>', '-- Permission: ...' and '-- Source: ...'");
            }
            return new SqlQuery(name, Integer.parseInt(minimum.group(1)), permission.group(1).trim(), text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The query's short name for probe names: the file name without {@code .sql}. */
    String shortName() {
        return name.substring(0, name.length() - 4);
    }

    /** The text with every {@code {placeholder}} replaced by its number; a missing number is a programming error. */
    String text(Map<String, Long> numbers) {
        return text(numbers, Map.of());
    }

    /**
     * The text with every {@code {placeholder}} replaced by its number, or by a table of a named database: {@code tables}
     * maps a placeholder to a database name (checked against {@link SqlInstanceSettings#DATABASE_NAME}, never free text) that becomes
     * {@code [name].dbo.<table>}, the table being the placeholder's word before {@code _table} in camel case
     * ({@code command_log_table} → {@code CommandLog}).
     */
    String text(Map<String, Long> numbers, Map<String, String> tables) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String key = m.group(1);
            String replacement;
            if (tables.containsKey(key)) {
                String database = tables.get(key);
                if (database == null || !SqlInstanceSettings.DATABASE_NAME.matcher(database).matches() || !key.endsWith("_table")) {
                    throw new IllegalArgumentException(name + ": '" + database + "' is not a database name the agent puts into a query");
                }
                replacement = "[" + database + "].dbo." + camel(key.substring(0, key.length() - "_table".length()));
            } else {
                Long value = numbers.get(key);
                if (value == null) {
                    throw new IllegalArgumentException(name + " needs a value for {" + key + "}");
                }
                replacement = Long.toString(value);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String camel(String words) {
        StringBuilder s = new StringBuilder();
        for (String w : words.split("_")) {
            s.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
        }
        return s.toString();
    }

    boolean runsOn(int majorVersion) {
        return majorVersion >= minimumMajorVersion;
    }

    static Map<String, Long> none() {
        return Map.of();
    }
}
