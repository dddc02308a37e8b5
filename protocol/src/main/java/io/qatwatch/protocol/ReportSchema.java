package io.qatwatch.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The wire format's rules, field by field, written once: {@link ReportValidator} checks every report against this
 * table and docs/protocol.md's field table is generated from it ({@link #markdownTable()}), so a rule in the
 * document is a rule the collector enforces. A test fails when a field of the protocol records has no entry here.
 *
 * <p>Rules every JSON string obeys, whether its field is listed here or not (unknown fields included): well-formed
 * UTF-8, at most {@link #MAX_STRING_BYTES} bytes, no control characters.
 */
public final class ReportSchema {

    /** Longest JSON string, in UTF-8 bytes, anywhere in a report (field names and unknown fields included). */
    public static final int MAX_STRING_BYTES = 64 * 1024;
    public static final int NAME_CHARS = 256;
    public static final int DATABASE_NAME_CHARS = 128;
    public static final int TEXT_CHARS = 4096;
    public static final int MAX_LIST_ITEMS = 4096;
    public static final int MAX_INSTANCES = 64;
    public static final int MAX_BACKUPS_PER_INSTANCE = 50_000;
    public static final int MAX_DATABASES = 32_767;
    /** SQL Server Agent jobs per instance. */
    public static final int MAX_JOBS = 4096;
    /** Job history rows, CommandLog rows or restores per instance and report: the agent reads larger backlogs in batches. */
    public static final int MAX_HISTORY_ROWS_PER_INSTANCE = 20_000;
    /** BACKUP writes to at most 64 devices (files or URLs) at once. */
    public static final int MAX_MEDIA_FAMILIES = 64;
    /** An LSN is {@code numeric(25,0)} in msdb: at most 25 decimal digits. */
    public static final int LSN_DIGITS = 25;
    /** {@code backupmediafamily.physical_device_name} is {@code nvarchar(260)}. */
    public static final int PHYSICAL_DEVICE_CHARS = 260;

    /** The characters no string of a report may hold: C0 and C1 controls, DEL, and the line and paragraph separators. */
    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    /** What a value must be. */
    public sealed interface Type permits Obj, ListOf, MapOf, Text, Int, Decimal, Bool, Time {
    }

    /** Whether a field may be null or left out. */
    public enum Presence { REQUIRED, OPTIONAL }

    /** One field of an object: its rule and what it means. */
    public record Field(String name, Type type, Presence presence, String meaning) {
        public boolean required() {
            return presence == Presence.REQUIRED;
        }
    }

    /**
     * A time field of an object that may not be earlier than another of the same object.
     *
     * @param later   the field that must not be earlier
     * @param earlier the field it is compared with
     */
    public record NotBefore(String later, String earlier, String violation) {
    }

    /** A JSON object; fields it does not list are allowed (newer agents add them) and obey the rules for every string. */
    public record Obj(List<Field> fields, List<NotBefore> order) implements Type {
        public Obj {
            fields = List.copyOf(fields);
            order = List.copyOf(order);
        }

        public Field field(String name) {
            for (Field f : fields) {
                if (f.name().equals(name)) {
                    return f;
                }
            }
            return null;
        }

        /** This object with {@code later} not before {@code earlier}. */
        public Obj notBefore(String later, String earlier, String violation) {
            List<NotBefore> more = new ArrayList<>(order);
            more.add(new NotBefore(later, earlier, violation));
            return new Obj(fields, more);
        }
    }

    /** A JSON array of at most {@code maxItems} items, none null. */
    public record ListOf(Type item, int maxItems) implements Type {
    }

    /** A JSON object of at most {@code maxEntries} names, each name a {@code key}, each value a {@code value} string. */
    public record MapOf(Text key, Text value, int maxEntries) implements Type {
    }

    /**
     * A JSON string.
     *
     * @param values      the only values allowed, spelled exactly; empty when any text is
     * @param pattern     a pattern the whole value must match, null when none
     * @param patternRule what the pattern means, for people (the error message and the document)
     */
    public record Text(int maxChars, boolean nonBlank, List<String> values, Pattern pattern, String patternRule)
            implements Type {
        public Text {
            values = List.copyOf(values);
        }

        public Text notBlank() {
            return new Text(maxChars, true, values, pattern, patternRule);
        }
    }

    /** A JSON integer (no fraction, no exponent, not a string) from {@code min} to {@code max}. */
    public record Int(long min, long max, String violation) implements Type {
    }

    /** A JSON number from {@code min} to {@code max}. */
    public record Decimal(double min, double max) implements Type {
    }

    /** {@code true} or {@code false}. */
    public record Bool() implements Type {
    }

    /**
     * A UTC ISO-8601 instant such as {@code 2026-11-30T00:30:02Z}.
     *
     * @param observed a time something happened: not before 1990, not more than a day ahead of the collector's clock
     */
    public record Time(boolean observed) implements Type {
    }

    private static final Pattern CLOCK_TIME = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]");

    private static final String INSTANCE_NAME_RULE = "1 to 64 letters, digits or _ $ # . - starting with a letter, digit or _"
            + " (no spaces or path separators)";

    /** An agent report: the document {@code POST /api/v1/reports} carries and {@code qatwatch probe --json} prints. */
    public static final Obj REPORT = object(
            req("schemaVersion", new Int(1, 1, "unsupported schema version %d; this build reads version 1"),
                    "a collector refuses a version it does not read"),
            req("reportId", new Text(64, true, List.of(), Pattern.compile("[A-Za-z0-9_\\-]{8,64}"),
                    "8 to 64 letters, digits, '-' or '_' (a UUID)"), "unique per report: a report id is stored once"),
            req("createdAt", observed(), "when the agent made the report"),
            req("agent", object(
                    req("name", name().notBlank(), "the agent's own name; informational: the host is the token's name"),
                    req("version", text(64).notBlank(), "the agent's version"),
                    req("uptimeSeconds", count(), "seconds since the agent started"),
                    req("outboxDepth", count(), "reports waiting in the outbox"),
                    req("outboxDroppedTotal", count(), "reports dropped because the outbox was full (the oldest go first)"),
                    req("outboxCorruptTotal", count(), "records cut as torn or corrupt when the outbox was read back after a crash"),
                    opt("outboxLostTotal", count(), "reports that could not be written to the outbox at all (a full disk, an "
                            + "I/O error): made, never stored, never sent. Added by issue 17; older agents leave it out"),
                    opt("tags", new MapOf(new Text(63, true, List.of(), AgentInfo.TAG_KEY,
                                    "a letter or digit, then letters, digits, '.', '_' or '-', at most 63"),
                                    new Text(AgentInfo.MAX_TAG_VALUE_CHARS, true, List.of(), Pattern.compile("[^,]*"), "no commas"),
                                    AgentInfo.MAX_TAGS),
                            "the host's tags from the agent's `agent.tags` (e.g. `{\"env\": \"prod\", \"site\": \"fra\"}`): the "
                                    + "collector's host groups, channels, silences and filters match them. Added by issue 23; "
                                    + "older agents leave it out")),
                    "who sent the report and how its outbox is doing"),
            opt("host", object(
                    opt("hostname", name(), ""),
                    opt("cpu", object(
                            opt("vendor", name(), "as the CPU reports it: `GenuineIntel`, `AuthenticAMD`, ..."),
                            opt("model", name(), ""),
                            opt("sockets", integer(0, Integer.MAX_VALUE), ""),
                            opt("logicalCores", integer(0, Integer.MAX_VALUE), "")), ""),
                    opt("system", object(
                            opt("manufacturer", name(), "DMI / BIOS string"),
                            opt("model", name(), "DMI / BIOS string")), ""),
                    opt("virtualization", name(), "`VMware`, `Hyper-V`, `KVM`, `Xen`, ...; null on bare metal or when undetermined"),
                    opt("os", object(
                            opt("family", name(), "`linux` or `windows`"),
                            opt("name", name(), ""),
                            opt("version", name(), "")), ""),
                    opt("memoryBytes", size(), "")),
                    "the machine; null in reports of cycles that did not probe the host"),
            opt("qat", object(
                    opt("devices", listOf(object(
                            req("address", name().notBlank(), "`0000:6b:00.0` (Linux) or the PnP instance path (Windows)"),
                            req("pciId", pciId(), ""),
                            req("function", oneOf("PF", "VF"), "physical or virtual (SR-IOV) function"),
                            opt("generation", oneOf("dh895xcc", "c62x", "c3xxx", "4xxx", "401xx", "402xx", "420xx", "6xxx"),
                                    "the device family, from the PCI id"),
                            opt("name", name(), "from pci.ids when present"),
                            opt("driver", name(), "bound driver, null when none"),
                            opt("state", oneOf("up", "down"), "Gen4+ sysfs `qat/state`; on Windows `down` for a device disabled in "
                                    + "Device Manager, else null"),
                            opt("services", listOf(text(64).notBlank(), 64), "`dc`, `sym`, `asym`, ... from `qat/cfg_services`")),
                            MAX_LIST_ITEMS), "one per QAT PCI function"),
                    opt("software", object(
                            opt("drivers", softwareItems(), "QAT drivers (Linux PCI drivers, Windows driver services)"),
                            opt("kernelModules", softwareItems(), "loaded QAT kernel modules"),
                            opt("firmware", softwareItems(), "QAT firmware files"),
                            opt("libraries", softwareItems(), "user-space QAT libraries (QATzip, QAT engine, ISA-L, ...)"),
                            opt("services", softwareItems(), "QAT services (systemd unit, init script, Windows service)"),
                            opt("deviceNodes", softwareItems(), "QAT device nodes under `/dev`"),
                            opt("zlibAccelEngines", listOf(text(64).notBlank(), 64), "engines named in `/etc/zlib-accel.conf`")),
                            "the QAT software stack found; an empty list means looked and found none"),
                    req("compressionReady", bool(), "a device can compress: Gen4+ `up` with `dc`, or a bound driver on older generations")),
                    "Intel QAT on the host; null in reports of cycles that did not probe the host"),
            opt("licence", object(
                    req("verdict", oneOf(LicenceVerdict.values()), "first match wins, in this order (DESIGN.md)"),
                    opt("intelComponents", listOf(object(
                            req("kind", oneOf(LicenceFacts.ComponentKind.values()), ""),
                            opt("pciId", pciId(), "null for the CPU"),
                            opt("description", name(), ""),
                            req("emulated", bool(), "a device a hypervisor emulates (440BX, PIIX, e1000)")), MAX_LIST_ITEMS),
                            "the Intel parts found"),
                    req("qatSoftwareInstalled", bool(), ""),
                    opt("notes", listOf(freeText().notBlank(), MAX_LIST_ITEMS), "facts a DBA can act on; no legal advice")),
                    "the licence posture; null in reports of cycles that did not probe the host"),
            opt("instances", listOf(object(
                    req("name", new Text(64, true, List.of(), ReportValidator.IDENTIFIER, INSTANCE_NAME_RULE),
                            "the instance as configured on the agent (it appears in URLs)"),
                    req("collectedAt", observed(), ""),
                    opt("server", object(
                            opt("productVersion", text(64), "`SERVERPROPERTY('ProductVersion')`"),
                            opt("majorVersion", integer(0, Integer.MAX_VALUE), "16 for SQL Server 2022, 17 for 2025"),
                            opt("edition", name(), ""),
                            opt("engineEdition", integer(0, Integer.MAX_VALUE), "2 Standard, 3 Enterprise/Developer, 4 Express, ..."),
                            opt("machineName", name(), ""),
                            opt("serverName", name(), ""),
                            opt("hadrEnabled", bool(), "availability groups enabled")), "SERVERPROPERTY facts; null when not read"),
                    opt("configuration", listOf(object(
                            req("name", name().notBlank(), ""),
                            req("value", integer(Long.MIN_VALUE, Long.MAX_VALUE), ""),
                            req("valueInUse", integer(Long.MIN_VALUE, Long.MAX_VALUE), "")), MAX_LIST_ITEMS),
                            "`sys.configurations` rows as raw numbers; value ≠ valueInUse means a RECONFIGURE or restart is "
                            + "pending. `backup compression algorithm`: 0 = \"backup compression is off, as specified by backup "
                            + "compression default\" (no algorithm named; not MS_XPRESS), 1 MS_XPRESS, 2 QAT_DEFLATE, 3 ZSTD; "
                            + "`hardware offload config` / `mode` have no documented meaning and are passed on raw; null when not read"),
                    opt("accelerators", listOf(object(
                            req("accelerator", text(64).notBlank(), "`QAT`"),
                            opt("modeDesc", text(64), "`HARDWARE`, `SOFTWARE`, `NONE`"),
                            opt("modeReasonDesc", name(), "why this mode, as the server says"),
                            opt("hardwareDetected", bool(), ""),
                            opt("libraryVersion", text(64), ""),
                            opt("driverVersion", text(64), "")), MAX_LIST_ITEMS),
                            "`sys.dm_server_accelerator_status` (SQL Server 2022+); null when not read"),
                    opt("databases", listOf(object(
                            req("name", databaseName().notBlank(), ""),
                            opt("databaseGuid", text(64), "null for offline databases, and while the instance has an AUTO_CLOSE database for a database "
                                    + "msdb holds no backup of since its create_date (docs/sqlserver.md)"),
                            opt("recoveryModel", text(60), "`FULL`, `SIMPLE`, `BULK_LOGGED`"),
                            opt("encryptionState", oneOf("NONE", "UNENCRYPTED", "ENCRYPTION_IN_PROGRESS", "ENCRYPTED",
                                    "KEY_CHANGE_IN_PROGRESS", "DECRYPTION_IN_PROGRESS", "PROTECTION_CHANGE_IN_PROGRESS", "UNKNOWN"),
                                    "TDE state from `sys.dm_database_encryption_keys`; `NONE` without a database encryption key"),
                            opt("availabilityGroup", databaseName(), "null outside an availability group"),
                            opt("replicaRole", text(60), "`PRIMARY` or `SECONDARY` in an availability group, else null"),
                            opt("preferredBackupReplica", bool(), ""),
                            opt("familyGuid", text(64), "`sys.database_recovery_status.family_guid`: kept through restores"),
                            opt("groupDatabaseId", text(64), "the database's identity in its availability group, the same on "
                                    + "every replica; null outside one"),
                            opt("availabilityGroupId", text(64), "the group's `group_id`"),
                            opt("autoClose", bool(), ""),
                            opt("tdeEncryptorThumbprint", text(128), "what protects the TDE key; null without TDE"),
                            opt("tdeEncryptorType", text(32), "`CERTIFICATE` or `ASYMMETRIC KEY`, as the server says; null without TDE"),
                            opt("createdAt", new Time(false), "`sys.databases.create_date` in UTC (a local time read in the "
                                    + "host's zone): a new database's recovery point objective counts from it; null from "
                                    + "agents before issue 31")),
                            MAX_DATABASES),
                            "the facts that decide how a database's backups are judged; null when not read"),
                    opt("backups", listOf(object(
                            req("backupSetId", new Int(1, Long.MAX_VALUE, "must be a positive backup_set_id (was %d)"),
                                    "`msdb.dbo.backupset.backup_set_id`"),
                            req("databaseName", databaseName().notBlank(), ""),
                            opt("databaseGuid", text(64), ""),
                            req("type", oneOf("D", "I", "L", "F", "G", "P", "Q"),
                                    "D full, I differential, L log, F file, G differential file, P partial, Q differential partial"),
                            req("copyOnly", bool(), ""),
                            req("startedAt", observed(), "UTC, from the row's local time and `time_zone`"),
                            req("finishedAt", observed(), ""),
                            req("timeZoneKnown", bool(), "false when `time_zone` was 127 (unknown) and the host's zone was used"),
                            req("backupSizeBytes", size(), ""),
                            opt("compressedSizeBytes", size(), ""),
                            opt("compressionAlgorithm", text(32), "`MS_XPRESS`, `QAT_DEFLATE`, `ZSTD`; null when not compressed"),
                            req("hasChecksums", bool(), ""),
                            opt("keyAlgorithm", text(32), "backup encryption algorithm; `NO_Encryption` when not encrypted"),
                            opt("encryptorThumbprint", text(128), ""),
                            opt("encryptorType", text(32), "`CERTIFICATE` or `ASYMMETRIC KEY`, as the server says"),
                            opt("deviceType", oneOf("DISK", "TAPE", "VIRTUAL_DEVICE", "URL", "PERMANENT_DEVICE", "UNKNOWN"),
                                    "`backupmediafamily.device_type`: `DISK` for 2 and 102, `TAPE` for 5 and 105, `VIRTUAL_DEVICE` 7, "
                                    + "`URL` 9, else `UNKNOWN`; agents before issue 14 sent `PERMANENT_DEVICE` for 105, a permanent tape"),
                            opt("target", oneOf("LOCAL", "UNC", "URL", "VIRTUAL_DEVICE", "TAPE", "NUL", "UNKNOWN"),
                                    "where the bytes went; UNC only from a disk path that names a share"),
                            opt("familyGuid", text(64), "`backupset.family_guid`: the original database's identity, kept through restores"),
                            opt("snapshot", bool(), "`backupset.is_snapshot`: a snapshot (VSS) backup, whose size is an estimate; "
                                    + "null from agents before issue 14"),
                            opt("mediaFamilyCount", integer(1, MAX_MEDIA_FAMILIES), "the stripes (files, URLs, devices) it was "
                                    + "written to: `backupmediafamily` rows of its media set, mirrors not counted; null from "
                                    + "agents before issue 15"),
                            opt("firstLsn", lsn(), "`backupset.first_lsn`; this and every field below added by issues 30 "
                                    + "and 31, null from older agents"),
                            opt("lastLsn", lsn(), "`backupset.last_lsn`: the next log backup of an unbroken chain starts at it"),
                            opt("checkpointLsn", lsn(), "`backupset.checkpoint_lsn`"),
                            opt("databaseBackupLsn", lsn(), "`backupset.database_backup_lsn`: the `checkpointLsn` of the "
                                    + "latest full before it"),
                            opt("differentialBaseLsn", lsn(), "`backupset.differential_base_lsn`: a differential's base full"),
                            opt("differentialBaseGuid", text(64), "`backupset.differential_base_guid`"),
                            opt("recoveryModel", oneOf("FULL", "BULK-LOGGED", "SIMPLE"), "`backupset.recovery_model` "
                                    + "as msdb spells it"),
                            opt("beginsLogChain", bool(), "`backupset.begins_log_chain`"),
                            opt("hasIncompleteMetadata", bool(), "`backupset.has_incomplete_metadata`"),
                            opt("physicalDeviceName", text(PHYSICAL_DEVICE_CHARS), "`backupmediafamily.physical_device_name`"
                                    + " of the first media family: a file, a URL, `NUL`, a virtual device's name"),
                            opt("cpu", cpu(), "the CPU the backup was seen to use while it ran; null when no poll saw it"),
                            opt("backupSetUuid", text(64), "`backupset.backup_set_uuid`: the backup set's identity, which a "
                                    + "differential's `differentialBaseGuid` names; null from older agents"))
                            .notBefore("finishedAt", "startedAt", "finishes before it starts"), MAX_BACKUPS_PER_INSTANCE),
                            "backups this instance took (`msdb.dbo.backupset` rows whose `server_name` is the instance's), "
                            + "above the previous high-water mark; null when not read"),
                    opt("runningBackups", listOf(object(
                            req("sessionId", integer(0, Integer.MAX_VALUE), ""),
                            req("command", text(64).notBlank(), "`BACKUP DATABASE`, `BACKUP LOG`"),
                            opt("databaseName", databaseName(), ""),
                            req("startedAt", observed(), ""),
                            req("percentComplete", new Decimal(0, 100), ""),
                            req("elapsedSeconds", count(), ""),
                            opt("estimatedRemainingSeconds", count(), "`estimated_completion_time` / 1000, assuming milliseconds: "
                                    + "the column is documented as \"Internal only\""),
                            opt("estimatedCompletionTimeRaw", integer(Long.MIN_VALUE, Long.MAX_VALUE), "the server's value as given"),
                            opt("requestCpuMs", count(), "`sys.dm_exec_requests.cpu_time` now (ms; preemptive time not "
                                    + "included); null from agents before issue 30"),
                            opt("sessionCpuMs", count(), "`sys.dm_exec_sessions.cpu_time` of its session now (ms)")),
                            MAX_LIST_ITEMS),
                            "backups running now, from `sys.dm_exec_requests`; null when not read or when the login cannot "
                            + "see other sessions"),
                    opt("certificates", listOf(object(
                            req("name", databaseName().notBlank(), ""),
                            opt("thumbprint", text(128), ""),
                            opt("expiresAt", new Time(false), ""),
                            opt("privateKeyLastBackupAt", observed(), "null when its private key was never backed up"),
                            req("usedForBackupEncryption", bool(), "")), MAX_LIST_ITEMS),
                            "certificates in master; null when not read"),
                    opt("backupHighWaterMark", size(), "highest `backup_set_id` read so far; null before the first sync"),
                    opt("asymmetricKeys", listOf(object(
                            req("name", databaseName().notBlank(), ""),
                            opt("thumbprint", text(128), ""),
                            opt("providerType", text(120), "`CRYPTOGRAPHIC PROVIDER` for an EKM key"),
                            opt("privateKeyEncryption", text(60), "`pvt_key_encryption_type_desc`: `NO_PRIVATE_KEY`, "
                                    + "`ENCRYPTED_BY_MASTER_KEY`, ..."),
                            req("usedForBackupEncryption", bool(), "")), MAX_LIST_ITEMS),
                            "asymmetric keys in master; null when not read"),
                    opt("runningBackupsHiddenFor", listOf(databaseName().notBlank(), MAX_DATABASES),
                            "databases whose running backups this login may not see although it sees the others: "
                            + "availability-group secondaries read without `applicationIntent=ReadOnly`. For these, absence from "
                            + "`runningBackups` means unknown. null when running backups were not read"),
                    opt("jobsStatus", oneOf(SqlInstanceSnapshot.JOBS_AVAILABLE, SqlInstanceSnapshot.JOBS_NO_AGENT,
                                    SqlInstanceSnapshot.JOBS_NO_PERMISSION),
                            "whether SQL Server Agent's tables could be read: `NO_AGENT` on Express or Linux without SQL Server "
                            + "Agent, or with its extended procedures off (not available, not an error), `NO_PERMISSION` when the "
                            + "login may not read msdb's Agent tables (`sysjobs`, `sysjobhistory`, ...); null when not read. Added "
                            + "by issue 15, like every field below"),
                    opt("jobs", listOf(object(
                            req("jobId", guid(), "`sysjobs.job_id`: stable when the job is renamed"),
                            req("name", databaseName().notBlank(), "`sysjobs.name`"),
                            opt("category", databaseName(), "`syscategories.name`, e.g. `Database Maintenance`"),
                            req("enabled", bool(), ""),
                            req("backupJob", bool(), "a step backs up: `BACKUP DATABASE`/`LOG`, Ola Hallengren's `DatabaseBackup`, "
                                    + "dbatools' `Backup-DbaDatabase`, or a maintenance-plan subplan whose job or plan name says backup"),
                            req("backupTypes", listOf(oneOf("FULL", "DIFF", "LOG"), 3), "what its steps back up; empty when not told"),
                            req("databases", listOf(databaseName().notBlank(), MAX_LIST_ITEMS),
                                    "databases its steps name; empty when all (or a set such as `USER_DATABASES`) or not told"),
                            req("kind", oneOf("T-SQL", "OLA_HALLENGREN", "DBATOOLS", "MAINTENANCE_PLAN", "OTHER"),
                                    "what runs the backup (or the job's first step when it does not back up)"),
                            req("schedules", listOf(object(
                                    req("scheduleId", integer(0, Integer.MAX_VALUE), "`sysschedules.schedule_id`"),
                                    req("name", databaseName(), ""),
                                    req("enabled", bool(), ""),
                                    req("freqType", integer(0, Integer.MAX_VALUE), "`freq_type`: 1 once, 4 daily, 8 weekly, 16 monthly, "
                                            + "32 monthly relative, 64 when Agent starts, 128 when idle"),
                                    req("freqInterval", integer(0, Integer.MAX_VALUE), "`freq_interval`: the days, as `freq_type` says "
                                            + "(weekly: a bitmask of weekdays, 1 = Sunday)"),
                                    req("freqSubdayType", integer(0, Integer.MAX_VALUE), "`freq_subday_type`: 1 at the start time, "
                                            + "2 seconds, 4 minutes, 8 hours"),
                                    req("freqSubdayInterval", integer(0, Integer.MAX_VALUE), "`freq_subday_interval`"),
                                    req("activeStartTime", new Text(8, true, List.of(), CLOCK_TIME, "`HH:mm:ss`"),
                                            "`active_start_time`, server local time"),
                                    opt("nextRunAt", new Time(false), "`sysjobschedules.next_run_date`/`time` in UTC (converted with "
                                            + "the server's UTC offset when read); null when Agent has not computed it")), 256),
                                    "its schedules; empty when it runs only on demand")), MAX_JOBS),
                            "every SQL Server Agent job (`msdb.dbo.sysjobs`, steps and schedules); null when not read"),
                    opt("jobRuns", listOf(object(
                            req("instanceId", new Int(1, Long.MAX_VALUE, "must be a positive instance_id (was %d)"),
                                    "`sysjobhistory.instance_id`"),
                            req("jobId", guid(), ""),
                            req("jobName", databaseName().notBlank(), "the name when read (a renamed job keeps its `jobId`)"),
                            req("stepId", integer(0, Integer.MAX_VALUE), "0 for the job's outcome, else the step"),
                            opt("stepName", databaseName(), ""),
                            req("status", oneOf("FAILED", "SUCCEEDED", "RETRY", "CANCELED", "IN_PROGRESS"),
                                    "`run_status` 0, 1, 2, 3, 4"),
                            req("startedAt", observed(), "UTC, from the local `run_date`/`run_time` and the server's UTC offset when read"),
                            req("durationSeconds", count(), "`run_duration`, which is packed as HHMMSS"),
                            opt("message", freeText(), "the message SQL Server Agent logged"),
                            opt("sqlMessageId", integer(0, Integer.MAX_VALUE), "`sql_message_id`; null when 0"),
                            opt("sqlSeverity", integer(0, Integer.MAX_VALUE), "`sql_severity`; null when 0")),
                            MAX_HISTORY_ROWS_PER_INSTANCE),
                            "`msdb.dbo.sysjobhistory` rows above the previous high-water mark; null when not read"),
                    opt("jobHistoryHighWaterMark", size(), "highest `sysjobhistory.instance_id` read so far"),
                    opt("commandLog", listOf(object(
                            req("id", new Int(1, Long.MAX_VALUE, "must be a positive CommandLog ID (was %d)"), "`CommandLog.ID`"),
                            opt("databaseName", databaseName(), ""),
                            req("commandType", text(60).notBlank(), "`BACKUP_DATABASE`, `BACKUP_LOG`"),
                            req("command", freeText().notBlank(), "the command as logged"),
                            req("startedAt", observed(), "UTC, from `StartTime` (local) and the server's UTC offset when read"),
                            opt("endedAt", observed(), "null while it runs or when it never finished"),
                            opt("algorithm", oneOf("MS_XPRESS", "QAT_DEFLATE", "ZSTD", "NONE"),
                                    "the command's `ALGORITHM =`; `NONE` for `NO_COMPRESSION`; null when it names none"),
                            opt("level", oneOf("LOW", "MEDIUM", "HIGH"), "the command's `LEVEL =`; null when it names none"),
                            opt("errorNumber", integer(Integer.MIN_VALUE, Integer.MAX_VALUE), "0 when it succeeded"))
                            .notBefore("endedAt", "startedAt", "ends before it starts"), MAX_HISTORY_ROWS_PER_INSTANCE),
                            "backup rows of Ola Hallengren's `dbo.CommandLog` above the previous high-water mark (empty without "
                            + "the table); null when not read"),
                    opt("commandLogHighWaterMark", size(), "highest `CommandLog.ID` read so far"),
                    opt("restores", listOf(object(
                            req("restoreHistoryId", new Int(1, Long.MAX_VALUE, "must be a positive restore_history_id (was %d)"),
                                    "`restorehistory.restore_history_id`"),
                            req("destinationDatabase", databaseName().notBlank(), ""),
                            req("restoredAt", observed(), "UTC, from the local `restore_date` and the server's UTC offset when read"),
                            opt("restoreType", oneOf("D", "F", "G", "I", "L", "V"),
                                    "D database, F file, G filegroup, I differential, L log, V verify only"),
                            opt("sourceServer", name(), "`backupset.server_name`: the server that took the backup"),
                            opt("sourceDatabase", databaseName(), ""),
                            opt("sourceDatabaseGuid", text(64), ""),
                            opt("familyGuid", text(64), "`backupset.family_guid`: the original database's identity"),
                            opt("backupFinishedAt", observed(), "UTC, with the backup set's `time_zone`"),
                            opt("backupType", oneOf("D", "I", "L", "F", "G", "P", "Q"), "")), MAX_HISTORY_ROWS_PER_INSTANCE),
                            "restores this instance performed (`msdb.dbo.restorehistory` + `backupset`) above the previous "
                            + "high-water mark; null when not read"),
                    opt("restoreHighWaterMark", size(), "highest `restore_history_id` read so far"),
                    opt("observedRestores", listOf(object(
                            opt("databaseName", databaseName(), "the database restored"),
                            req("command", oneOf("RESTORE DATABASE", "RESTORE LOG"), ""),
                            req("startedAt", observed(), "the request's `start_time`"),
                            req("lastSeenAt", observed(), "the last poll that saw it run"),
                            req("elapsedSeconds", count(), "`total_elapsed_time` at that poll"),
                            req("percentComplete", new Decimal(0, 100), "`percent_complete` at that poll"),
                            opt("cpu", cpu(), "what the polls saw it use"))
                            .notBefore("lastSeenAt", "startedAt", "last seen before it started"), MAX_LIST_ITEMS),
                            "RESTORE requests seen to run and end since the previous report (issue 30); null when running "
                            + "requests were not read")),
                    MAX_INSTANCES), "one snapshot per SQL Server instance probed in this cycle"),
            opt("probes", listOf(object(
                    req("name", name().notBlank(), "`host`, `qat`, `sqlserver:PROD/backup-history`, ..."),
                    req("ok", bool(), "\"found nothing\" is ok"),
                    req("durationMs", count(), ""),
                    opt("error", freeText(), "what went wrong, null when ok"),
                    opt("hint", freeText(), "what to do about it (e.g. the permission to grant)")), MAX_LIST_ITEMS),
                    "how each probe and query went this cycle; a failure is reported here, never fatal"));

    private ReportSchema() {
    }

    private static Obj object(Field... fields) {
        return new Obj(Arrays.asList(fields), List.of());
    }

    private static Field req(String name, Type type, String meaning) {
        return new Field(name, type, Presence.REQUIRED, meaning);
    }

    private static Field opt(String name, Type type, String meaning) {
        return new Field(name, type, Presence.OPTIONAL, meaning);
    }

    private static ListOf listOf(Type item, int maxItems) {
        return new ListOf(item, maxItems);
    }

    private static Text text(int maxChars) {
        return new Text(maxChars, false, List.of(), null, null);
    }

    private static Text name() {
        return text(NAME_CHARS);
    }

    private static Text databaseName() {
        return text(DATABASE_NAME_CHARS);
    }

    private static Text freeText() {
        return text(TEXT_CHARS);
    }

    private static Text pciId() {
        return new Text(9, true, List.of(), Pattern.compile("[0-9a-f]{4}:[0-9a-f]{4}"), "vendor:device in lower-case hex, e.g. 8086:4940");
    }

    /** An LSN: {@code numeric(25,0)} as its decimal digits, so that no JSON reader rounds it through a double. */
    private static Text lsn() {
        return new Text(LSN_DIGITS, true, List.of(), Pattern.compile("[0-9]{1," + LSN_DIGITS + "}"),
                "decimal digits, at most " + LSN_DIGITS + " (`numeric(25,0)`), as a JSON string");
    }

    /** {@code BackupCpu}: what the polls of a running backup or restore saw it use. */
    private static Obj cpu() {
        return object(
                opt("requestCpuMs", count(), "`sys.dm_exec_requests.cpu_time` at the last poll that saw the request"),
                opt("sessionCpuMs", count(), "growth of `sys.dm_exec_sessions.cpu_time` between the first and last poll"),
                req("samples", integer(1, Integer.MAX_VALUE), "polls that saw the request"),
                req("firstSampleAt", observed(), ""),
                req("lastSampleAt", observed(), ""),
                opt("processCpuMs", count(), "the SQL Server process's CPU over the run less its rate before it"),
                opt("processSamples", integer(0, Integer.MAX_VALUE), ""),
                opt("processReliable", bool(), "false when other work overlapped the run"),
                opt("processNote", freeText(), "why the process figure is unreliable or missing, or which baseline it "
                        + "used when no idle rate was measured before the run"))
                .notBefore("lastSampleAt", "firstSampleAt", "last sample before the first");
    }

    private static Text guid() {
        return text(64).notBlank();
    }

    private static Text oneOf(String... values) {
        return new Text(64, true, List.of(values), null, null);
    }

    private static Text oneOf(Enum<?>[] values) {
        return oneOf(Arrays.stream(values).map(Enum::name).toArray(String[]::new));
    }

    private static ListOf softwareItems() {
        return listOf(object(
                req("name", name().notBlank(), ""),
                opt("path", freeText(), "where it was found"),
                opt("version", name(), ""),
                opt("state", name(), "`loaded`, `running`, `enabled`, ...")), MAX_LIST_ITEMS);
    }

    private static Int integer(long min, long max) {
        return new Int(min, max, null);
    }

    /** A number of things or seconds: never negative. */
    private static Int count() {
        return integer(0, Long.MAX_VALUE);
    }

    /** A size in bytes: never negative. */
    private static Int size() {
        return integer(0, Long.MAX_VALUE);
    }

    private static Bool bool() {
        return new Bool();
    }

    private static Time observed() {
        return new Time(true);
    }

    /** Every field with its JSON path ({@code instances[].backups[].type}), depth first, in document order. */
    public static Map<String, Field> paths() {
        Map<String, Field> out = new LinkedHashMap<>();
        collect("", REPORT, out);
        return out;
    }

    private static void collect(String prefix, Obj obj, Map<String, Field> out) {
        for (Field f : obj.fields()) {
            String path = prefix + f.name();
            out.put(path, f);
            Type t = f.type();
            while (t instanceof ListOf list) {
                path += "[]";
                t = list.item();
            }
            if (t instanceof Obj nested) {
                collect(path + ".", nested, out);
            }
        }
    }

    /**
     * docs/protocol.md's field table: one row per field with its type, its rules and what it means. Generated, so
     * that the document cannot say what the validator does not check.
     */
    public static String markdownTable() {
        StringBuilder md = new StringBuilder();
        md.append("| field | type | rules | meaning |\n|---|---|---|---|\n");
        paths().forEach((path, f) -> md.append("| `").append(path).append("` | ").append(typeName(f))
                .append(" | ").append(rules(f)).append(" | ").append(f.meaning().isEmpty() ? "" : f.meaning())
                .append(" |\n"));
        return md.toString();
    }

    private static String typeName(Field f) {
        String name = typeName(f.type());
        return f.required() ? name : name + " or null";
    }

    private static String typeName(Type t) {
        if (t instanceof Obj) {
            return "object";
        }
        if (t instanceof ListOf l) {
            return "list of " + typeName(l.item());
        }
        if (t instanceof MapOf) {
            return "object of string to string";
        }
        if (t instanceof Text s) {
            return s.values().isEmpty() ? "string" : "enum";
        }
        if (t instanceof Int) {
            return "integer";
        }
        if (t instanceof Decimal) {
            return "number";
        }
        return t instanceof Bool ? "bool" : "instant";
    }

    private static String rules(Field f) {
        List<String> rules = new ArrayList<>();
        Type t = f.type();
        while (t instanceof ListOf list) {
            rules.add("at most " + thousands(list.maxItems()) + " items");
            t = list.item();
        }
        if (t instanceof Obj o) {
            o.order().forEach(n -> rules.add("`" + n.later() + "` not before `" + n.earlier() + "`"));
        } else if (t instanceof MapOf m) {
            rules.add("at most " + thousands(m.maxEntries()) + " entries; names " + m.key().patternRule()
                    + "; values 1 to " + m.value().maxChars() + " characters, " + m.value().patternRule());
        } else if (t instanceof Text s) {
            if (!s.values().isEmpty()) {
                rules.add("one of " + String.join(", ", s.values().stream().map(v -> "`" + v + "`").toList()));
            } else if (s.pattern() != null) {
                rules.add(s.patternRule());
            } else {
                rules.add("at most " + thousands(s.maxChars()) + " characters" + (s.nonBlank() ? ", not blank" : ""));
            }
        } else if (t instanceof Int i) {
            rules.add(range(i));
        } else if (t instanceof Decimal d) {
            rules.add(plain(d.min()) + " to " + plain(d.max()));
        } else if (t instanceof Time time) {
            rules.add(time.observed() ? "not before 1990, at most a day ahead" : "any");
        }
        return String.join("; ", rules);
    }

    private static String range(Int i) {
        if (i.min() == i.max()) {
            return "`" + i.min() + "`";
        }
        if (i.min() == Long.MIN_VALUE && i.max() == Long.MAX_VALUE) {
            return "any 64-bit integer";
        }
        if (i.max() == Long.MAX_VALUE) {
            return "≥ " + i.min();
        }
        if (i.max() == Integer.MAX_VALUE) {
            return "≥ " + i.min() + ", 32-bit";
        }
        return i.min() + " to " + i.max();
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String thousands(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
