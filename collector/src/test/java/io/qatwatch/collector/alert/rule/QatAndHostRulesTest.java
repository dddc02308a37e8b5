package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceFacts.ComponentKind;
import io.qatwatch.protocol.LicenceFacts.IntelComponent;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The QAT, licence, certificate and agent rules over a small fleet with one finding each. */
class QatAndHostRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    private static final QatSoftware WINDOWS_QAT = new QatSoftware(
            List.of(new SoftwareItem("icp_qat4", "C:\\Windows\\System32\\drivers\\icp_qat4.sys", "2.5.0.0014", "RUNNING")),
            List.of(), List.of(), List.of(new SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.9.0", null)),
            List.of(), List.of(), List.of());
    private static final QatFacts QAT_4XXX = new QatFacts(List.of(new QatDevice("0000:6b:00.0", "8086:4940",
            QatDevice.PciFunction.PF, "4xxx", "4xxx QuickAssist", "icp_qat4", null, List.of("dc"))), WINDOWS_QAT, true);
    private static final QatFacts NO_QAT = new QatFacts(List.of(), QatSoftware.none(), false);

    private static HostState host(String name, Instant lastSeen, QatFacts qat, LicenceFacts licence, InstanceState... instances) {
        HostFacts facts = new HostFacts(name, new HostFacts.Cpu(licence != null && licence.verdict() == LicenceVerdict.INTEL_COMPONENT_ONLY
                ? "AuthenticAMD" : "GenuineIntel", "EPYC 9354 / Xeon", 2, 64), null, null, null, null);
        return new HostState(name, Set.of(), lastSeen, facts, qat, licence, List.of(instances));
    }

    /** Databases are those the backups name: each host has its own (database_guid is unique per database). */
    private static InstanceState instance(String name, List<AcceleratorStatus> accel, long algorithm, List<BackupRecord> backups,
                                          List<CertificateInfo> certs) {
        List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> dbs = backups.stream().map(BackupRecord::databaseName)
                .distinct().map(db -> Histories.db(db, "SIMPLE")).toList();
        return new InstanceState(name, NOW, null, List.of(new ConfigOption("backup compression algorithm", algorithm, algorithm)),
                accel, dbs, certs, List.of(), List.of(), backups);
    }

    @Test
    void eachFindingFiresItsRuleOnceAndNothingElse() {
        Instant night = Instant.parse("2026-11-30T01:00:00Z");
        // qat-01: hardware QAT fell back to software; QAT_DEFLATE backups encrypted with a never-exported certificate.
        InstanceState fallback = instance("PROD", List.of(Histories.qat("SOFTWARE", "SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND")), 2,
                List.of(Histories.encrypted("Sales", night, 1800, 400_000_000_000L, "AES_256", "0xA1B2"),
                        backup("Hr", "D", night.plusSeconds(2000), 120, 5_000_000_000L, "QAT_DEFLATE", "LOCAL")),
                List.of(new CertificateInfo("BackupCert", "0xA1B2", Instant.parse("2030-01-01T00:00:00Z"), null, true)));
        // qat-02: QAT in hardware mode, but the Payroll job still writes MS_XPRESS; one old 3DES-encrypted backup.
        InstanceState xpress = instance("PROD", List.of(Histories.qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU")), 1,
                List.of(backup("Orders", "D", night, 1800, 400_000_000_000L, "QAT_DEFLATE", "LOCAL"),
                        backup("Payroll", "D", night.plusSeconds(2000), 120, 5_000_000_000L, "MS_XPRESS", "LOCAL"),
                        Histories.encrypted("Payroll", night.minusSeconds(86_400), 120, 5_000_000_000L, "TRIPLE_DES_3KEY", null)),
                List.of());
        // amd-01: AMD server with an Intel NIC, QAT software installed, SQL Server without QAT: cannot restore QAT backups.
        LicenceFacts greyZone = new LicenceFacts(LicenceVerdict.INTEL_COMPONENT_ONLY,
                List.of(new IntelComponent(ComponentKind.NIC, "8086:1521", "I350 Gigabit", false)), true, List.of());
        QatFacts amdQat = new QatFacts(List.of(), new QatSoftware(List.of(), List.of(), List.of(),
                List.of(new SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.9.0", null)), List.of(), List.of(), List.of()), false);
        InstanceState amdSql = instance("DR", List.of(Histories.qat("NONE", "NONE_HARDWARE_OFFLOAD_NOT_ENABLED")), 1,
                List.of(backup("Crm", "D", night, 1800, 1_000_000L, "MS_XPRESS", "LOCAL"),
                        backup("Wiki", "D", night, 1800, 1_000_000L, "MS_XPRESS", "LOCAL")), List.of());
        // old-01: silent for 40 minutes, since 09:20 (threshold 15), so its stale backups raise nothing else.
        InstanceState stale = instance("OLD", List.of(), 1, List.of(), List.of());
        FleetState fleet = new FleetState(List.of(
                host("qat-01", NOW, QAT_4XXX, new LicenceFacts(LicenceVerdict.INTEL_QAT_HARDWARE, List.of(), true, List.of()), fallback),
                host("qat-02", NOW, QAT_4XXX, new LicenceFacts(LicenceVerdict.INTEL_QAT_HARDWARE, List.of(), true, List.of()), xpress),
                host("amd-01", NOW, amdQat, greyZone, amdSql),
                host("old-01", NOW.minusSeconds(40 * 60), NO_QAT, new LicenceFacts(LicenceVerdict.INTEL_CPU, List.of(), false, List.of()), stale)));

        AlertsConfig config = new AlertsConfig(null, null, null, null, null, null, null).validate();
        List<Alert> alerts = config.evaluator().evaluate(fleet, NOW).alerts();

        assertThat(fired(alerts)).containsExactly(
                "agent-silent old-01",
                "cert-key-not-backed-up qat-01 / PROD [BackupCert]",
                "cert-key-not-backed-up qat-02 / PROD [TRIPLE_DES_3KEY]",
                "licence-risk amd-01",
                "qat-config-mismatch qat-02 / PROD [xpress]",
                "qat-fallback qat-01 / PROD",
                "qat-restore-risk qat-01 / PROD / Hr",
                "qat-restore-risk qat-01 / PROD / Sales",
                "qat-restore-risk qat-02 / PROD / Orders",
                "qat-restore-risk qat-02 / PROD / Payroll");
        Map<String, Alert> byRule = new java.util.HashMap<>();
        alerts.forEach(a -> byRule.putIfAbsent(a.rule(), a));
        assertThat(byRule.get("qat-fallback").summary())
                .isEqualTo("QAT backup compression fell back to software mode: SOFTWARE_MODE_ACCELERATOR_HARDWARE_NOT_FOUND");
        assertThat(byRule.get("qat-config-mismatch").details()).contains("MS_XPRESS in the last 48 h: Payroll")
                .contains("'backup compression algorithm': 1 (MS_XPRESS)");
        assertThat(byRule.get("qat-restore-risk").details())
                .contains("Lacking QAT: amd-01 (QAT not enabled in SQL Server (HARDWARE_OFFLOAD)); old-01 (no QAT driver or library)");
        assertThat(byRule.get("licence-risk").details()).contains("NIC 8086:1521 I350 Gigabit").contains("no legal advice");
        assertThat(byRule.get("cert-key-not-backed-up").details()).contains("Private key: never backed up").contains("Encrypts backups of: Sales");
        assertThat(byRule.get("agent-silent").summary()).isEqualTo("Agent on old-01 silent since 2026-11-30T09:20Z");
        // the same silence a minute and an hour later is the same alert: its stored row is not written again each minute
        for (long later : new long[] {60, 3600}) {
            assertThat(config.evaluator().evaluate(fleet, NOW.plusSeconds(later)).alerts().stream()
                    .filter(a -> a.rule().equals("agent-silent") && a.host().equals("old-01")).toList())
                    .as("%d s later", later).containsExactly(byRule.get("agent-silent"));
        }
    }

    @Test
    void algorithmOptionZeroIsNotMsXpress() {
        // "0 = Backup compression is off, as specified by backup compression default"
        Instant night = Instant.parse("2026-11-30T01:00:00Z");
        InstanceState zero = instance("PROD", List.of(Histories.qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU")), 0,
                List.of(backup("Payroll", "D", night, 120, 5_000_000_000L, "MS_XPRESS", "LOCAL")), List.of());
        FleetState fleet = new FleetState(List.of(host("qat-03", NOW, QAT_4XXX,
                new LicenceFacts(LicenceVerdict.INTEL_QAT_HARDWARE, List.of(), true, List.of()), zero)));
        Alert mismatch = new AlertsConfig(null, null, null, null, null, null, null).validate().evaluator().evaluate(fleet, NOW)
                .alerts().stream().filter(a -> a.rule().equals("qat-config-mismatch")).findFirst().orElseThrow();
        assertThat(mismatch.details()).contains("'backup compression algorithm': 0 (none set: compression as 'backup compression default' says)")
                .doesNotContain("0 (MS_XPRESS)");
    }

    @Test
    void certKeyCoversTdeCertificatesAsymmetricKeysAndEncryptorsTheLoginCannotSee() {
        Instant night = Instant.parse("2026-11-30T01:00:00Z");
        // Payments uses TDE under TDE_Payments (sys.dm_database_encryption_keys.encryptor_thumbprint), never exported;
        // its log backups are encrypted with an EKM asymmetric key; Archive's backups with a certificate the login cannot see.
        var payments = new io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo("Payments", Histories.guid("Payments"), "FULL",
                "ENCRYPTED", null, null, null, Histories.guid("Payments"), null, null, false, "0x1122", "CERTIFICATE");
        BackupRecord full = backup("Payments", "D", night, 1800, 100_000_000_000L, "QAT_DEFLATE", "UNC");
        BackupRecord log = Histories.encrypted("Payments", night.plusSeconds(3600), 5, 1_000_000_000L, "AES_256", "0x5E6F");
        BackupRecord logByKey = new BackupRecord(log.backupSetId(), log.databaseName(), log.databaseGuid(), "L", false, log.startedAt(),
                log.finishedAt(), true, log.backupSizeBytes(), log.compressedSizeBytes(), log.compressionAlgorithm(), true, "AES_256",
                "0x5E6F", "ASYMMETRIC KEY", "DISK", "UNC", log.databaseGuid(), false);
        BackupRecord archive = Histories.encrypted("Archive", night.plusSeconds(7200), 60, 1_000_000_000L, "AES_256", "0xDEAD");
        InstanceState tde = new InstanceState("PROD", NOW, null, List.of(), List.of(),
                List.of(payments, Histories.db("Archive", "SIMPLE")),
                List.of(new CertificateInfo("TDE_Payments", "0x1122", Instant.parse("2030-01-01T00:00:00Z"), null, false)),
                List.of(new io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo("BackupKeyEkm", "0x5e6f",
                        "CRYPTOGRAPHIC PROVIDER", "NO_PRIVATE_KEY", true)),
                List.of(), List.of(full, logByKey, archive));
        FleetState fleet = new FleetState(List.of(host("sql-01", NOW, NO_QAT,
                new LicenceFacts(LicenceVerdict.INTEL_CPU, List.of(), false, List.of()), tde)));
        List<Alert> alerts = new AlertsConfig(null, null, null, null, null, null, null).validate().evaluator().evaluate(fleet, NOW)
                .alerts().stream().filter(a -> a.rule().equals("cert-key-not-backed-up")).toList();

        assertThat(fired(alerts)).containsExactly(
                "cert-key-not-backed-up sql-01 / PROD [0xDEAD]",
                "cert-key-not-backed-up sql-01 / PROD [BackupKeyEkm]",
                "cert-key-not-backed-up sql-01 / PROD [TDE_Payments]");
        Alert cert = alerts.stream().filter(a -> "TDE_Payments".equals(a.subject())).findFirst().orElseThrow();
        assertThat(cert.severity()).isEqualTo(io.qatwatch.collector.alert.Severity.CRITICAL);
        assertThat(cert.summary()).isEqualTo("Private key of TDE certificate TDE_Payments never backed up");
        assertThat(cert.details()).contains("Protects the TDE key of: Payments (every backup of it needs this certificate to restore)");
        Alert key = alerts.stream().filter(a -> "BackupKeyEkm".equals(a.subject())).findFirst().orElseThrow();
        assertThat(key.severity()).isEqualTo(io.qatwatch.collector.alert.Severity.INFO);
        assertThat(key.details()).contains("Encrypts backups of: Payments", "Extensible Key Management provider");
        Alert unseen = alerts.stream().filter(a -> "0xDEAD".equals(a.subject())).findFirst().orElseThrow();
        assertThat(unseen.severity()).isEqualTo(io.qatwatch.collector.alert.Severity.WARNING);
        assertThat(unseen.summary()).isEqualTo("Encryptor 0xDEAD of Archive is not among the certificates and keys the monitoring login sees");
        assertThat(unseen.details()).contains("create-monitor-login.sql");
    }

    @Test
    void namedRestoreTargetsReplaceTheWholeFleet() {
        Instant night = Instant.parse("2026-11-30T01:00:00Z");
        InstanceState qatSql = instance("PROD", List.of(Histories.qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU")), 2,
                List.of(backup("Sales", "D", night, 1800, 400_000_000_000L, "QAT_DEFLATE", "LOCAL"),
                        backup("Hr", "D", night, 1800, 4_000_000_000L, "QAT_DEFLATE", "LOCAL")), List.of());
        FleetState fleet = new FleetState(List.of(
                host("qat-01", NOW, QAT_4XXX, new LicenceFacts(LicenceVerdict.INTEL_QAT_HARDWARE, List.of(), true, List.of()), qatSql),
                host("lab-01", NOW, NO_QAT, new LicenceFacts(LicenceVerdict.INTEL_CPU, List.of(), false, List.of()))));
        RulesConfig rules = new RulesConfig(null, null, null, null, null, null, null,
                new RulesConfig.QatRestoreRisk(null, null, false, List.of(
                        new RulesConfig.RestoreTarget(List.of("Sales"), List.of("dr-sql-*", "qat-01")))), null, null, null, null, null, null, null, null, null);
        AlertsConfig config = new AlertsConfig(null, null, null, null, rules, null, null).validate();

        List<Alert> alerts = config.evaluator().evaluate(fleet, NOW).alerts();

        // Hr has no named target and fleetWide is off; Sales' target dr-sql-* is not a monitored host.
        assertThat(fired(alerts)).containsExactly("qat-restore-risk qat-01 / PROD / Sales");
        assertThat(alerts.get(0).details()).contains("Lacking QAT: dr-sql-* (not monitored by qatwatch)");
    }
}
