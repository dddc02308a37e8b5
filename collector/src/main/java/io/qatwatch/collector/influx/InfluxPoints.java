package io.qatwatch.collector.influx;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.BackupKind;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.CpuEstimate;
import io.qatwatch.collector.compression.Judgement;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The InfluxDB points of docs/influxdb.md, as line protocol. Pure: the same inputs give the same lines,
 * so the sink, the dashboards' tests and the docs agree on one encoding.
 */
public final class InfluxPoints {

    public static final String BACKUP = "qatwatch_backup";
    public static final String WINDOW = "qatwatch_window";
    public static final String WINDOW_TREND = "qatwatch_window_trend";
    public static final String RUNNING_BACKUP = "qatwatch_running_backup";
    public static final String ACCELERATOR = "qatwatch_accelerator";
    public static final String HOST = "qatwatch_host";
    public static final String AGENT = "qatwatch_agent";
    public static final String ALERT = "qatwatch_alert";
    public static final String COMPRESSION = "qatwatch_compression";
    public static final String RESTORE = "qatwatch_restore";

    /** msdb {@code backupset.type} letters to the {@code type} tag. */
    static final Map<String, String> BACKUP_TYPES = Map.of("D", "full", "I", "diff", "L", "log", "F", "file",
            "G", "file_diff", "P", "partial", "Q", "partial_diff");

    /** SQL Server's "MB/sec" (BACKUP's own message) is in 2^20 bytes. */
    private static final double MB = 1024 * 1024;
    /** The GB of CPU seconds per GB, as the compression verdicts count it: 2^30 bytes of {@code backup_size}. */
    private static final double GB = 1024 * MB;

    private InfluxPoints() {
    }

    /**
     * Every point one accepted report yields: its backups, running backups, observed restores and accelerator state
     * per instance, the host facts when the report carries them, and the agent's health.
     *
     * @param host       the agent token's name (never a field of the report)
     * @param group      the host's group in the alert configuration, or null
     * @param receivedAt when the collector accepted the report (for {@code report_lag_seconds})
     */
    public static List<String> lines(String host, String group, AgentReport report, Instant receivedAt) {
        List<String> lines = new ArrayList<>();
        for (SqlInstanceSnapshot instance : report.instances()) {
            if (instance.backups() != null) {
                for (BackupRecord b : instance.backups()) {
                    add(lines, backup(host, group, instance.name(), b));
                }
            }
            Instant at = instance.collectedAt() != null ? instance.collectedAt() : report.createdAt();
            if (instance.runningBackups() != null) {
                for (RunningBackup r : instance.runningBackups()) {
                    add(lines, runningBackup(host, group, instance.name(), r, at));
                }
            }
            if (instance.observedRestores() != null) {
                for (ObservedRestore r : instance.observedRestores()) {
                    add(lines, restore(host, group, instance.name(), r));
                }
            }
            if (instance.accelerators() != null) {
                for (AcceleratorStatus a : instance.accelerators()) {
                    add(lines, accelerator(host, group, instance.name(), a, at));
                }
            }
        }
        if (report.host() != null || report.qat() != null || report.licence() != null) {
            add(lines, host(host, group, report));
        }
        add(lines, agent(host, group, report, receivedAt));
        return lines;
    }

    /** One finished backup, stamped with its finish. */
    public static String backup(String host, String group, String instance, BackupRecord b) {
        double durationSeconds = Duration.between(b.startedAt(), b.finishedAt()).toMillis() / 1000.0;
        long compressed = compressedBytes(b);
        double ratio = compressed > 0 ? (double) b.backupSizeBytes() / compressed : 1.0;
        Long cpuMillis = CpuEstimate.millis(b);
        LineProtocol p = kindTags(LineProtocol.point(BACKUP)
                .tag("host", host).tag("group", group).tag("instance", instance)
                .tag("database", b.databaseName()), b, compressed)
                // key_algorithm is NO_Encryption, not null, for an unencrypted backup (backupset page)
                .tag("encrypted", Boolean.toString(b.encrypted()))
                .tag("copy_only", Boolean.toString(b.copyOnly()))
                .tag("snapshot", Boolean.toString(b.sizeIsEstimate()))
                .floatField("duration_seconds", durationSeconds)
                .intField("size_bytes", b.backupSizeBytes())
                .intField("compressed_bytes", compressed)
                // a snapshot (VSS) backup's size is an estimate: no ratio or throughput to chart or compare
                .floatField("ratio", b.sizeIsEstimate() ? null : ratio)
                .floatField("throughput_mbps", durationSeconds > 0 && !b.sizeIsEstimate() ? b.backupSizeBytes() / MB / durationSeconds : null)
                .intField("backup_set_id", b.backupSetId())
                // issue 30: the whole run's CPU as the verdicts weigh it, and the agent's two signals it comes from
                .intField("cpu_ms", cpuMillis)
                .floatField("cpu_seconds_per_gb", cpuMillis == null || b.sizeIsEstimate() || b.backupSizeBytes() <= 0 ? null
                        : cpuMillis / 1000.0 / (b.backupSizeBytes() / GB));
        return cpuSignals(p, b.cpu()).at(b.finishedAt());
    }

    /** The agent's CPU signals of one backup or restore, as it sent them; nothing when no poll saw it run. */
    private static LineProtocol cpuSignals(LineProtocol p, BackupCpu cpu) {
        if (cpu == null) {
            return p;
        }
        return p.intField("request_cpu_ms", cpu.requestCpuMs())
                .intField("session_cpu_ms", cpu.sessionCpuMs())
                .intField("cpu_samples", cpu.samples())
                .intField("process_cpu_ms", cpu.processCpuMs())
                .intField("process_samples", cpu.processSamples() == null ? null : cpu.processSamples().longValue())
                .boolField("process_reliable", cpu.processReliable());
    }

    /**
     * A RESTORE request the agent's polls saw run and end (issue 30), stamped with the last poll that saw it (to the
     * millisecond, as the store keeps it): msdb records no restore duration, so this is the restore's speed and CPU as
     * observed.
     */
    public static String restore(String host, String group, String instance, ObservedRestore r) {
        LineProtocol p = LineProtocol.point(RESTORE)
                .tag("host", host).tag("group", group).tag("instance", instance)
                .tag("database", r.databaseName()).tag("command", r.command())
                .intField("started_seconds", r.startedAt() == null ? null : r.startedAt().getEpochSecond())
                .floatField("elapsed_seconds", (double) r.elapsedSeconds())
                .floatField("percent_complete", r.percentComplete());
        return cpuSignals(p, r.cpu()).at(r.lastSeenAt().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * The backup set an observed restore restored, once the collector matched it (msdb's {@code restorehistory}, in the
     * same report as the restore or a later one): at the restore's time, with its tags plus the backup's {@code type},
     * {@code algorithm} and {@code target} as {@code qatwatch_backup} spells them, so a new series. It carries only the
     * backup's fields and the speed, none of {@link #restore}'s: no aggregate counts a restore twice. Null when unmatched.
     */
    public static String restoredBackup(String host, String group, RestoreObservation r) {
        if (r.restoredBackup() == null) {
            return null;
        }
        BackupRecord b = r.restoredBackup().backup();
        long compressed = compressedBytes(b);
        return kindTags(LineProtocol.point(RESTORE)
                .tag("host", host).tag("group", group).tag("instance", r.instance())
                .tag("database", r.databaseName()).tag("command", r.command()), b, compressed)
                .intField("size_bytes", b.backupSizeBytes())
                .intField("compressed_bytes", compressed)
                .floatField("duration_seconds", r.durationSeconds())
                .floatField("throughput_mbps", r.mbps())
                .intField("backup_set_id", b.backupSetId())
                .at(r.lastSeenAt());
    }

    /** The bytes a backup wrote: its compressed size, or its size when msdb records none. */
    private static long compressedBytes(BackupRecord b) {
        return b.compressedSizeBytes() == null ? b.backupSizeBytes() : b.compressedSizeBytes();
    }

    /** The tags that say which backup {@code b} is: its type, algorithm and target, spelled alike on every point. */
    private static LineProtocol kindTags(LineProtocol p, BackupRecord b, long compressed) {
        return p.tag("type", BACKUP_TYPES.get(b.type()))
                .tag("algorithm", algorithm(b, compressed))
                .tag("target", b.target() == null ? null : b.target().toUpperCase(Locale.ROOT));
    }

    /**
     * The algorithm tag: msdb's {@code compression_algorithm} (SQL Server 2022+); {@code NONE} when the backup
     * is not smaller than its data; {@code MS_XPRESS} for a compressed backup from a server too old to say
     * (the only algorithm before 2022).
     */
    static String algorithm(BackupRecord b, long compressed) {
        if (compressed >= b.backupSizeBytes()) {
            return "NONE";
        }
        if (b.compressionAlgorithm() == null || b.compressionAlgorithm().isBlank()) {
            return "MS_XPRESS";
        }
        return b.compressionAlgorithm().trim().toUpperCase(Locale.ROOT);
    }

    /** A backup running when the instance was read. */
    public static String runningBackup(String host, String group, String instance, RunningBackup r, Instant at) {
        return LineProtocol.point(RUNNING_BACKUP)
                .tag("host", host).tag("group", group).tag("instance", instance)
                .tag("database", r.databaseName()).tag("command", r.command())
                .floatField("percent_complete", r.percentComplete())
                .floatField("elapsed_seconds", (double) r.elapsedSeconds())
                .floatField("estimated_remaining_seconds",
                        r.estimatedRemainingSeconds() == null ? null : r.estimatedRemainingSeconds().doubleValue())
                .at(at);
    }

    /** One {@code sys.dm_server_accelerator_status} row. */
    public static String accelerator(String host, String group, String instance, AcceleratorStatus a, Instant at) {
        String mode = a.modeDesc() == null ? null : a.modeDesc().trim().toUpperCase(Locale.ROOT);
        long modeCode = "HARDWARE".equals(mode) ? 2 : "SOFTWARE".equals(mode) ? 1 : 0;
        return LineProtocol.point(ACCELERATOR)
                .tag("host", host).tag("group", group).tag("instance", instance)
                .tag("accelerator", a.accelerator()).tag("mode", mode).tag("reason", a.modeReasonDesc())
                .intField("mode_code", modeCode)
                .boolField("hardware_detected", a.hardwareDetected())
                .stringField("library_version", a.libraryVersion())
                .stringField("driver_version", a.driverVersion())
                .at(at);
    }

    /** Host, QAT and licence facts of a report that carries them. */
    public static String host(String host, String group, AgentReport report) {
        var facts = report.host();
        var qat = report.qat();
        var licence = report.licence();
        LineProtocol p = LineProtocol.point(HOST).tag("host", host).tag("group", group);
        if (facts != null) {
            p.tag("cpu_vendor", facts.cpu() == null ? null : facts.cpu().vendor())
                    .tag("virtualization", facts.virtualization() == null ? "none" : facts.virtualization())
                    .stringField("cpu_model", facts.cpu() == null ? null : facts.cpu().model());
        }
        if (qat != null) {
            p.intField("qat_devices", qat.devices().size())
                    .intField("qat_devices_up", qat.devices().stream().filter(InfluxPoints::isUp).count())
                    .boolField("compression_ready", qat.compressionReady());
        }
        if (licence != null) {
            p.tag("licence_verdict", licence.verdict().name())
                    .boolField("qat_software_installed", licence.qatSoftwareInstalled())
                    .intField("intel_components", licence.intelComponents().size());
        }
        return p.at(report.createdAt());
    }

    /** Up where the kernel says so (Gen4+ sysfs); bound to a driver where it exposes no state (older, Windows). */
    static boolean isUp(QatDevice d) {
        return d.state() == null ? d.driver() != null : "up".equalsIgnoreCase(d.state());
    }

    /** The agent's own health, one point per report. */
    public static String agent(String host, String group, AgentReport report, Instant receivedAt) {
        List<ProbeStatus> probes = report.probes();
        return LineProtocol.point(AGENT)
                .tag("host", host).tag("group", group).tag("version", report.agent().version())
                .intField("uptime_seconds", report.agent().uptimeSeconds())
                .intField("outbox_depth", report.agent().outboxDepth())
                .intField("outbox_dropped_total", report.agent().outboxDroppedTotal())
                .intField("outbox_corrupt_total", report.agent().outboxCorruptTotal())
                .intField("probes_total", probes.size())
                .intField("probes_failed", probes.stream().filter(s -> !s.ok()).count())
                .floatField("report_lag_seconds", Duration.between(report.createdAt(), receivedAt).toMillis() / 1000.0)
                .at(report.createdAt());
    }

    /**
     * One nightly backup window, stamped with its first start. Margin is the next business start minus the
     * window's end; negative is a breach.
     */
    public static String window(String host, String group, String instance, String calendar, Instant start,
            Instant end, Instant businessStart, int backups) {
        double margin = Duration.between(end, businessStart).toMillis() / 1000.0;
        return LineProtocol.point(WINDOW)
                .tag("host", host).tag("group", group).tag("instance", instance).tag("calendar", calendar)
                .intField("start_seconds", start.getEpochSecond())
                .intField("end_seconds", end.getEpochSecond())
                .floatField("duration_seconds", Duration.between(start, end).toMillis() / 1000.0)
                .floatField("margin_seconds", margin)
                .intField("business_start_seconds", businessStart.getEpochSecond())
                .intField("backups", backups)
                .boolField("breach", margin < 0)
                .at(start);
    }

    /**
     * The creep trend of one instance's margins over one kind of night at {@code evaluatedAt}. An instance with
     * weekly fulls and nightly differentials has a trend of each kind at the same time; the {@code kind} tag
     * keeps them two series.
     *
     * @param daysToSafetyMargin null when the margin is not approaching the safety margin
     * @param forecast           the projected crossing, null when none
     */
    public static String windowTrend(String host, String group, String instance, NightKind kind, Instant evaluatedAt,
            double slopeMinutesPerDay, int nights, Double daysToSafetyMargin, Instant forecast) {
        return LineProtocol.point(WINDOW_TREND)
                .tag("host", host).tag("group", group).tag("instance", instance).tag("kind", kindTag(kind))
                .floatField("slope_minutes_per_day", slopeMinutesPerDay)
                .intField("nights", nights)
                .floatField("days_to_safety_margin", daysToSafetyMargin)
                .intField("forecast_seconds", forecast == null ? null : forecast.getEpochSecond())
                .at(evaluatedAt);
    }

    /** {@code full} or {@code differential}, as the creep alert's subject spells the kind of night. */
    public static String kindTag(NightKind kind) {
        return kind == null ? null : kind.name().toLowerCase(Locale.ROOT);
    }

    /**
     * An alert that fired, changed or resolved at {@code at}. Tagged with its id (and subject), so two alerts
     * of one rule at one place (the creep of the full nights and of the differential nights) stay two series.
     */
    public static String alert(Alert alert, String group, boolean active, Instant at) {
        return LineProtocol.point(ALERT)
                .tag("host", alert.host()).tag("group", group).tag("instance", alert.instance())
                .tag("database", alert.database()).tag("rule", alert.rule()).tag("subject", alert.subject())
                .tag("severity", alert.severity().label()).tag("alert_id", alert.id())
                .intField("active", active ? 1 : 0)
                .stringField("summary", alert.summary())
                .at(at);
    }

    /**
     * One method of one compression comparison at {@code evaluatedAt}: its verdict against the row's baseline (or
     * SINGLE_ALGORITHM when the row has one method), with both sides' medians.
     */
    public static String compression(String host, String group, String instance, Comparison c, Comparison.Entry e,
            Instant evaluatedAt) {
        AlgorithmStats s = e.stats();
        AlgorithmStats base = c.stats(c.baseline()).orElse(s);
        Judgement j = e.judgement();
        return LineProtocol.point(COMPRESSION)
                .tag("host", host).tag("group", group).tag("instance", instance).tag("database", c.database())
                .tag("type", c.kind() == BackupKind.FULL ? "full" : "diff")
                .tag("target", c.target())
                .tag("tde", c.tde() == null ? null : c.tde().toString())
                .tag("backup_encrypted", Boolean.toString(c.backupEncrypted()))
                .tag("algorithm", s.method().algorithm()).tag("level", s.method().level()).tag("mode", s.method().mode())
                .tag("baseline", c.baseline().label())
                .stringField("verdict", j == null ? c.verdict().name() : j.verdict().name())
                .floatField("speed_gain_percent", j == null ? null : j.speedGainPercent())
                .floatField("size_gain_percent", j == null ? null : j.sizeGainPercent())
                .floatField("cpu_gain_percent", j == null ? null : j.cpuGainPercent())
                .intField("backups", s.backups())
                .intField("baseline_backups", base.backups())
                .floatField("median_seconds", s.seconds().median())
                .floatField("median_mbps", s.mbps().median())
                .floatField("median_ratio", s.ratio().median())
                .floatField("baseline_median_mbps", base.mbps().median())
                .floatField("baseline_median_ratio", base.ratio().median())
                .intField("cpu_backups", s.cpuBackups())
                .floatField("median_cpu_seconds_per_gb", s.cpuSecondsPerGb() == null ? null : s.cpuSecondsPerGb().median())
                .at(evaluatedAt);
    }

    private static void add(List<String> lines, String line) {
        if (line != null) {
            lines.add(line);
        }
    }
}
