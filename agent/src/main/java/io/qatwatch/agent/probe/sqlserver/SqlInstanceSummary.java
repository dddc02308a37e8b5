package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.stream.Collectors;

/**
 * The text {@code qatwatch probe --sql} prints for one instance: what it is, how QAT and backup compression
 * are set, and a per-database table comparing compression algorithms the way a DBA compares test backups
 * (runtime, compression ratio, throughput), then every query that failed with what to grant. Pure.
 */
public final class SqlInstanceSummary {

    /**
     * One line of the comparison: the backups of one database, of one type, with one algorithm. Snapshot (VSS) backups
     * are their own line, {@code snapshot}, without ratio or throughput: their backup_size is an estimate.
     */
    public record AlgorithmRow(String database, String type, String algorithm, int backups, double medianSeconds,
            Double medianRatio, Double medianMbPerSecond) {
    }

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    private static final double MIB = 1024.0 * 1024.0;

    /** What each documented {@code mode_reason_desc} means, in a DBA's words. */
    private static final Map<String, String> MODE_REASONS = Map.ofEntries(
            Map.entry("NONE_HARDWARE_OFFLOAD_NOT_ENABLED", "'hardware offload enabled' is 0"),
            Map.entry("NONE_HARDWARE_OFFLOAD_LINUX_NOT_SUPPORTED", "QAT offload is not supported on Linux"),
            Map.entry("NONE_ACCELERATOR_CONFIG_NOT_ENABLED", "offload is on but QAT is not: ALTER SERVER CONFIGURATION SET HARDWARE_OFFLOAD = ON (ACCELERATOR = QAT), then restart"),
            Map.entry("NONE_ACCELERATOR_LOAD_FAILED", "qatzip.dll failed to load"),
            Map.entry("NONE_ACCELERATOR_PROC_FAILED", "qatzip.dll loaded but its entry points were not found"),
            Map.entry("NONE_ACCELERATOR_VERSION_NOT_COMPATIBLE", "the installed qatzip.dll / isa-l.dll versions are not compatible"),
            Map.entry("NONE_ACCELERATOR_INITIALIZATION_FAILED", "the QAT accelerator failed to initialise"),
            Map.entry("NONE_ACCELERATOR_SESSION_FAILED", "a QAT session could not be set up"),
            Map.entry("NONE_ACCELERATOR_LIBRARY_NOT_FOUND", "qatzip.dll or isa-l.dll is not installed"),
            Map.entry("SOFTWARE_MODE_NON_ENTERPRISE_SKU", "software only: this edition never offloads to QAT hardware"),
            Map.entry("SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND", "software: no QAT device or driver was found"),
            Map.entry("SOFTWARE_MODE_SOFTWARE_FORCE_OVERRIDE", "software, forced with MODE = SOFTWARE"),
            Map.entry("HARDWARE_MODE_ENTERPRISE_SKU", "QAT hardware, with software fallback"));

    private SqlInstanceSummary() {
    }

    /** The whole text for one instance. */
    public static String render(SqlInstanceSnapshot s, List<ProbeStatus> probes) {
        StringBuilder out = new StringBuilder();
        var server = s.server();
        if (server == null) {
            out.append("SQL Server ").append(s.name()).append(": not read\n");
        } else {
            out.append("SQL Server ").append(s.name()).append(": ").append(server.serverName())
                    .append(" on ").append(server.machineName()).append(", ").append(server.productVersion())
                    .append(" (").append(releaseName(server.majorVersion())).append("), ").append(server.edition()).append('\n');
            out.append("  Always On availability groups: ").append(Boolean.TRUE.equals(server.hadrEnabled()) ? "enabled" : "off").append('\n');
        }
        if (s.accelerators() != null) {
            if (s.accelerators().isEmpty()) {
                out.append("  QAT accelerator: none (needs SQL Server 2022 or later)\n");
            }
            for (AcceleratorStatus a : s.accelerators()) {
                out.append("  ").append(a.accelerator()).append(" accelerator: ").append(a.modeDesc())
                        .append(" (").append(a.modeReasonDesc());
                String why = MODE_REASONS.get(a.modeReasonDesc());
                if (why != null) {
                    out.append(": ").append(why);
                }
                out.append("), hardware ").append(Boolean.TRUE.equals(a.hardwareDetected()) ? "detected" : "not detected")
                        .append(", QATzip ").append(orDash(a.libraryVersion())).append(", driver ").append(orDash(a.driverVersion())).append('\n');
            }
        }
        if (s.configuration() != null && !s.configuration().isEmpty()) {
            out.append("  Configuration:\n");
            for (ConfigOption c : s.configuration()) {
                out.append(String.format(Locale.ROOT, "    %-30s %s", c.name(), configValue(c.name(), c.value())));
                if (c.value() != c.valueInUse()) {
                    out.append(" (in use: ").append(configValue(c.name(), c.valueInUse())).append(": pending RECONFIGURE or restart)");
                }
                out.append('\n');
            }
        }
        if (s.databases() != null) {
            out.append("  Databases: ").append(s.databases().size());
            List<String> tde = s.databases().stream().filter(d -> "ENCRYPTED".equals(d.encryptionState())).map(DatabaseInfo::name).toList();
            if (!tde.isEmpty()) {
                out.append("; TDE: ").append(String.join(", ", tde));
            }
            for (DatabaseInfo d : s.databases()) {
                if (d.availabilityGroup() != null) {
                    out.append("; ").append(d.name()).append(" in ").append(d.availabilityGroup()).append(" as ").append(d.replicaRole())
                            .append(Boolean.TRUE.equals(d.preferredBackupReplica()) ? " (preferred backup replica)" : " (not the preferred backup replica)");
                }
            }
            out.append('\n');
        }
        if (s.runningBackups() != null) {
            List<String> hidden = s.runningBackupsHiddenFor() == null ? List.of() : s.runningBackupsHiddenFor();
            if (s.runningBackups().isEmpty()) {
                out.append(hidden.isEmpty() ? "  Running backups: none\n" : "  Running backups: none visible\n");
            }
            if (!hidden.isEmpty()) {
                out.append("  Running backups of ").append(String.join(", ", hidden))
                        .append(": unknown (availability-group secondary; on a read-intent-only replica sys.dm_exec_requests hides them "
                                + "unless the JDBC URL says applicationIntent=ReadOnly)\n");
            }
            for (RunningBackup r : s.runningBackups()) {
                out.append("  Running: ").append(r.databaseName()).append(' ').append(r.command())
                        .append(String.format(Locale.ROOT, " %.1f%%", r.percentComplete()))
                        .append(" after ").append(runtime(r.elapsedSeconds()));
                if (r.estimatedRemainingSeconds() != null) {
                    // estimated_completion_time is "Internal only": the raw value is shown with the millisecond reading
                    out.append(", estimated_completion_time ").append(r.estimatedCompletionTimeRaw() == null ? "?" : r.estimatedCompletionTimeRaw())
                            .append(" (").append(runtime(r.estimatedRemainingSeconds())).append(" left if milliseconds; units undocumented)");
                }
                out.append('\n');
            }
        }
        if (s.certificates() != null) {
            for (CertificateInfo c : s.certificates()) {
                out.append("  Certificate ").append(c.name()).append(": expires ")
                        .append(c.expiresAt() == null ? "-" : DAY.format(c.expiresAt()))
                        .append(", private key ").append(c.privateKeyLastBackupAt() == null ? "NEVER backed up"
                                : "backed up " + DAY.format(c.privateKeyLastBackupAt()))
                        .append(c.usedForBackupEncryption() ? ", encrypts backups" : "").append('\n');
            }
        }
        agentJobs(s, out);
        if (s.backups() != null) {
            out.append('\n').append(comparisonTable(compare(s.backups())));
        }
        List<ProbeStatus> failed = probes.stream().filter(p -> !p.ok()).toList();
        if (!failed.isEmpty()) {
            out.append("\nNot read:\n");
            for (ProbeStatus p : failed) {
                out.append("  ").append(p.name()).append(": ").append(p.error()).append('\n');
                if (p.hint() != null) {
                    out.append("    -> ").append(p.hint()).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** SQL Server Agent's backup jobs, the job runs that did not succeed, and the newest CommandLog backup and restore. */
    private static void agentJobs(SqlInstanceSnapshot s, StringBuilder out) {
        if (SqlInstanceSnapshot.JOBS_NO_AGENT.equals(s.jobsStatus())) {
            out.append("  SQL Server Agent: not available (Express, or 'Agent XPs' off: Linux without sqlagent.enabled, or the service stopped)\n");
        } else if (SqlInstanceSnapshot.JOBS_NO_PERMISSION.equals(s.jobsStatus())) {
            out.append("  SQL Server Agent: jobs not readable by this login (see Not read)\n");
        }
        if (s.jobs() != null) {
            List<SqlInstanceSnapshot.AgentJob> backupJobs = s.jobs().stream().filter(SqlInstanceSnapshot.AgentJob::backupJob).toList();
            out.append("  SQL Server Agent: ").append(s.jobs().size()).append(s.jobs().size() == 1 ? " job, " : " jobs, ")
                    .append(backupJobs.size()).append(" backing up\n");
            for (SqlInstanceSnapshot.AgentJob j : backupJobs) {
                out.append("    ").append(j.name()).append(" (").append(j.kind())
                        .append(j.backupTypes().isEmpty() ? "" : ", " + String.join("/", j.backupTypes()))
                        .append(j.databases().isEmpty() ? "" : ", " + String.join(", ", j.databases()))
                        .append(j.enabled() ? "" : ", disabled").append(')');
                j.schedules().stream().filter(SqlInstanceSnapshot.JobSchedule::enabled).findFirst()
                        .ifPresent(sch -> out.append(" starts ").append(sch.activeStartTime()).append(" server time"));
                out.append('\n');
            }
        }
        if (s.jobRuns() != null) {
            for (SqlInstanceSnapshot.JobRun r : s.jobRuns()) {
                if (r.stepId() == 0 || r.status().equals("SUCCEEDED") || r.status().equals("IN_PROGRESS")) {
                    continue;
                }
                String message = r.message() == null ? "" : r.message();
                out.append("  Job run ").append(r.status()).append(": ").append(r.jobName()).append(" step ").append(r.stepId())
                        .append(" at ").append(MINUTE.format(r.startedAt())).append(" UTC")
                        .append(r.sqlMessageId() == null ? "" : " (Msg " + r.sqlMessageId() + ")").append('\n');
                if (!message.isEmpty()) {
                    // Agent writes the error near the end of a step's message
                    out.append("    ").append(message.length() > 300 ? "..." + message.substring(message.length() - 300) : message).append('\n');
                }
            }
        }
        if (s.commandLog() != null && !s.commandLog().isEmpty()) {
            SqlInstanceSnapshot.CommandLogEntry last = s.commandLog().get(s.commandLog().size() - 1);
            out.append("  CommandLog: ").append(s.commandLog().size()).append(" backup commands; newest ")
                    .append(last.databaseName()).append(' ').append(last.commandType())
                    .append(last.algorithm() == null ? "" : " " + last.algorithm())
                    .append(last.level() == null ? "" : " LEVEL = " + last.level())
                    .append(last.errorNumber() == null || last.errorNumber() == 0 ? "" : " (error " + last.errorNumber() + ")").append('\n');
        }
        if (s.restores() != null && !s.restores().isEmpty()) {
            SqlInstanceSnapshot.RestoreRecord last = s.restores().get(s.restores().size() - 1);
            out.append("  Restores: ").append(s.restores().size()).append("; newest ").append(last.destinationDatabase())
                    .append(" from ").append(last.sourceServer()).append('/').append(last.sourceDatabase())
                    .append(" at ").append(MINUTE.format(last.restoredAt())).append(" UTC\n");
        }
    }

    /** Groups backups by database, type and algorithm, with medians; backups without a usable duration count but are not timed. */
    public static List<AlgorithmRow> compare(List<BackupRecord> backups) {
        Map<List<String>, List<BackupRecord>> groups = backups.stream().collect(Collectors.groupingBy(
                b -> List.of(b.databaseName(), b.type(), b.sizeIsEstimate() ? "snapshot" : algorithm(b)), LinkedHashMap::new, Collectors.toList()));
        List<AlgorithmRow> rows = new ArrayList<>();
        groups.forEach((key, list) -> {
            List<Double> seconds = new ArrayList<>();
            List<Double> mbps = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            for (BackupRecord b : list) {
                double s = Duration.between(b.startedAt(), b.finishedAt()).toMillis() / 1000.0;
                seconds.add(s);
                if (b.sizeIsEstimate()) {
                    continue;
                }
                if (s > 0) {
                    mbps.add(b.backupSizeBytes() / MIB / s);
                }
                if (b.compressedSizeBytes() != null && b.compressedSizeBytes() > 0) {
                    ratios.add((double) b.backupSizeBytes() / b.compressedSizeBytes());
                }
            }
            rows.add(new AlgorithmRow(key.get(0), key.get(1), key.get(2), list.size(), median(seconds),
                    ratios.isEmpty() ? null : median(ratios), mbps.isEmpty() ? null : median(mbps)));
        });
        rows.sort(Comparator.comparing(AlgorithmRow::database).thenComparing(r -> typeOrder(r.type())).thenComparing(AlgorithmRow::algorithm));
        return rows;
    }

    /** The comparison as a text table; MB are 2^20 bytes, as in SQL Server's own "MB/sec" backup message. */
    public static String comparisonTable(List<AlgorithmRow> rows) {
        if (rows.isEmpty()) {
            return "Backups: none in this read\n";
        }
        int db = Math.max("Database".length(), rows.stream().mapToInt(r -> r.database().length()).max().orElse(0));
        String format = "%-" + db + "s  %-12s  %-12s  %7s  %14s  %6s  %8s%n";
        StringBuilder out = new StringBuilder("Backups by database and compression algorithm\n");
        out.append(String.format(Locale.ROOT, format, "Database", "Type", "Algorithm", "Backups", "Median runtime", "Ratio", "MB/s"));
        for (AlgorithmRow r : rows) {
            out.append(String.format(Locale.ROOT, format, r.database(), typeName(r.type()), r.algorithm(), r.backups(),
                    runtime(r.medianSeconds()), r.medianRatio() == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.medianRatio()),
                    r.medianMbPerSecond() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.medianMbPerSecond())));
        }
        return out.toString();
    }

    private static String algorithm(BackupRecord b) {
        if (b.compressedSizeBytes() != null && b.compressedSizeBytes() >= b.backupSizeBytes()) {
            return "none";
        }
        return b.compressionAlgorithm() == null ? "none" : b.compressionAlgorithm();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static String runtime(double seconds) {
        if (seconds >= 3600) {
            long s = Math.round(seconds);
            return String.format(Locale.ROOT, "%dh %02dm %02ds", s / 3600, s / 60 % 60, s % 60);
        }
        if (seconds >= 60) {
            int minutes = (int) (seconds / 60);
            return String.format(Locale.ROOT, "%dm %04.1fs", minutes, seconds - minutes * 60);
        }
        return String.format(Locale.ROOT, "%.1fs", seconds);
    }

    private static String typeName(String type) {
        return switch (type) {
            case "D" -> "full";
            case "I" -> "differential";
            case "L" -> "log";
            case "F" -> "file";
            case "G" -> "file diff";
            case "P" -> "partial";
            case "Q" -> "partial diff";
            default -> type;
        };
    }

    private static int typeOrder(String type) {
        return "DIPQFGL".indexOf(type);
    }

    /**
     * A configuration value as the documentation names it: 'backup compression algorithm' 0 is "backup compression is
     * off, as specified by backup compression default", not MS_XPRESS; 'hardware offload config' and 'hardware offload
     * mode' have no documented values, so they are shown raw and said to be so.
     */
    static String configValue(String name, long value) {
        if (name.equals("backup compression algorithm")) {
            String algorithm = switch ((int) value) {
                case 0 -> "none set: compression as 'backup compression default' says";
                case 1 -> "MS_XPRESS";
                case 2 -> "QAT_DEFLATE";
                case 3 -> "ZSTD";
                default -> "undocumented value";
            };
            return value + " (" + algorithm + ")";
        }
        if (name.equals("hardware offload config") || name.equals("hardware offload mode")) {
            return value + " (raw: no documented meaning)";
        }
        return Long.toString(value);
    }

    private static String releaseName(Integer major) {
        if (major == null) {
            return "version unknown";
        }
        return switch (major) {
            case 13 -> "SQL Server 2016";
            case 14 -> "SQL Server 2017";
            case 15 -> "SQL Server 2019";
            case 16 -> "SQL Server 2022";
            case 17 -> "SQL Server 2025";
            default -> "major version " + major;
        };
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }
}
