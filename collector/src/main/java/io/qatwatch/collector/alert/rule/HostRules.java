package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.analysis.PackedDigest;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** licence-risk, cert-key-not-backed-up and agent-silent. */
final class HostRules {

    static final String LICENCE_WHY = "QAT software is installed on a host without Intel QAT hardware or an Intel CPU. "
            + "The Intel driver licence permits use \"in conjunction with (a) physical Intel component products, and (b) "
            + "virtual ('emulated') devices designed to appear as Intel component products to a Guest operating system\". "
            + "qatwatch reports the facts and the clause; it gives no legal advice.";
    static final String CERT_WHY = "Encrypted backups, and every backup of a TDE database, can only be restored with the "
            + "certificate and its private key. "
            + "If the key was never exported (or only long ago) and the server is lost, those backups are unreadable. "
            + "BACKUP CERTIFICATE ... WITH PRIVATE KEY, and keep the file away from the backups.";
    static final String ASYMMETRIC_WHY = "Backups or a TDE key encrypted with an asymmetric key can only be restored where "
            + "that key is available. Keys that encrypt backups live in an Extensible Key Management provider, and SQL Server "
            + "cannot export them or say when they were backed up.";
    static final String UNSEEN_WHY = "Backups or a TDE key are encrypted with a certificate or asymmetric key that the monitoring "
            + "login cannot see, so whether its private key was backed up cannot be checked.";
    static final String TRIPLE_DES_WHY = "TRIPLE_DES_3KEY is a deprecated, weak algorithm for backup encryption; "
            + "use AES_256.";
    static final String SILENT_WHY = "The agent has not reported for longer than the threshold: the host, its SQL "
            + "Server instances and their backups are unwatched, and every other alert for it may be stale.";

    private HostRules() {
    }

    /**
     * What each encryptor of one instance protects, by thumbprint: backups that name it
     * ({@code backupset.encryptor_thumbprint}) and TDE database keys it protects
     * ({@code sys.dm_database_encryption_keys.encryptor_thumbprint}). Thumbprints compare case-insensitively.
     */
    private record Encryptors(Map<String, Set<String>> backupsOf, Map<String, Set<String>> tdeOf, Map<String, String> typeOf) {

        static Encryptors of(InstanceState i) {
            Encryptors e = new Encryptors(new TreeMap<>(String.CASE_INSENSITIVE_ORDER), new TreeMap<>(String.CASE_INSENSITIVE_ORDER),
                    new TreeMap<>(String.CASE_INSENSITIVE_ORDER));
            for (BackupRecord b : PackedDigest.only(i.backups(), PackedDigest.ENCRYPTION)) {
                if (b.encryptorThumbprint() != null) {
                    e.backupsOf.computeIfAbsent(b.encryptorThumbprint(), t -> new TreeSet<>()).add(b.databaseName());
                    e.typeOf.putIfAbsent(b.encryptorThumbprint(), QatRules.nz(b.encryptorType()));
                }
            }
            for (DatabaseInfo d : i.databases()) {
                // a key that exists but encrypts nothing yet (state UNENCRYPTED) protects no backup
                if (d.tdeEncryptorThumbprint() != null && !"UNENCRYPTED".equalsIgnoreCase(d.encryptionState())
                        && !"NONE".equalsIgnoreCase(d.encryptionState())) {
                    e.tdeOf.computeIfAbsent(d.tdeEncryptorThumbprint(), t -> new TreeSet<>()).add(d.name());
                    e.typeOf.putIfAbsent(d.tdeEncryptorThumbprint(), QatRules.nz(d.tdeEncryptorType()));
                }
            }
            return e;
        }

        Set<String> backups(String thumbprint) {
            return thumbprint == null ? Set.of() : backupsOf.getOrDefault(thumbprint, Set.of());
        }

        Set<String> tde(String thumbprint) {
            return thumbprint == null ? Set.of() : tdeOf.getOrDefault(thumbprint, Set.of());
        }

        String type(String thumbprint) {
            return typeOf.getOrDefault(thumbprint, "-");
        }

        Set<String> all() {
            Set<String> all = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            all.addAll(backupsOf.keySet());
            all.addAll(tdeOf.keySet());
            return all;
        }

        Set<String> databases(String thumbprint) {
            Set<String> dbs = new TreeSet<>(backups(thumbprint));
            dbs.addAll(tde(thumbprint));
            return dbs;
        }
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

    /**
     * True when no certificate or asymmetric key is used for backup encryption, no backup names an encryptor or
     * TRIPLE_DES_3KEY, and no database names a TDE encryptor: then cert-key-not-backed-up has nothing to say.
     */
    private static boolean nothingEncrypted(InstanceState i) {
        for (BackupRecord b : PackedDigest.only(i.backups(), PackedDigest.ENCRYPTION)) {
            if (b.encryptorThumbprint() != null || "TRIPLE_DES_3KEY".equalsIgnoreCase(b.keyAlgorithm())) {
                return false;
            }
        }
        for (DatabaseInfo d : i.databases()) {
            if (d.tdeEncryptorThumbprint() != null) {
                return false;
            }
        }
        for (CertificateInfo c : i.certificates()) {
            if (c.usedForBackupEncryption()) {
                return false;
            }
        }
        for (AsymmetricKeyInfo k : i.asymmetricKeys()) {
            if (k.usedForBackupEncryption()) {
                return false;
            }
        }
        return true;
    }

    static List<Alert> certKey(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.CertKey cfg = rules.certKeyNotBackedUp();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            if (nothingEncrypted(ia.instance())) {
                // most instances, every minute: no key used, no backup or database encrypted, so nothing to report
                continue;
            }
            Encryptors uses = Encryptors.of(ia.instance());
            Set<String> known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            for (CertificateInfo c : ia.instance().certificates()) {
                if (c.thumbprint() != null) {
                    known.add(c.thumbprint());
                }
                Set<String> backups = uses.backups(c.thumbprint());
                Set<String> tde = uses.tde(c.thumbprint());
                if (!c.usedForBackupEncryption() && backups.isEmpty() && tde.isEmpty()) {
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
                if (!backups.isEmpty()) {
                    facts.add(new Fact("Encrypts backups of", String.join(", ", backups)));
                }
                if (!tde.isEmpty()) {
                    facts.add(new Fact("Protects the TDE key of", String.join(", ", tde)
                            + " (every backup of " + (tde.size() == 1 ? "it" : "them") + " needs this certificate to restore)"));
                }
                if (c.expiresAt() != null) {
                    facts.add(new Fact("Expires", c.expiresAt().atOffset(ZoneOffset.UTC).toString()));
                }
                String kind = tde.isEmpty() ? "backup certificate " : backups.isEmpty() && !c.usedForBackupEncryption()
                        ? "TDE certificate " : "backup and TDE certificate ";
                out.add(new Alert("cert-key-not-backed-up", cfg.severity(), ia.host().host(), ia.instance().name(), null,
                        c.name(), "Private key of " + kind + c.name() + " " + problem, CERT_WHY, facts, List.of()));
            }
            for (AsymmetricKeyInfo k : ia.instance().asymmetricKeys()) {
                if (k.thumbprint() != null) {
                    known.add(k.thumbprint());
                }
                Set<String> backups = uses.backups(k.thumbprint());
                Set<String> tde = uses.tde(k.thumbprint());
                if (!k.usedForBackupEncryption() && backups.isEmpty() && tde.isEmpty()) {
                    continue;
                }
                List<Fact> facts = new ArrayList<>();
                facts.add(new Fact("Asymmetric key", k.name() + " (thumbprint " + k.thumbprint() + ")"));
                facts.add(new Fact("Held by", k.providerType() == null ? "SQL Server (" + QatRules.nz(k.privateKeyEncryption()) + ")"
                        : "an Extensible Key Management provider (" + k.providerType() + ")"));
                if (!backups.isEmpty()) {
                    facts.add(new Fact("Encrypts backups of", String.join(", ", backups)));
                }
                if (!tde.isEmpty()) {
                    facts.add(new Fact("Protects the TDE key of", String.join(", ", tde)));
                }
                facts.add(new Fact("Check", "SQL Server records no backup of an asymmetric key: make sure the key provider keeps "
                        + "it (key vault backup, soft delete or purge protection) and that a restore target can reach the same key"));
                out.add(new Alert("cert-key-not-backed-up", Severity.INFO, ia.host().host(), ia.instance().name(), null,
                        k.name(), "Backups depend on asymmetric key " + k.name() + ", of which SQL Server records no backup",
                        ASYMMETRIC_WHY, facts, List.of()));
            }
            for (String thumbprint : uses.all()) {
                if (known.contains(thumbprint)) {
                    continue;
                }
                Set<String> backups = uses.backups(thumbprint);
                Set<String> tde = uses.tde(thumbprint);
                List<Fact> facts = new ArrayList<>();
                facts.add(new Fact("Encryptor", thumbprint + " (" + uses.type(thumbprint) + ")"));
                if (!backups.isEmpty()) {
                    facts.add(new Fact("Encrypts backups of", String.join(", ", backups)));
                }
                if (!tde.isEmpty()) {
                    facts.add(new Fact("Protects the TDE key of", String.join(", ", tde)));
                }
                facts.add(new Fact("Fix", "if it exists, re-run the certificate part of install/sql/create-monitor-login.sql "
                        + "(VIEW DEFINITION on each certificate and asymmetric key in master); if it was dropped, these backups "
                        + "restore only where a copy of it exists"));
                out.add(new Alert("cert-key-not-backed-up", Severity.WARNING, ia.host().host(), ia.instance().name(), null,
                        thumbprint, "Encryptor " + thumbprint + " of " + String.join(", ", uses.databases(thumbprint))
                                + " is not among the certificates and keys the monitoring login sees", UNSEEN_WHY, facts, List.of()));
            }
            if (cfg.flagTripleDes()) {
                Set<String> weak = PackedDigest.only(ia.instance().backups(), PackedDigest.ENCRYPTION).stream()
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
            // the summary names when the silence began, not how long it has lasted: a text that changed every
            // minute would make every silent host's alert row a write every minute (AlertStore writes what changed)
            String since = h.lastSeen() == null ? "never reported"
                    : "silent since " + h.lastSeen().truncatedTo(ChronoUnit.MINUTES).atOffset(ZoneOffset.UTC);
            out.add(new Alert("agent-silent", cfg.severity(), h.host(), null, null, null, "Agent on " + h.host() + " " + since,
                    SILENT_WHY, List.of(new Fact("Last report", last), new Fact("Threshold", cfg.silentMinutes() + " min")),
                    List.of()));
        }
        return out;
    }
}
