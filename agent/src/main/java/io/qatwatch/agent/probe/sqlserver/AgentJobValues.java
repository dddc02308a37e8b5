package io.qatwatch.agent.probe.sqlserver;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pure conversions of SQL Server Agent and Ola Hallengren values into the report's terms: msdb's packed integer dates,
 * times and durations, job-history statuses, what a job step backs up, and the compression a BACKUP command names.
 */
final class AgentJobValues {

    /** What one job's steps say about backups. */
    record JobKind(String kind, boolean backupJob, List<String> backupTypes, List<String> databases) {
    }

    /** One step of a job as {@code sysjobsteps} gives it. */
    record Step(String subsystem, String command) {
    }

    /** The compression a BACKUP command asks for; each part null when it names none. */
    record Compression(String algorithm, String level) {
    }

    static final String T_SQL = "T-SQL";
    static final String OLA_HALLENGREN = "OLA_HALLENGREN";
    static final String DBATOOLS = "DBATOOLS";
    static final String MAINTENANCE_PLAN = "MAINTENANCE_PLAN";
    static final String OTHER = "OTHER";

    private static final Pattern OLA_PROCEDURE = Pattern.compile(
            "\\bEXEC(?:UTE)?\\s+(?:\\[?\\w+]?\\.)?(?:\\[?dbo]?\\.)?\\[?(DatabaseBackup|DatabaseIntegrityCheck|IndexOptimize)]?", Pattern.CASE_INSENSITIVE);
    private static final Pattern OLA_DATABASES = Pattern.compile("@Databases\\s*=\\s*N?'((?:[^']|'')*)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern OLA_BACKUP_TYPE = Pattern.compile("@BackupType\\s*=\\s*N?'(\\w+)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern TSQL_BACKUP = Pattern.compile(
            "\\bBACKUP\\s+(DATABASE|LOG)\\s+(\\[(?:[^\\]]|]])+]|\"[^\"]+\"|@\\w+|[A-Za-z_][\\w@$#]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DIFFERENTIAL = Pattern.compile("\\bDIFFERENTIAL\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DBATOOLS_BACKUP = Pattern.compile("\\bBackup-DbaDatabase\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DBATOOLS_ANY = Pattern.compile("\\b\\w+-Dba\\w+\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DBATOOLS_TYPE = Pattern.compile("-Type\\s+['\"]?(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DBATOOLS_DATABASE = Pattern.compile("-Database\\s+((?:['\"]?[\\w.$#@-]+['\"]?\\s*,\\s*)*['\"]?[\\w.$#@-]+['\"]?)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern MAINTENANCE_PLAN_STEP = Pattern.compile("Maintenance Plans\\\\", Pattern.CASE_INSENSITIVE);
    private static final Pattern COMPRESSION = Pattern.compile("\\bCOMPRESSION\\s*\\(([^)]*)\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NO_COMPRESSION = Pattern.compile("\\bNO_COMPRESSION\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ALGORITHM = Pattern.compile("\\bALGORITHM\\s*=\\s*(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern LEVEL = Pattern.compile("\\bLEVEL\\s*=\\s*(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Set<String> ALGORITHMS = Set.of("MS_XPRESS", "QAT_DEFLATE", "ZSTD");
    private static final Set<String> LEVELS = Set.of("LOW", "MEDIUM", "HIGH");

    private AgentJobValues() {
    }

    /**
     * A {@code sysjobhistory} start in UTC: {@code run_date} is yyyymmdd and {@code run_time} HHMMSS, both the server's
     * local time, converted with the server's UTC offset when read. Null when the date is 0 or not a date.
     */
    static Instant runStart(int runDate, int runTime, int serverOffsetMinutes) {
        LocalDate date = date(runDate);
        LocalTime time = time(runTime);
        if (date == null || time == null) {
            return null;
        }
        return LocalDateTime.of(date, time).toInstant(ZoneOffset.ofTotalSeconds(serverOffsetMinutes * 60));
    }

    /**
     * {@code run_duration} in seconds: the column is packed as HHMMSS ("Elapsed time ... in HHMMSS format"), so 13005 is
     * 1 h 30 min 5 s; hours may exceed two digits (1000000 is 100 h). Negative values (never documented) count as 0.
     */
    static long durationSeconds(int runDuration) {
        if (runDuration <= 0) {
            return 0;
        }
        long hours = runDuration / 10_000;
        long minutes = runDuration / 100 % 100;
        long seconds = runDuration % 100;
        return hours * 3600 + minutes * 60 + seconds;
    }

    /** {@code active_start_time} (HHMMSS) as {@code HH:mm:ss}; {@code 00:00:00} for a value that is not a time. */
    static String clockTime(int hhmmss) {
        LocalTime t = time(hhmmss);
        return t == null ? "00:00:00" : String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
    }

    /** {@code run_status} by name (sysjobhistory page); null for a code the page does not list (the row is left out). */
    static String runStatus(int code) {
        return switch (code) {
            case 0 -> "FAILED";
            case 1 -> "SUCCEEDED";
            case 2 -> "RETRY";
            case 3 -> "CANCELED";
            case 4 -> "IN_PROGRESS";
            default -> null;
        };
    }

    private static LocalDate date(int yyyymmdd) {
        if (yyyymmdd <= 0) {
            return null;
        }
        try {
            return LocalDate.of(yyyymmdd / 10_000, yyyymmdd / 100 % 100, yyyymmdd % 100);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static LocalTime time(int hhmmss) {
        if (hhmmss < 0) {
            return null;
        }
        try {
            return LocalTime.of(hhmmss / 10_000, hhmmss / 100 % 100, hhmmss % 100);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * What a job does, from its steps: the first step that backs up decides the kind (Ola Hallengren's DatabaseBackup, a
     * T-SQL BACKUP, dbatools' Backup-DbaDatabase, or a maintenance-plan subplan); without one, the first step's kind.
     * A maintenance plan keeps its tasks in its SSIS package, which the agent does not read: its subplan counts as a
     * backup when the job's or the plan's name says "backup".
     */
    static JobKind classify(String jobName, List<Step> steps) {
        Set<String> types = new LinkedHashSet<>();
        Set<String> databases = new LinkedHashSet<>();
        boolean allOrUnknown = false;
        String backupKind = null;
        String firstKind = null;
        for (Step step : steps) {
            String command = step.command() == null ? "" : step.command();
            String subsystem = step.subsystem() == null ? "" : step.subsystem().trim().toUpperCase(Locale.ROOT);
            String kind = kindOf(subsystem, command);
            if (firstKind == null) {
                firstKind = kind;
            }
            boolean backs = false;
            Matcher ola = OLA_PROCEDURE.matcher(command);
            while (ola.find()) {
                // the parameters that follow this EXECUTE, up to the next one
                int end = nextExecute(command, ola.end());
                String call = command.substring(ola.end(), end);
                boolean backup = ola.group(1).equalsIgnoreCase("DatabaseBackup");
                if (backup) {
                    backs = true;
                    Matcher type = OLA_BACKUP_TYPE.matcher(call);
                    if (type.find()) {
                        String t = type.group(1).toUpperCase(Locale.ROOT);
                        if (t.equals("FULL") || t.equals("DIFF") || t.equals("LOG")) {
                            types.add(t);
                        }
                    }
                }
                Matcher dbs = OLA_DATABASES.matcher(call);
                if (dbs.find()) {
                    allOrUnknown |= !olaDatabaseList(dbs.group(1).replace("''", "'"), databases);
                } else {
                    allOrUnknown = true;
                }
            }
            Matcher tsql = TSQL_BACKUP.matcher(command);
            while (tsql.find()) {
                backs = true;
                if (tsql.group(1).equalsIgnoreCase("LOG")) {
                    types.add("LOG");
                } else {
                    int end = nextBackup(command, tsql.end());
                    types.add(DIFFERENTIAL.matcher(command.substring(tsql.end(), end)).find() ? "DIFF" : "FULL");
                }
                String db = tsqlName(tsql.group(2));
                if (db == null) {
                    allOrUnknown = true;
                } else {
                    databases.add(db);
                }
            }
            if (DBATOOLS_BACKUP.matcher(command).find()) {
                backs = true;
                Matcher type = DBATOOLS_TYPE.matcher(command);
                String t = type.find() ? type.group(1).toLowerCase(Locale.ROOT) : "full";
                types.add(switch (t) {
                    case "differential", "diff" -> "DIFF";
                    case "log" -> "LOG";
                    default -> "FULL";
                });
                Matcher db = DBATOOLS_DATABASE.matcher(command);
                if (db.find()) {
                    for (String name : db.group(1).split(",")) {
                        databases.add(name.trim().replace("'", "").replace("\"", ""));
                    }
                } else {
                    allOrUnknown = true;
                }
            }
            if (kind.equals(MAINTENANCE_PLAN) && (contains(jobName, "backup") || contains(command, "backup"))) {
                backs = true;
                allOrUnknown = true;
            }
            if (backs && backupKind == null) {
                backupKind = kind.equals(OTHER) && DBATOOLS_BACKUP.matcher(command).find() ? DBATOOLS : kind;
            }
        }
        boolean backupJob = backupKind != null;
        List<String> names = allOrUnknown || databases.isEmpty() ? List.of() : new ArrayList<>(databases);
        return new JobKind(backupJob ? backupKind : firstKind == null ? OTHER : firstKind, backupJob,
                backupJob ? List.copyOf(types) : List.of(), names);
    }

    private static String kindOf(String subsystem, String command) {
        if (OLA_PROCEDURE.matcher(command).find()) {
            return OLA_HALLENGREN;
        }
        if (subsystem.equals("SSIS") && MAINTENANCE_PLAN_STEP.matcher(command).find()) {
            return MAINTENANCE_PLAN;
        }
        if ((subsystem.equals("POWERSHELL") || subsystem.equals("CMDEXEC")) && DBATOOLS_ANY.matcher(command).find()) {
            return DBATOOLS;
        }
        if (subsystem.equals("TSQL")) {
            return T_SQL;
        }
        return OTHER;
    }

    private static int nextExecute(String command, int from) {
        Matcher m = OLA_PROCEDURE.matcher(command);
        return m.find(from) ? m.start() : command.length();
    }

    private static int nextBackup(String command, int from) {
        Matcher m = TSQL_BACKUP.matcher(command);
        return m.find(from) ? m.start() : command.length();
    }

    /**
     * The names of an Ola Hallengren {@code @Databases} list into {@code into}; false when the list is not only plain
     * names (keywords such as USER_DATABASES, wildcards, exclusions with '-', availability-group selections).
     */
    private static boolean olaDatabaseList(String list, Set<String> into) {
        List<String> names = new ArrayList<>();
        for (String item : list.split(",")) {
            String name = item.trim();
            if (name.startsWith("[") && name.endsWith("]") && name.length() > 2) {
                name = name.substring(1, name.length() - 1);
            }
            String upper = name.toUpperCase(Locale.ROOT);
            if (name.isEmpty() || name.startsWith("-") || name.contains("%") || upper.equals("SYSTEM_DATABASES")
                    || upper.equals("USER_DATABASES") || upper.equals("ALL_DATABASES")
                    || upper.equals("AVAILABILITY_GROUP_DATABASES") || upper.startsWith("AVAILABILITY_GROUPS")) {
                return false;
            }
            names.add(name);
        }
        into.addAll(names);
        return true;
    }

    /** The database a T-SQL BACKUP names, without its brackets or quotes; null for a variable. */
    private static String tsqlName(String token) {
        if (token.startsWith("@")) {
            return null;
        }
        if (token.startsWith("[")) {
            return token.substring(1, token.length() - 1).replace("]]", "]");
        }
        if (token.startsWith("\"")) {
            return token.substring(1, token.length() - 1);
        }
        return token;
    }

    private static boolean contains(String text, String word) {
        return text != null && text.toLowerCase(Locale.ROOT).contains(word);
    }

    /**
     * The algorithm and level of a BACKUP command's {@code COMPRESSION (ALGORITHM = ..., LEVEL = ...)} option (SQL Server
     * 2022+; LEVEL from 2025), as Ola Hallengren's DatabaseBackup writes it; {@code NONE} for {@code NO_COMPRESSION}. Only
     * the COMPRESSION option's parentheses are read: {@code ENCRYPTION (ALGORITHM = AES_256, ...)} is not a compression.
     */
    static Compression compression(String command) {
        if (command == null) {
            return new Compression(null, null);
        }
        Matcher c = COMPRESSION.matcher(command);
        if (c.find()) {
            Matcher a = ALGORITHM.matcher(c.group(1));
            Matcher l = LEVEL.matcher(c.group(1));
            String algorithm = a.find() ? a.group(1).toUpperCase(Locale.ROOT) : null;
            String level = l.find() ? l.group(1).toUpperCase(Locale.ROOT) : null;
            return new Compression(algorithm != null && ALGORITHMS.contains(algorithm) ? algorithm : null,
                    level != null && LEVELS.contains(level) ? level : null);
        }
        if (NO_COMPRESSION.matcher(command).find()) {
            return new Compression("NONE", null);
        }
        return new Compression(null, null);
    }
}
