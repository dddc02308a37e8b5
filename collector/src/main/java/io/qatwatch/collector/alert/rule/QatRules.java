package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.analysis.PackedDigest;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** qat-fallback, qat-config-mismatch and qat-restore-risk. */
final class QatRules {

    static final String FALLBACK_WHY = "SQL Server is not compressing backups on the QAT hardware it was set up for: "
            + "it fell back to software (CPU) or to no QAT at all. Backups take longer and cost CPU until the device, "
            + "driver or library is fixed.";
    static final String MISMATCH_WHY = "The QAT configuration and the backups actually taken disagree: either QAT is "
            + "enabled but the jobs still compress with MS_XPRESS (a job or default not switched), or backups are "
            + "QAT_DEFLATE while the engine reports QAT off, so the next restart or restore may surprise you.";
    static final String RESTORE_WHY = "These backups are compressed with QAT_DEFLATE. Restoring them needs the QAT "
            + "driver and libraries and QAT enabled in SQL Server on the restoring host; without them the restore "
            + "fails with Msg 17441 on the day you need it.";

    /** Reasons that mean SQL Server lost QAT it was meant to use (sys.dm_server_accelerator_status). */
    private static final Set<String> FAILURES = Set.of(
            "SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND", "NONE_ACCELERATOR_LOAD_FAILED", "NONE_ACCELERATOR_PROC_FAILED",
            "NONE_ACCELERATOR_VERSION_NOT_COMPATIBLE", "NONE_ACCELERATOR_INITIALIZATION_FAILED",
            "NONE_ACCELERATOR_SESSION_FAILED", "NONE_ACCELERATOR_LIBRARY_NOT_FOUND");

    private QatRules() {
    }

    static Optional<AcceleratorStatus> qat(InstanceAnalysis ia) {
        return ia.instance().accelerators().stream()
                .filter(a -> a.accelerator() != null && a.accelerator().toUpperCase(Locale.ROOT).contains("QAT")).findFirst();
    }

    static boolean enabled(AcceleratorStatus a) {
        return "HARDWARE".equalsIgnoreCase(a.modeDesc()) || "SOFTWARE".equalsIgnoreCase(a.modeDesc());
    }

    static List<Alert> fallback(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.Basic cfg = rules.qatFallback();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            Optional<AcceleratorStatus> q = qat(ia);
            Optional<QatTimeline.Fall> fall = QatTimeline.of(ia.instance()).fall();
            boolean failing = q.isPresent() && q.get().modeReasonDesc() != null
                    && FAILURES.contains(q.get().modeReasonDesc().toUpperCase(Locale.ROOT));
            if (!failing && fall.isEmpty()) {
                continue;
            }
            AcceleratorStatus a = q.orElse(new AcceleratorStatus("QAT", "NONE", null, null, null, null));
            String to = "SOFTWARE".equalsIgnoreCase(a.modeDesc()) ? "software mode" : "no QAT";
            List<Fact> facts = new ArrayList<>(List.of(
                    new Fact("Mode", a.modeDesc() + " (" + nz(a.modeReasonDesc()) + ")"),
                    new Fact("Hardware detected", String.valueOf(a.hardwareDetected())),
                    new Fact("Library / driver", nz(a.libraryVersion()) + " / " + nz(a.driverVersion()))));
            String summary = "QAT backup compression fell back to " + to + ": " + nz(a.modeReasonDesc());
            if (fall.isPresent()) {
                QatTimeline.Point before = fall.get().before();
                QatTimeline.Point after = fall.get().after();
                String at = Fmt.when(after.at(), ia.calendar().zone());
                summary = "QAT backup compression fell back from " + before.mode().toLowerCase(Locale.ROOT) + " to " + to
                        + " at " + at + ": " + nz(a.modeReasonDesc());
                facts.add(0, new Fact("Fell back", at + ", the first report showing it; before: " + before.mode() + " ("
                        + nz(before.reason()) + ") since " + Fmt.when(before.at(), ia.calendar().zone())));
                if (before.hardwareDetected() && !after.hardwareDetected()) {
                    facts.add(new Fact("Hardware gone", "detected until then, not since: SQL Server looks for the device "
                            + "when it starts, so it was missing when the server or SQL Server restarted"));
                }
            }
            HostState h = ia.host();
            if (h.qat() != null) {
                facts.add(new Fact("Host QAT devices", h.qat().devices().isEmpty() ? "none found"
                        : h.qat().devices().stream().map(QatRules::device).reduce((x, y) -> x + ", " + y).orElse("")));
            }
            out.add(new Alert("qat-fallback", cfg.severity(), h.host(), ia.instance().name(), null, null, summary,
                    FALLBACK_WHY, facts, List.of()));
        }
        return out;
    }

    private static String device(QatDevice d) {
        return d.address() + " " + d.pciId() + " " + nz(d.driver()) + " " + nz(d.state());
    }

    static List<Alert> configMismatch(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.QatConfigMismatch cfg = rules.qatConfigMismatch();
        Instant since = fleet.now().minusSeconds(cfg.recentHours() * 3600L);
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            Optional<AcceleratorStatus> q = qat(ia);
            if (q.isEmpty()) {
                continue;
            }
            AcceleratorStatus a = q.get();
            boolean wantXpress = enabled(a);
            boolean wantQatDeflate = "NONE".equalsIgnoreCase(a.modeDesc());
            if (!wantXpress && !wantQatDeflate) {
                continue;
            }
            Set<String> xpress = new TreeSet<>();
            Set<String> qatDeflate = new TreeSet<>();
            // of a packed digest, only the backups of the algorithm that would fire: most QAT instances have none
            int wanted = (wantXpress ? PackedDigest.MS_XPRESS : 0) | (wantQatDeflate ? PackedDigest.QAT_DEFLATE : 0);
            for (BackupRecord b : PackedDigest.only(ia.instance().backups(), wanted)) {
                if (b.finishedAt().isBefore(since) || "L".equals(b.type()) || b.sizeIsEstimate()) {
                    continue;
                }
                if ("MS_XPRESS".equalsIgnoreCase(b.compressionAlgorithm())) {
                    xpress.add(b.databaseName());
                } else if ("QAT_DEFLATE".equalsIgnoreCase(b.compressionAlgorithm())) {
                    qatDeflate.add(b.databaseName());
                }
            }
            boolean xpressFires = wantXpress && !xpress.isEmpty();
            boolean qatDeflateFires = wantQatDeflate && !qatDeflate.isEmpty();
            if (!xpressFires && !qatDeflateFires) {
                // most QAT instances, every minute: nothing to say, so no facts and no CommandLog walk
                continue;
            }
            Fact mode = new Fact("Engine says", "QAT mode " + a.modeDesc() + " (" + nz(a.modeReasonDesc()) + ")");
            Fact dflt = new Fact("'backup compression algorithm'", JobCommands.instanceDefault(ia.instance()));
            String named = JobCommands.commands(ia.instance(), since);
            Fact jobs = named == null ? null : new Fact("The jobs' commands (CommandLog)", named);
            if (xpressFires) {
                // the jobs' own commands (CommandLog) win over the instance default for their databases
                Map<String, String> commands = JobCommands.commandAlgorithms(ia.instance(), since);
                Set<String> inJob = new TreeSet<>();
                xpress.stream().filter(d -> commands.getOrDefault(d, "").startsWith("MS_XPRESS")).forEach(inJob::add);
                String fix = inJob.isEmpty() ? "add COMPRESSION (ALGORITHM = QAT_DEFLATE) to the jobs, or set "
                        + "'backup compression algorithm' to 2"
                        : "the jobs' commands name ALGORITHM = MS_XPRESS for " + String.join(", ", inJob)
                                + ", which the instance default does not change: set QAT_DEFLATE in the job (Ola Hallengren's "
                                + "DatabaseBackup: @CompressionAlgorithm = 'QAT_DEFLATE')";
                out.add(new Alert("qat-config-mismatch", cfg.severity(), ia.host().host(), ia.instance().name(), null, "xpress",
                        "QAT is enabled but " + xpress.size() + " database(s) still back up with MS_XPRESS", MISMATCH_WHY,
                        facts(mode, dflt, jobs, new Fact("MS_XPRESS in the last " + cfg.recentHours() + " h", String.join(", ", xpress)),
                                new Fact("Fix", fix)),
                        List.of()));
            }
            if (qatDeflateFires) {
                out.add(new Alert("qat-config-mismatch", cfg.severity(), ia.host().host(), ia.instance().name(), null, "engine-none",
                        "QAT_DEFLATE backups while the engine reports QAT mode NONE", MISMATCH_WHY,
                        facts(mode, dflt, jobs, new Fact("QAT_DEFLATE in the last " + cfg.recentHours() + " h", String.join(", ", qatDeflate))),
                        List.of()));
            }
        }
        return out;
    }

    /** The facts given, leaving out the nulls (a fact that does not apply). */
    private static List<Fact> facts(Fact... facts) {
        List<Fact> out = new ArrayList<>();
        for (Fact f : facts) {
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * The option as its documentation words it: 0 is "backup compression is off, as specified by backup compression
     * default", no algorithm named (not MS_XPRESS); 1 MS_XPRESS, 2 QAT_DEFLATE, 3 ZSTD.
     */
    static String algorithmName(long v) {
        return switch ((int) v) {
            case 0 -> "0 (none set: compression as 'backup compression default' says)";
            case 1 -> "1 (MS_XPRESS)";
            case 2 -> "2 (QAT_DEFLATE)";
            case 3 -> "3 (ZSTD)";
            default -> String.valueOf(v);
        };
    }

    /**
     * qat-restore-risk. It remembers between evaluations (one evaluator's, which are serialised) the fleet-wide targets
     * lacking QAT and the facts naming them, kept while the list is the same, and each database's alert, handed out again
     * while its name, place and facts are the same: the facts name every host of the fleet that lacks QAT, and building
     * them for each database with QAT_DEFLATE backups every minute was most of what the rules allocated.
     */
    static final class RestoreRisk implements Rule {

        /** The fleet-wide risky targets of the last evaluation that needed them, and the facts that name them. */
        private List<String> fleetWideRisky;
        private List<Fact> fleetWideFacts;
        /** Each database's alert of the last evaluation, by database identity. */
        private Map<String, Alert> alerts = new HashMap<>();

        @Override
        public List<Alert> evaluate(FleetAnalysis fleet, RulesConfig rules) {
            RulesConfig.QatRestoreRisk cfg = rules.qatRestoreRisk();
            Map<String, String> lacking = new LinkedHashMap<>();
            Map<String, HostState> hosts = new LinkedHashMap<>();
            for (HostState h : fleet.fleet().hosts()) {
                lacking.put(h.host(), FleetCompression.lacksQat(h));
                hosts.putIfAbsent(h.host(), h);
            }
            boolean fleetWideJudged = false;
            Map<String, Alert> next = new HashMap<>();
            List<Alert> out = new ArrayList<>();
            for (MergedDatabase db : fleet.databases().values()) {
                if (!anyQatDeflate(db.backups())) {
                    continue;
                }
                List<String> targets = new ArrayList<>();
                boolean named = false;
                for (RulesConfig.RestoreTarget t : cfg.restoreTargets()) {
                    if (t.databases().stream().anyMatch(p -> HostGroupConfig.glob(p, db.name()))) {
                        named = true;
                        for (String pattern : t.hosts()) {
                            List<String> matched = lacking.keySet().stream().filter(host -> HostGroupConfig.glob(pattern, host)).toList();
                            targets.addAll(matched.isEmpty() ? List.of(pattern) : matched);
                        }
                    }
                }
                List<String> risky;
                List<Fact> facts;
                if (named) {
                    risky = risky(targets, true, lacking, hosts);
                    facts = facts(true, risky);
                } else if (cfg.fleetWide()) {
                    // The same for every database: judged once an evaluation, its facts kept while it stays the same.
                    if (!fleetWideJudged) {
                        List<String> now = risky(lacking.keySet(), false, lacking, hosts);
                        if (!now.equals(fleetWideRisky)) {
                            fleetWideRisky = now;
                            fleetWideFacts = facts(false, now);
                        }
                        fleetWideJudged = true;
                    }
                    risky = fleetWideRisky;
                    facts = fleetWideFacts;
                } else {
                    continue;
                }
                if (risky.isEmpty()) {
                    continue;
                }
                Alert before = alerts.get(db.key());
                // the facts are the same object only while the targets are the same list: the summary's count with them
                Alert alert = before != null && before.facts() == facts && before.severity() == cfg.severity()
                        && Objects.equals(before.database(), db.name()) && Objects.equals(before.host(), db.host())
                        && Objects.equals(before.instance(), db.instance()) ? before
                        : new Alert("qat-restore-risk", cfg.severity(), db.host(), db.instance(), db.name(), null,
                                "QAT_DEFLATE backups of " + db.name() + " cannot be restored on " + risky.size() + " "
                                        + (named ? "named restore target(s)" : "host(s) of the fleet"),
                                RESTORE_WHY, facts, List.of());
                next.put(db.key(), alert);
                out.add(alert);
            }
            alerts = next;
            return out;
        }
    }

    /** Whether any of {@code backups} is compressed with QAT_DEFLATE. */
    private static boolean anyQatDeflate(List<DatabaseBackup> backups) {
        for (DatabaseBackup b : backups) {
            if ("QAT_DEFLATE".equalsIgnoreCase(b.compressionAlgorithm())) {
                return true;
            }
        }
        return false;
    }

    /** The facts of a qat-restore-risk alert: where the targets come from and which of them lack QAT, and why. */
    private static List<Fact> facts(boolean named, List<String> risky) {
        return List.of(new Fact("Restore targets", named ? "named in alerts.rules.qatRestoreRisk.restoreTargets" : "the whole fleet"),
                new Fact("Lacking QAT", String.join("; ", risky)));
    }

    /** The targets that could not restore a QAT_DEFLATE backup, each with why, in name order. */
    private static List<String> risky(java.util.Collection<String> targets, boolean named, Map<String, String> lacking,
                                      Map<String, HostState> hosts) {
        List<String> risky = new ArrayList<>();
        for (String host : new TreeSet<>(targets)) {
            String why = lacking.containsKey(host) ? lacking.get(host) : "not monitored by qatwatch";
            // Fleet-wide, a host never probed is unknown rather than lacking; a named target must be known.
            if (why != null && (named || hosts.get(host).qat() != null)) {
                risky.add(host + " (" + why + ")");
            }
        }
        return risky;
    }

    static String nz(Object s) {
        return s == null ? "?" : s.toString();
    }
}
