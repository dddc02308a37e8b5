package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** QAT over time and across the fleet: qat-change, qat-version-drift and qat-software-missing. */
final class QatDriftRules {

    static final String CHANGE_WHY = "The QAT stack of this instance changed: a library or driver version, or a mode "
            + "someone chose. Nothing may be wrong, but backups compress differently from now on, and the hosts that "
            + "restore its QAT_DEFLATE backups need a stack that can read them.";
    static final String DRIFT_WHY = "Hosts that should be alike run different QAT library or driver versions: a "
            + "restore or failover onto the other host meets a different stack than the one that wrote the backup, "
            + "and a fix tested on one is not the fix on the others.";
    static final String MISSING_WHY = "SQL Server on this host is set up to compress backups with QAT, but the host "
            + "probe finds no QAT driver or library: backups cannot use QAT, and QAT_DEFLATE backups cannot be "
            + "restored here until the Intel QAT driver (QATzip) is installed.";

    private QatDriftRules() {
    }

    /** qat-change: a library or driver version, or a chosen mode, changed within {@code recentHours}. */
    static List<Alert> change(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.QatChange cfg = rules.qatChange();
        Instant since = fleet.now().minusSeconds(cfg.recentHours() * 3600L);
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            Optional<QatTimeline.Change> c = QatTimeline.of(ia.instance()).lastChange(since);
            if (c.isEmpty()) {
                continue;
            }
            QatTimeline.Point before = c.get().before();
            QatTimeline.Point after = c.get().after();
            List<String> what = new ArrayList<>();
            if (!java.util.Objects.equals(before.library(), after.library())) {
                what.add("library " + nz(before.library()) + " → " + nz(after.library()));
            }
            if (!java.util.Objects.equals(before.driver(), after.driver())) {
                what.add("driver " + nz(before.driver()) + " → " + nz(after.driver()));
            }
            if (!before.mode().equals(after.mode())) {
                what.add("mode " + before.mode() + " → " + after.mode() + " (" + nz(after.reason()) + ")");
            }
            String at = Fmt.when(after.at(), ia.calendar().zone());
            out.add(new Alert("qat-change", cfg.severity(), ia.host().host(), ia.instance().name(), null, null,
                    "QAT " + String.join(", ", what) + " at " + at, CHANGE_WHY,
                    List.of(new Fact("Changed", at + ", the first report showing it"),
                            new Fact("Before", stack(before) + " since " + Fmt.when(before.at(), ia.calendar().zone())),
                            new Fact("Now", stack(after)),
                            new Fact("Shown for", cfg.recentHours() + " h after the change (alerts.rules.qatChange.recentHours)")),
                    List.of()));
        }
        return out;
    }

    /**
     * qat-version-drift: within a host group (the first matching {@code alerts.hostGroups} entry), or among the
     * replicas of an availability group, the instances with a QAT library and driver do not all run the same versions.
     * Every instance off the most common versions is flagged; when no versions are the most common, every instance is.
     */
    static List<Alert> drift(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.QatVersionDrift cfg = rules.qatVersionDrift();
        Map<String, List<InstanceAnalysis>> sets = new TreeMap<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            if (versions(ia) == null) {
                continue;
            }
            HostState h = ia.host();
            for (HostGroupConfig g : fleet.config().hostGroups()) {
                if (g.matches(h.host(), null, h.tags())) {
                    sets.computeIfAbsent("host group " + g.name(), k -> new ArrayList<>()).add(ia);
                    break;
                }
            }
            if (cfg.availabilityGroups()) {
                ia.instance().databases().stream().map(DatabaseInfo::availabilityGroup).filter(ag -> ag != null && !ag.isBlank())
                        .distinct().forEach(ag -> sets.computeIfAbsent("availability group " + ag, k -> new ArrayList<>()).add(ia));
            }
        }
        List<Alert> out = new ArrayList<>();
        sets.forEach((set, members) -> {
            Map<String, List<String>> byVersions = new TreeMap<>();
            for (InstanceAnalysis ia : members) {
                byVersions.computeIfAbsent(versions(ia), k -> new ArrayList<>()).add(ia.host().host() + "/" + ia.instance().name());
            }
            if (byVersions.size() < 2) {
                return;
            }
            int most = byVersions.values().stream().mapToInt(List::size).max().orElse(0);
            List<String> common = byVersions.entrySet().stream().filter(e -> e.getValue().size() == most).map(Map.Entry::getKey).toList();
            String commonVersions = common.size() == 1 ? common.get(0) : null;
            String spread = byVersions.entrySet().stream().map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
                    .collect(Collectors.joining("; "));
            String subject = set.startsWith("host group ") ? "group:" + set.substring(11) : "ag:" + set.substring(19);
            for (InstanceAnalysis ia : members) {
                String mine = versions(ia);
                if (mine.equals(commonVersions)) {
                    continue;
                }
                String than = commonVersions == null ? "the other members'" : commonVersions + " on "
                        + byVersions.get(commonVersions).size() + " of " + members.size();
                out.add(new Alert("qat-version-drift", cfg.severity(), ia.host().host(), ia.instance().name(), null, subject,
                        "QAT library / driver " + mine + " differs from the rest of " + set + " (" + than + ")", DRIFT_WHY,
                        List.of(new Fact("Versions in " + set, spread),
                                new Fact("Compared", "sys.dm_server_accelerator_status library and driver versions of the "
                                        + "instances that report them")),
                        List.of()));
            }
        });
        return out;
    }

    /** "library / driver", or null when the instance reports neither. */
    private static String versions(InstanceAnalysis ia) {
        AcceleratorStatus a = QatTimeline.qatRow(ia.instance().accelerators());
        if (a == null || (a.libraryVersion() == null && a.driverVersion() == null)) {
            return null;
        }
        return nz(a.libraryVersion()) + " / " + nz(a.driverVersion());
    }

    /** qat-software-missing: an instance set up for QAT on a host whose probe found no QAT driver or library. */
    static List<Alert> softwareMissing(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.Basic cfg = rules.qatSoftwareMissing();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            HostState h = ia.host();
            if (h.qat() == null || (h.qat().software() != null && h.qat().software().anyInstalled())) {
                continue;
            }
            String why = configuredFor(ia);
            if (why == null) {
                continue;
            }
            out.add(new Alert("qat-software-missing", cfg.severity(), h.host(), ia.instance().name(), null, null,
                    "SQL Server is set up for QAT but " + h.host() + " has no QAT driver or library", MISSING_WHY,
                    List.of(new Fact("Set up for QAT", why),
                            new Fact("Host probe", "no QAT driver, kernel module, library or service found; QAT devices: "
                                    + (h.qat().devices().isEmpty() ? "none" : h.qat().devices().size()))),
                    List.of()));
        }
        return out;
    }

    /** What says the instance is meant to use QAT, or null when nothing does. */
    private static String configuredFor(InstanceAnalysis ia) {
        List<String> why = new ArrayList<>();
        for (ConfigOption c : ia.instance().configuration()) {
            if ("hardware offload enabled".equalsIgnoreCase(c.name()) && (c.value() == 1 || c.valueInUse() == 1)) {
                why.add("'hardware offload enabled' = 1");
            }
            if ("backup compression algorithm".equalsIgnoreCase(c.name()) && (c.value() == 2 || c.valueInUse() == 2)) {
                why.add("'backup compression algorithm' = 2 (QAT_DEFLATE)");
            }
        }
        java.util.Map<String, String> commands = JobCommands.commandAlgorithms(ia.instance(), Instant.MIN);
        List<String> qatJobs = commands.entrySet().stream().filter(e -> e.getValue().startsWith("QAT_DEFLATE"))
                .map(java.util.Map.Entry::getKey).toList();
        if (!qatJobs.isEmpty()) {
            why.add("the jobs' commands name ALGORITHM = QAT_DEFLATE (CommandLog: " + String.join(", ", qatJobs) + ")");
        }
        AcceleratorStatus a = QatTimeline.qatRow(ia.instance().accelerators());
        if (a != null && a.modeReasonDesc() != null) {
            String reason = a.modeReasonDesc().toUpperCase(Locale.ROOT);
            if (QatRules.enabled(a) || (reason.startsWith("NONE_ACCELERATOR_") && !reason.equals("NONE_ACCELERATOR_CONFIG_NOT_ENABLED"))) {
                why.add("accelerator status " + a.modeDesc() + " (" + a.modeReasonDesc() + ")");
            }
        }
        return why.isEmpty() ? null : String.join("; ", new TreeSet<>(why));
    }

    private static String stack(QatTimeline.Point p) {
        return p.mode() + " (" + nz(p.reason()) + "), library " + nz(p.library()) + ", driver " + nz(p.driver());
    }

    private static String nz(String s) {
        return s == null ? "?" : s;
    }
}
