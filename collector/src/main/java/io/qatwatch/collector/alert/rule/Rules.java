package io.qatwatch.collector.alert.rule;

import java.util.LinkedHashMap;
import java.util.Map;

/** The rule registry: each rule's fixed name (DESIGN.md) and its function, one line each. */
public final class Rules {

    private Rules() {
    }

    /** The enabled rules, by name, in a stable order. */
    public static Map<String, Rule> enabled(RulesConfig cfg) {
        Map<String, Rule> all = new LinkedHashMap<>();
        put(all, cfg.backupWindowBreach().enabled(), "backup-window-breach", new WindowRules.Breach());
        put(all, cfg.backupWindowSpillForecast().enabled(), "backup-window-spill-forecast", WindowRules::spill);
        put(all, cfg.backupWindowCreep().enabled(), "backup-window-creep", new WindowRules.Creep());
        put(all, cfg.backupMissing().enabled(), "backup-missing", BackupRules::missing);
        put(all, cfg.backupThroughputDrop().enabled(), "backup-throughput-drop", BackupRules::throughputDrop);
        put(all, cfg.qatFallback().enabled(), "qat-fallback", QatRules::fallback);
        put(all, cfg.qatConfigMismatch().enabled(), "qat-config-mismatch", QatRules::configMismatch);
        put(all, cfg.qatRestoreRisk().enabled(), "qat-restore-risk", new QatRules.RestoreRisk());
        put(all, cfg.qatChange().enabled(), "qat-change", QatDriftRules::change);
        put(all, cfg.qatVersionDrift().enabled(), "qat-version-drift", QatDriftRules::drift);
        put(all, cfg.qatSoftwareMissing().enabled(), "qat-software-missing", QatDriftRules::softwareMissing);
        put(all, cfg.licenceRisk().enabled(), "licence-risk", HostRules::licenceRisk);
        put(all, cfg.certKeyNotBackedUp().enabled(), "cert-key-not-backed-up", HostRules::certKey);
        put(all, cfg.agentSilent().enabled(), "agent-silent", HostRules::agentSilent);
        put(all, cfg.qatNoGain().enabled(), "qat-no-gain", CompressionRules::qatNoGain);
        put(all, cfg.compressionWorthTrying().enabled(), "compression-worth-trying", CompressionRules::worthTrying);
        put(all, cfg.backupJobFailed().enabled(), "backup-job-failed", JobRules::jobFailed);
        put(all, cfg.backupUrlSizeCeiling().enabled(), "backup-url-size-ceiling", UrlCeilingRules::sizeCeiling);
        put(all, cfg.restoreUntested().enabled(), "restore-untested", JobRules::restoreUntested);
        put(all, cfg.logChainBroken().enabled(), "log-chain-broken", ChainRules::logChainBroken);
        put(all, cfg.differentialBaseMissing().enabled(), "differential-base-missing", ChainRules::differentialBaseMissing);
        put(all, cfg.agFailover().enabled(), "ag-failover", AvailabilityGroupRules::failover);
        put(all, cfg.restoreTimeOverGoal().enabled(), "restore-time-over-goal", RestoreTimeRules::overGoal);
        return all;
    }

    private static void put(Map<String, Rule> all, boolean on, String name, Rule rule) {
        if (on) {
            all.put(name, rule);
        }
    }
}
