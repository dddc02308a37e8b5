package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.chain.RestorePlan.ChainBreak;
import io.qatwatch.collector.chain.RestorePlanner;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** log-chain-broken and differential-base-missing: judged per database across every replica's msdb (issue 31). */
final class ChainRules {

    static final String CHAIN_WHY = "A point-in-time restore replays every log backup since the full (or the differential on "
            + "it) in order, each beginning where the one before ended (its first_lsn equal to the previous last_lsn), on "
            + "whichever replica it was taken. Past this break no point in time can be restored from the backups msdb knows, "
            + "until the next full backup or a differential taken after the break.";
    static final String BASE_WHY = "A differential holds the changes since its base full (differential_base_guid names that "
            + "full's backup_set_uuid, differential_base_lsn its checkpoint LSN; the GUID decides when both are known) and "
            + "restores nothing without it. A copy-only full is never a differential base "
            + "(\"Copy-only backups\"): a differential after one still needs the last regular full.";

    private ChainRules() {
    }

    /** The restore plan of a database now, across its replicas; empty without a full or without LSNs (older agents). */
    static Optional<RestorePlan> plan(MergedDatabase db) {
        List<LogChain> chains = db.chains();
        if (chains == null || chains.isEmpty()) {
            return Optional.empty();
        }
        // a database with one copy keeps its plan while its backups stay the same
        return chains.size() == 1 ? chains.get(0).memo("plan", () -> RestorePlanner.plan(chains)) : RestorePlanner.plan(chains);
    }

    private static boolean logged(MergedDatabase db) {
        String model = db.recoveryModel() == null ? "" : db.recoveryModel().trim().toUpperCase(Locale.ROOT);
        return model.equals("FULL") || model.equals("BULK_LOGGED") || model.equals("BULK-LOGGED");
    }

    static List<Alert> logChainBroken(FleetAnalysis fleet, RulesConfig rules) {
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase db : fleet.databases().values()) {
            if (db.silent() || db.chains().isEmpty() || !logged(db)) {
                continue;
            }
            Optional<RestorePlan> plan = plan(db);
            if (plan.isEmpty() || plan.get().whole()) {
                continue;
            }
            out.add(broken(db, plan.get(), rules));
        }
        return out;
    }

    private static Alert broken(MergedDatabase db, RestorePlan plan, RulesConfig rules) {
        ChainBreak b = plan.broken();
        String summary = switch (b.kind()) {
            case ChainLink.NUL -> "Log chain of " + db.name() + " broken: the log backup of " + b.via().finishedAt() + " on "
                    + b.via().scope() + " went to NUL";
            case ChainLink.OTHER_TOOL -> "Log chain of " + db.name() + " broken: the log backup of " + b.via().finishedAt()
                    + " on " + b.via().scope() + " was taken by another tool (" + b.via().file() + ")";
            default -> "Log chain of " + db.name() + " broken: no log backup between " + b.before().finishedAt() + " on "
                    + b.before().scope() + " and " + (b.after() == null ? "now" : b.after().finishedAt() + " on " + b.after().scope());
        };
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Restorable to", plan.latestPoint() + ", the end of the " + b.before().describe()));
        if (b.via() != null) {
            facts.add(new Fact(ChainLink.NUL.equals(b.kind()) ? "Log to NUL" : "Log by another tool",
                    b.via().describe() + ", device " + b.via().deviceType()));
        } else {
            facts.add(new Fact("Gap", "LSN " + b.before().lastLsn() + " to " + (b.after() == null ? "?" : b.after().firstLsn())));
        }
        facts.add(new Fact("Next log after the break", b.after() == null ? "none yet" : b.after().describe()));
        facts.add(new Fact("Likely cause", b.cause()));
        if (plan.newestLog() != null && plan.newestLog().finishedAt().isAfter(plan.latestPoint())) {
            facts.add(new Fact("Not restorable", "every point in time from " + plan.latestPoint() + " to "
                    + plan.newestLog().finishedAt() + " (the newest log backup)"));
        }
        facts.add(new Fact("Restore plan", plan.head()));
        facts.add(new Fact("Until", "the next full backup, or a differential taken after the break"));
        if (db.availabilityGroup() != null) {
            facts.add(new Fact("Availability group", db.availabilityGroup() + ", replicas " + String.join(", ", db.replicas())));
        }
        return new Alert("log-chain-broken", rules.logChainBroken().severity(), db.host(), db.instance(), db.name(), null,
                summary, CHAIN_WHY, facts, List.of());
    }

    static List<Alert> differentialBaseMissing(FleetAnalysis fleet, RulesConfig rules) {
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase db : fleet.databases().values()) {
            if (db.silent() || db.chains().isEmpty()) {
                continue;
            }
            ChainBackup diff = null;
            ChainBackup full = null;
            for (LogChain c : db.chains()) {
                diff = newer(diff, c.differential());
                full = newer(full, c.full());
            }
            if (diff == null || full != null && full.finishedAt().isAfter(diff.finishedAt())) {
                // no differential, or a full after it: restores start from that full
                continue;
            }
            BigInteger base = RestorePlanner.baseOf(diff);
            if (base == null && diff.differentialBaseGuid() == null || full != null && diff.basedOn(full)) {
                continue;
            }
            ChainBackup copyBase = null;
            ChainBackup copyOnly = null;
            for (LogChain c : db.chains()) {
                ChainBackup f = c.copyOnlyFull();
                copyOnly = newer(copyOnly, f);
                if (f != null && diff.basedOn(f)) {
                    copyBase = f;
                }
            }
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Differential", diff.describe() + ", base LSN " + base
                    + (diff.differentialBaseGuid() == null ? "" : ", base GUID " + diff.differentialBaseGuid())));
            facts.add(new Fact("Newest full", full == null ? "none that msdb holds on any replica" : full.describe()
                    + ", checkpoint LSN " + full.checkpointLsn()
                    + (full.backupSetUuid() == null ? "" : ", backup_set_uuid " + full.backupSetUuid())));
            if (copyOnly != null) {
                facts.add(new Fact("Newest copy-only full", copyOnly.describe() + " (never a differential base)"));
            }
            plan(db).ifPresent(p -> facts.add(new Fact("Restore plan", p.head())));
            String summary = copyBase != null
                    ? "Differential of " + db.name() + " names a copy-only full as its base (" + copyBase.finishedAt() + ")"
                    : "Differential of " + db.name() + " of " + diff.finishedAt() + " has no base full in msdb";
            out.add(new Alert("differential-base-missing", rules.differentialBaseMissing().severity(), db.host(), db.instance(),
                    db.name(), null, summary, BASE_WHY, facts, List.of()));
        }
        return out;
    }

    private static ChainBackup newer(ChainBackup a, ChainBackup b) {
        return b == null || a != null && !b.finishedAt().isAfter(a.finishedAt()) ? a : b;
    }
}
