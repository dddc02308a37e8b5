package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.compression.VerdictThresholds;
import io.qatwatch.collector.window.CreepSettings;
import java.util.List;

/** Every rule's switch, severity and thresholds; unset keys take the defaults documented in docs/alerts.md. */
public record RulesConfig(
        Breach backupWindowBreach,
        SpillForecast backupWindowSpillForecast,
        Creep backupWindowCreep,
        Missing backupMissing,
        ThroughputDrop backupThroughputDrop,
        Basic qatFallback,
        QatConfigMismatch qatConfigMismatch,
        QatRestoreRisk qatRestoreRisk,
        LicenceRisk licenceRisk,
        CertKey certKeyNotBackedUp,
        AgentSilent agentSilent,
        QatChange qatChange,
        QatVersionDrift qatVersionDrift,
        Basic qatSoftwareMissing,
        VerdictThresholds compressionVerdicts,
        Info qatNoGain,
        Info compressionWorthTrying,
        JobFailed backupJobFailed,
        UrlSizeCeiling backupUrlSizeCeiling,
        RestoreUntested restoreUntested,
        Critical logChainBroken,
        Basic differentialBaseMissing,
        Info agFailover,
        Off restoreTimeOverGoal) {

    /** All defaults. */
    public static final RulesConfig DEFAULTS = new RulesConfig(null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** The rules of issue 31, restore-time-over-goal (issue 30) at its default. */
    public RulesConfig(Breach backupWindowBreach, SpillForecast backupWindowSpillForecast, Creep backupWindowCreep,
            Missing backupMissing, ThroughputDrop backupThroughputDrop, Basic qatFallback, QatConfigMismatch qatConfigMismatch,
            QatRestoreRisk qatRestoreRisk, LicenceRisk licenceRisk, CertKey certKeyNotBackedUp, AgentSilent agentSilent,
            QatChange qatChange, QatVersionDrift qatVersionDrift, Basic qatSoftwareMissing,
            VerdictThresholds compressionVerdicts, Info qatNoGain, Info compressionWorthTrying, JobFailed backupJobFailed,
            UrlSizeCeiling backupUrlSizeCeiling, RestoreUntested restoreUntested, Critical logChainBroken,
            Basic differentialBaseMissing, Info agFailover) {
        this(backupWindowBreach, backupWindowSpillForecast, backupWindowCreep, backupMissing, backupThroughputDrop, qatFallback,
                qatConfigMismatch, qatRestoreRisk, licenceRisk, certKeyNotBackedUp, agentSilent, qatChange, qatVersionDrift,
                qatSoftwareMissing, compressionVerdicts, qatNoGain, compressionWorthTrying, backupJobFailed, backupUrlSizeCeiling,
                restoreUntested, logChainBroken, differentialBaseMissing, agFailover, null);
    }

    /** The rules before issue 31, the others at their defaults. */
    public RulesConfig(Breach backupWindowBreach, SpillForecast backupWindowSpillForecast, Creep backupWindowCreep,
            Missing backupMissing, ThroughputDrop backupThroughputDrop, Basic qatFallback, QatConfigMismatch qatConfigMismatch,
            QatRestoreRisk qatRestoreRisk, LicenceRisk licenceRisk, CertKey certKeyNotBackedUp, AgentSilent agentSilent,
            QatChange qatChange, QatVersionDrift qatVersionDrift, Basic qatSoftwareMissing,
            VerdictThresholds compressionVerdicts, Info qatNoGain, Info compressionWorthTrying, JobFailed backupJobFailed,
            UrlSizeCeiling backupUrlSizeCeiling, RestoreUntested restoreUntested) {
        this(backupWindowBreach, backupWindowSpillForecast, backupWindowCreep, backupMissing, backupThroughputDrop, qatFallback,
                qatConfigMismatch, qatRestoreRisk, licenceRisk, certKeyNotBackedUp, agentSilent, qatChange, qatVersionDrift,
                qatSoftwareMissing, compressionVerdicts, qatNoGain, compressionWorthTrying, backupJobFailed, backupUrlSizeCeiling,
                restoreUntested, null, null, null, null);
    }

    /** The rules before issue 15, the others at their defaults. */
    public RulesConfig(Breach backupWindowBreach, SpillForecast backupWindowSpillForecast, Creep backupWindowCreep,
            Missing backupMissing, ThroughputDrop backupThroughputDrop, Basic qatFallback, QatConfigMismatch qatConfigMismatch,
            QatRestoreRisk qatRestoreRisk, LicenceRisk licenceRisk, CertKey certKeyNotBackedUp, AgentSilent agentSilent,
            QatChange qatChange, QatVersionDrift qatVersionDrift, Basic qatSoftwareMissing,
            VerdictThresholds compressionVerdicts, Info qatNoGain, Info compressionWorthTrying) {
        this(backupWindowBreach, backupWindowSpillForecast, backupWindowCreep, backupMissing, backupThroughputDrop, qatFallback,
                qatConfigMismatch, qatRestoreRisk, licenceRisk, certKeyNotBackedUp, agentSilent, qatChange, qatVersionDrift,
                qatSoftwareMissing, compressionVerdicts, qatNoGain, compressionWorthTrying, null, null, null, null, null, null, null);
    }

    public RulesConfig {
        backupWindowBreach = backupWindowBreach == null ? new Breach(null, null, null) : backupWindowBreach;
        backupWindowSpillForecast = backupWindowSpillForecast == null ? new SpillForecast(null, null, null, null) : backupWindowSpillForecast;
        backupWindowCreep = backupWindowCreep == null ? new Creep(null, null, null, null, null, null, null) : backupWindowCreep;
        backupMissing = backupMissing == null ? new Missing(null, null, null, null, null) : backupMissing;
        backupThroughputDrop = backupThroughputDrop == null ? new ThroughputDrop(null, null, null, null, null, null) : backupThroughputDrop;
        qatFallback = qatFallback == null ? new Basic(null, null) : qatFallback;
        qatConfigMismatch = qatConfigMismatch == null ? new QatConfigMismatch(null, null, null) : qatConfigMismatch;
        qatRestoreRisk = qatRestoreRisk == null ? new QatRestoreRisk(null, null, null, null) : qatRestoreRisk;
        licenceRisk = licenceRisk == null ? new LicenceRisk(null, null, null) : licenceRisk;
        certKeyNotBackedUp = certKeyNotBackedUp == null ? new CertKey(null, null, null, null) : certKeyNotBackedUp;
        agentSilent = agentSilent == null ? new AgentSilent(null, null, null) : agentSilent;
        qatChange = qatChange == null ? new QatChange(null, null, null) : qatChange;
        qatVersionDrift = qatVersionDrift == null ? new QatVersionDrift(null, null, null) : qatVersionDrift;
        qatSoftwareMissing = qatSoftwareMissing == null ? new Basic(null, null) : qatSoftwareMissing;
        compressionVerdicts = compressionVerdicts == null ? VerdictThresholds.DEFAULTS : compressionVerdicts;
        qatNoGain = qatNoGain == null ? new Info(null, null) : qatNoGain;
        compressionWorthTrying = compressionWorthTrying == null ? new Info(null, null) : compressionWorthTrying;
        backupJobFailed = backupJobFailed == null ? new JobFailed(null, null, null) : backupJobFailed;
        backupUrlSizeCeiling = backupUrlSizeCeiling == null
                ? new UrlSizeCeiling(null, null, null, null, null, null, null, null, null) : backupUrlSizeCeiling;
        restoreUntested = restoreUntested == null ? new RestoreUntested(null, null, null) : restoreUntested;
        logChainBroken = logChainBroken == null ? new Critical(null, null) : logChainBroken;
        differentialBaseMissing = differentialBaseMissing == null ? new Basic(null, null) : differentialBaseMissing;
        agFailover = agFailover == null ? new Info(null, null) : agFailover;
        restoreTimeOverGoal = restoreTimeOverGoal == null ? new Off(null, null) : restoreTimeOverGoal;
    }

    public void validate(String key, List<String> problems) {
        positive(problems, key + ".backupWindowSpillForecast.minPercentComplete", backupWindowSpillForecast.minPercentComplete());
        positive(problems, key + ".backupWindowCreep.nights", backupWindowCreep.nights());
        positive(problems, key + ".backupWindowCreep.horizonDays", backupWindowCreep.horizonDays());
        if (backupWindowCreep.minNights() < 3 || backupWindowCreep.minNights() > backupWindowCreep.nights()) {
            problems.add(key + ".backupWindowCreep.minNights: must be between 3 and nights (" + backupWindowCreep.nights()
                    + "), got " + backupWindowCreep.minNights());
        }
        positive(problems, key + ".backupMissing.fullMaxAgeHours", backupMissing.fullMaxAgeHours());
        positive(problems, key + ".backupMissing.fullOrDifferentialMaxAgeHours", backupMissing.fullOrDifferentialMaxAgeHours());
        positive(problems, key + ".backupMissing.logMaxAgeMinutes", backupMissing.logMaxAgeMinutes());
        if (backupThroughputDrop.dropPercent() <= 0 || backupThroughputDrop.dropPercent() >= 100) {
            problems.add(key + ".backupThroughputDrop.dropPercent: must be between 0 and 100, got " + backupThroughputDrop.dropPercent());
        }
        positive(problems, key + ".backupThroughputDrop.baselineBackups", backupThroughputDrop.baselineBackups());
        positive(problems, key + ".certKeyNotBackedUp.maxKeyBackupAgeDays", certKeyNotBackedUp.maxKeyBackupAgeDays());
        positive(problems, key + ".agentSilent.silentMinutes", agentSilent.silentMinutes());
        positive(problems, key + ".qatChange.recentHours", qatChange.recentHours());
        compressionVerdicts.validate(key + ".compressionVerdicts", problems);
        positive(problems, key + ".backupWindowBreach.lateStartMinutes", backupWindowBreach.lateStartMinutes());
        positive(problems, key + ".backupWindowCreep.minJobOverlapMinutes", backupWindowCreep.minJobOverlapMinutes());
        positive(problems, key + ".backupJobFailed.maxRunHours", backupJobFailed.maxRunHours());
        positive(problems, key + ".backupUrlSizeCeiling.horizonDays", backupUrlSizeCeiling.horizonDays());
        if (backupUrlSizeCeiling.minBackups() < 2) {
            problems.add(key + ".backupUrlSizeCeiling.minBackups: must be at least 2 (a trend needs two backups), got "
                    + backupUrlSizeCeiling.minBackups());
        }
        if (!List.of("s3", "azure").contains(backupUrlSizeCeiling.storage())) {
            problems.add(key + ".backupUrlSizeCeiling.storage: must be s3 or azure, got '" + backupUrlSizeCeiling.storage() + "'");
        }
        positive(problems, key + ".backupUrlSizeCeiling.s3PartsPerUrl", backupUrlSizeCeiling.s3PartsPerUrl());
        positive(problems, key + ".backupUrlSizeCeiling.s3MaxTransferSizeBytes", backupUrlSizeCeiling.s3MaxTransferSizeBytes());
        positive(problems, key + ".backupUrlSizeCeiling.azureBlocksPerBlob", backupUrlSizeCeiling.azureBlocksPerBlob());
        positive(problems, key + ".backupUrlSizeCeiling.azureBlockSizeBytes", backupUrlSizeCeiling.azureBlockSizeBytes());
        positive(problems, key + ".restoreUntested.maxAgeDays", restoreUntested.maxAgeDays());
        for (int i = 0; i < qatRestoreRisk.restoreTargets().size(); i++) {
            RestoreTarget t = qatRestoreRisk.restoreTargets().get(i);
            if (t.hosts().isEmpty()) {
                problems.add(key + ".qatRestoreRisk.restoreTargets[" + i + "].hosts: empty; name the hosts these databases are restored to");
            }
        }
        for (int i = 0; i < licenceRisk.verdicts().size(); i++) {
            String v = licenceRisk.verdicts().get(i);
            try {
                io.qatwatch.protocol.LicenceVerdict.valueOf(v);
            } catch (IllegalArgumentException e) {
                problems.add(key + ".licenceRisk.verdicts[" + i + "]: '" + v + "' is not a licence verdict");
            }
        }
    }

    private static void positive(List<String> problems, String key, Number n) {
        if (n.doubleValue() <= 0) {
            problems.add(key + ": must be more than 0, got " + n);
        }
    }

    private static Severity sev(Severity s, Severity dflt) {
        return s == null ? dflt : s;
    }

    private static boolean on(Boolean b) {
        return b == null || b;
    }

    /** A rule with only a switch and a severity. */
    public record Basic(Boolean enabled, Severity severity) {
        public Basic {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
        }
    }

    /** A rule with a switch, off by default, and a severity, a warning by default: restore-time-over-goal. */
    public record Off(Boolean enabled, Severity severity) {
        public Off {
            enabled = enabled != null && enabled;
            severity = sev(severity, Severity.WARNING);
        }
    }

    /** A rule with a switch and a severity that is critical by default: log-chain-broken. */
    public record Critical(Boolean enabled, Severity severity) {
        public Critical {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
        }
    }

    /** A rule with a switch and a severity that is a hint by default: qat-no-gain, compression-worth-trying. */
    public record Info(Boolean enabled, Severity severity) {
        public Info {
            enabled = on(enabled);
            severity = sev(severity, Severity.INFO);
        }
    }

    /**
     * backup-window-breach; a window that began more than {@code lateStartMinutes} after its backup job's planned start
     * started late, else it ran long.
     */
    public record Breach(Boolean enabled, Severity severity, Integer lateStartMinutes) {
        public Breach {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
            lateStartMinutes = lateStartMinutes == null ? 15 : lateStartMinutes;
        }

        public Breach(Boolean enabled, Severity severity) {
            this(enabled, severity, null);
        }
    }

    /** backup-window-spill-forecast: extrapolate only past {@code minPercentComplete} and {@code minElapsedMinutes}. */
    public record SpillForecast(Boolean enabled, Severity severity, Double minPercentComplete, Integer minElapsedMinutes) {
        public SpillForecast {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
            minPercentComplete = minPercentComplete == null ? 5.0 : minPercentComplete;
            minElapsedMinutes = minElapsedMinutes == null ? 5 : minElapsedMinutes;
        }
    }

    /**
     * backup-window-creep; a job that now overlaps the window by at least {@code minJobOverlapMinutes}, more than on the
     * first night of the fit, is named among its causes.
     */
    public record Creep(Boolean enabled, Severity severity, Integer nights, Integer minNights, Integer horizonDays,
                        Double minSlopeMinutesPerDay, Integer minJobOverlapMinutes) {

        public Creep(Boolean enabled, Severity severity, Integer nights, Integer minNights, Integer horizonDays,
                     Double minSlopeMinutesPerDay) {
            this(enabled, severity, nights, minNights, horizonDays, minSlopeMinutesPerDay, null);
        }

        public Creep {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            minJobOverlapMinutes = minJobOverlapMinutes == null ? 5 : minJobOverlapMinutes;
            CreepSettings d = new CreepSettings(nights, minNights, horizonDays, minSlopeMinutesPerDay);
            nights = d.nights();
            minNights = d.minNights();
            horizonDays = d.horizonDays();
            minSlopeMinutesPerDay = d.minSlopeMinutesPerDay();
        }

        /** The fitting settings. */
        public CreepSettings settings() {
            return new CreepSettings(nights, minNights, horizonDays, minSlopeMinutesPerDay);
        }
    }

    /** backup-missing: recovery point objectives per backup type. */
    public record Missing(Boolean enabled, Severity severity, Integer fullMaxAgeHours, Integer fullOrDifferentialMaxAgeHours,
                          Integer logMaxAgeMinutes) {
        public Missing {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
            fullMaxAgeHours = fullMaxAgeHours == null ? 8 * 24 : fullMaxAgeHours;
            fullOrDifferentialMaxAgeHours = fullOrDifferentialMaxAgeHours == null ? 36 : fullOrDifferentialMaxAgeHours;
            logMaxAgeMinutes = logMaxAgeMinutes == null ? 60 : logMaxAgeMinutes;
        }
    }

    /** backup-throughput-drop: the latest full against the median of the database's previous fulls. */
    public record ThroughputDrop(Boolean enabled, Severity severity, Integer baselineBackups, Integer minBaselineBackups,
                                 Double dropPercent, Integer minDurationMinutes) {
        public ThroughputDrop {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            baselineBackups = baselineBackups == null ? 14 : baselineBackups;
            minBaselineBackups = minBaselineBackups == null ? 5 : minBaselineBackups;
            dropPercent = dropPercent == null ? 30.0 : dropPercent;
            minDurationMinutes = minDurationMinutes == null ? 5 : minDurationMinutes;
        }
    }

    /** qat-config-mismatch: judged on the backups of the last {@code recentHours}. */
    public record QatConfigMismatch(Boolean enabled, Severity severity, Integer recentHours) {
        public QatConfigMismatch {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            recentHours = recentHours == null ? 48 : recentHours;
        }
    }

    /** qat-restore-risk: named restore targets per database pattern; the whole fleet when {@code fleetWide}. */
    public record QatRestoreRisk(Boolean enabled, Severity severity, Boolean fleetWide, List<RestoreTarget> restoreTargets) {
        public QatRestoreRisk {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            fleetWide = fleetWide == null ? Boolean.TRUE : fleetWide;
            restoreTargets = restoreTargets == null ? List.of() : List.copyOf(restoreTargets);
        }
    }

    /** Databases (patterns) and the hosts (patterns) they would be restored on. */
    public record RestoreTarget(List<String> databases, List<String> hosts) {
        public RestoreTarget {
            databases = databases == null ? List.of("*") : List.copyOf(databases);
            hosts = hosts == null ? List.of() : List.copyOf(hosts);
        }
    }

    /** licence-risk: the verdicts that make QAT software on a host a risk. */
    public record LicenceRisk(Boolean enabled, Severity severity, List<String> verdicts) {
        public LicenceRisk {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            verdicts = verdicts == null
                    ? List.of("INTEL_COMPONENT_ONLY", "INTEL_EMULATED_DEVICE_ONLY", "NO_INTEL_COMPONENT")
                    : List.copyOf(verdicts);
        }
    }

    /** cert-key-not-backed-up. */
    public record CertKey(Boolean enabled, Severity severity, Integer maxKeyBackupAgeDays, Boolean flagTripleDes) {
        public CertKey {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
            maxKeyBackupAgeDays = maxKeyBackupAgeDays == null ? 365 : maxKeyBackupAgeDays;
            flagTripleDes = flagTripleDes == null ? Boolean.TRUE : flagTripleDes;
        }
    }

    /** agent-silent. */
    public record AgentSilent(Boolean enabled, Severity severity, Integer silentMinutes) {
        public AgentSilent {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            silentMinutes = silentMinutes == null ? 15 : silentMinutes;
        }
    }

    /** qat-change: a QAT library, driver or chosen mode changed; shown for {@code recentHours} after the change. */
    public record QatChange(Boolean enabled, Severity severity, Integer recentHours) {
        public QatChange {
            enabled = on(enabled);
            severity = sev(severity, Severity.INFO);
            recentHours = recentHours == null ? 72 : recentHours;
        }
    }

    /** qat-version-drift: versions compared within each host group and, with {@code availabilityGroups}, across replicas. */
    public record QatVersionDrift(Boolean enabled, Severity severity, Boolean availabilityGroups) {
        public QatVersionDrift {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            availabilityGroups = availabilityGroups == null ? Boolean.TRUE : availabilityGroups;
        }
    }

    /**
     * backup-job-failed; failed steps of a run whose outcome SQL Server Agent has not written yet count for
     * {@code maxRunHours} after they started (older ones are a run whose outcome was purged or never came).
     */
    public record JobFailed(Boolean enabled, Severity severity, Integer maxRunHours) {
        public JobFailed {
            enabled = on(enabled);
            severity = sev(severity, Severity.CRITICAL);
            maxRunHours = maxRunHours == null ? 24 : maxRunHours;
        }
    }

    /**
     * backup-url-size-ceiling: the size limit of one URL (a stripe) of a backup to URL, on S3-compatible storage
     * ({@code s3PartsPerUrl} x {@code s3MaxTransferSizeBytes}) or Azure block blobs ({@code azureBlocksPerBlob} x
     * {@code azureBlockSizeBytes}), and the forecast's horizon.
     */
    public record UrlSizeCeiling(Boolean enabled, Severity severity, Integer horizonDays, Integer minBackups, String storage,
                                 Long s3PartsPerUrl, Long s3MaxTransferSizeBytes, Long azureBlocksPerBlob,
                                 Long azureBlockSizeBytes) {
        public UrlSizeCeiling {
            enabled = on(enabled);
            severity = sev(severity, Severity.WARNING);
            horizonDays = horizonDays == null ? 30 : horizonDays;
            minBackups = minBackups == null ? 3 : minBackups;
            storage = storage == null ? "s3" : storage.toLowerCase(java.util.Locale.ROOT);
            s3PartsPerUrl = s3PartsPerUrl == null ? 10_000L : s3PartsPerUrl;
            s3MaxTransferSizeBytes = s3MaxTransferSizeBytes == null ? 10L * 1024 * 1024 : s3MaxTransferSizeBytes;
            azureBlocksPerBlob = azureBlocksPerBlob == null ? 50_000L : azureBlocksPerBlob;
            azureBlockSizeBytes = azureBlockSizeBytes == null ? 4L * 1024 * 1024 : azureBlockSizeBytes;
        }

        /** The bytes one URL holds on the configured storage. */
        public long bytesPerUrl() {
            return "azure".equals(storage) ? azureBlocksPerBlob * azureBlockSizeBytes : s3PartsPerUrl * s3MaxTransferSizeBytes;
        }
    }

    /** restore-untested: off by default; a database none of whose backups was restored anywhere for {@code maxAgeDays}. */
    public record RestoreUntested(Boolean enabled, Severity severity, Integer maxAgeDays) {
        public RestoreUntested {
            enabled = enabled != null && enabled;
            severity = sev(severity, Severity.INFO);
            maxAgeDays = maxAgeDays == null ? 30 : maxAgeDays;
        }
    }
}
