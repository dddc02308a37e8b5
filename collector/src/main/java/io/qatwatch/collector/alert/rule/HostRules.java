package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** licence-risk, cert-key-not-backed-up and agent-silent. */
final class HostRules {

    static final String LICENCE_WHY = "QAT software is installed on a host without Intel QAT hardware or an Intel CPU. "
            + "The Intel driver licence permits use \"in conjunction with (a) physical Intel component products, and (b) "
            + "virtual ('emulated') devices designed to appear as Intel component products to a Guest operating system\". "
            + "qatwatch reports the facts and the clause; it gives no legal advice.";
    static final String CERT_WHY = "Encrypted backups can only be restored with the certificate and its private key. "
            + "If the key was never exported (or only long ago) and the server is lost, those backups are unreadable. "
            + "BACKUP CERTIFICATE ... WITH PRIVATE KEY, and keep the file away from the backups.";
    static final String TRIPLE_DES_WHY = "TRIPLE_DES_3KEY is a deprecated, weak algorithm for backup encryption; "
            + "use AES_256.";
    static final String SILENT_WHY = "The agent has not reported for longer than the threshold: the host, its SQL "
            + "Server instances and their backups are unwatched, and every other alert for it may be stale.";

    private HostRules() {
    }

    static List<Alert> licenceRisk(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.LicenceRisk cfg = rules.licenceRisk();
        List<Alert> out = new ArrayList<>();
        for (HostState h : fleet.fleet().hosts()) {
            LicenceFacts l = h.licence();
            if (l == null || l.verdict() == null || !l.qatSoftwareInstalled() || !cfg.verdicts().contains(l.verdict().name())) {
                continue;
            }
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Verdict", l.verdict().name()));
            if (h.facts() != null && h.facts().cpu() != null) {
                facts.add(new Fact("CPU", h.facts().cpu().vendor() + " " + h.facts().cpu().model()));
            }
            if (h.facts() != null && h.facts().virtualization() != null) {
                facts.add(new Fact("Virtualization", h.facts().virtualization()));
            }
            facts.add(new Fact("Intel components", l.intelComponents().isEmpty() ? "none"
                    : l.intelComponents().stream().map(c -> c.kind() + " " + QatRules.nz(c.pciId()) + " " + c.description()
                            + (c.emulated() ? " (emulated)" : "")).collect(Collectors.joining("; "))));
            if (h.qat() != null && h.qat().software() != null) {
                List<String> sw = new ArrayList<>();
                h.qat().software().drivers().forEach(s -> sw.add(s.name()));
                h.qat().software().libraries().forEach(s -> sw.add(s.name()));
                h.qat().software().services().forEach(s -> sw.add(s.name()));
                facts.add(new Fact("QAT software", sw.isEmpty() ? "installed" : String.join(", ", sw)));
            }
            l.notes().forEach(n -> facts.add(new Fact("Note", n)));
            out.add(new Alert("licence-risk", cfg.severity(), h.host(), null, null, null,
                    "QAT software on a host whose licence verdict is " + l.verdict().name(), LICENCE_WHY, facts, List.of()));
        }
        return out;
    }

    static List<Alert> certKey(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.CertKey cfg = rules.certKeyNotBackedUp();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            for (CertificateInfo c : ia.instance().certificates()) {
                Set<String> dbs = new TreeSet<>();
                for (BackupRecord b : ia.instance().backups()) {
                    if (c.thumbprint() != null && c.thumbprint().equalsIgnoreCase(b.encryptorThumbprint())) {
                        dbs.add(b.databaseName());
                    }
                }
                if (!c.usedForBackupEncryption() && dbs.isEmpty()) {
                    continue;
                }
                String problem;
                if (c.privateKeyLastBackupAt() == null) {
                    problem = "never backed up";
                } else {
                    long days = Duration.between(c.privateKeyLastBackupAt(), fleet.now()).toDays();
                    if (days <= cfg.maxKeyBackupAgeDays()) {
                        continue;
                    }
                    problem = "last backed up " + days + " days ago";
                }
                List<Fact> facts = new ArrayList<>(List.of(
                        new Fact("Certificate", c.name() + " (thumbprint " + c.thumbprint() + ")"),
                        new Fact("Private key", problem + (c.privateKeyLastBackupAt() == null ? ""
                                : " (" + c.privateKeyLastBackupAt().atOffset(ZoneOffset.UTC) + ")")),
                        new Fact("Threshold", cfg.maxKeyBackupAgeDays() + " days")));
                if (!dbs.isEmpty()) {
                    facts.add(new Fact("Encrypts backups of", String.join(", ", dbs)));
                }
                if (c.expiresAt() != null) {
                    facts.add(new Fact("Expires", c.expiresAt().atOffset(ZoneOffset.UTC).toString()));
                }
                out.add(new Alert("cert-key-not-backed-up", cfg.severity(), ia.host().host(), ia.instance().name(), null,
                        c.name(), "Private key of backup certificate " + c.name() + " " + problem, CERT_WHY, facts, List.of()));
            }
            if (cfg.flagTripleDes()) {
                Set<String> weak = ia.instance().backups().stream()
                        .filter(b -> "TRIPLE_DES_3KEY".equalsIgnoreCase(b.keyAlgorithm()))
                        .map(BackupRecord::databaseName).collect(Collectors.toCollection(TreeSet::new));
                if (!weak.isEmpty()) {
                    out.add(new Alert("cert-key-not-backed-up", Severity.WARNING, ia.host().host(), ia.instance().name(), null,
                            "TRIPLE_DES_3KEY", "Backups encrypted with TRIPLE_DES_3KEY: " + String.join(", ", weak),
                            TRIPLE_DES_WHY, List.of(new Fact("Databases", String.join(", ", weak)),
                            new Fact("Fix", "ENCRYPTION (ALGORITHM = AES_256, SERVER CERTIFICATE = ...)")), List.of()));
                }
            }
        }
        return out;
    }

    static List<Alert> agentSilent(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.AgentSilent cfg = rules.agentSilent();
        List<Alert> out = new ArrayList<>();
        for (HostState h : fleet.fleet().hosts()) {
            if (!fleet.silent(h)) {
                continue;
            }
            String last = h.lastSeen() == null ? "never" : h.lastSeen().atOffset(ZoneOffset.UTC).toString();
            String since = h.lastSeen() == null ? "never reported"
                    : "silent for " + Fmt.minutes(Duration.between(h.lastSeen(), fleet.now()).toSeconds() / 60.0);
            out.add(new Alert("agent-silent", cfg.severity(), h.host(), null, null, null, "Agent on " + h.host() + " " + since,
                    SILENT_WHY, List.of(new Fact("Last report", last), new Fact("Threshold", cfg.silentMinutes() + " min")),
                    List.of()));
        }
        return out;
    }
}
