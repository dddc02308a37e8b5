package io.qatwatch.protocol;

import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a parsed report against the rules of the wire format and returns the first violation by its
 * JSON path. Pure: the clock is passed in.
 */
public final class ReportValidator {

    /** Names that become parts of URLs and keys (instance names): no separators, no spaces, no leading dot. */
    public static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_$#.\\-]{0,63}");
    public static final int MAX_NAME_CHARS = 256;
    public static final int MAX_TEXT_CHARS = 4096;
    public static final int MAX_INSTANCES = 64;
    public static final int MAX_BACKUPS_PER_INSTANCE = 50_000;
    public static final int MAX_DATABASES = 32_767;
    public static final int MAX_LIST_ITEMS = 4096;
    /** Clock skew tolerated for times in the future. */
    public static final Duration MAX_FUTURE = Duration.ofDays(1);
    /** Earliest plausible time: msdb history older than this is a corrupt row. */
    public static final Instant EARLIEST = Instant.parse("1990-01-01T00:00:00Z");

    private static final Pattern REPORT_ID = Pattern.compile("[A-Za-z0-9_\\-]{8,64}");
    private static final Set<String> BACKUP_TYPES = Set.of("D", "I", "L", "F", "G", "P", "Q");

    private ReportValidator() {
    }

    /** One broken rule: the JSON path of the field and what is wrong with it. */
    public record Violation(String field, String error) {
    }

    public static Optional<Violation> validate(AgentReport report, Instant now) {
        try {
            check(report, now);
            return Optional.empty();
        } catch (ReportFormatException e) {
            return Optional.of(new Violation(e.field(), e.getMessage()));
        }
    }

    /** As {@link #validate}, raising the first violation. */
    public static void check(AgentReport report, Instant now) {
        if (report == null) {
            throw new ReportFormatException("$", "empty body: expected a JSON report object");
        }
        if (report.schemaVersion() != AgentReport.SCHEMA_VERSION) {
            throw new ReportFormatException("schemaVersion", "unsupported schema version " + report.schemaVersion()
                    + "; this build reads version " + AgentReport.SCHEMA_VERSION);
        }
        required("reportId", report.reportId());
        if (!REPORT_ID.matcher(report.reportId()).matches()) {
            throw new ReportFormatException("reportId", "must be 8 to 64 letters, digits, '-' or '_' (a UUID)");
        }
        time("createdAt", report.createdAt(), now, true);
        required("agent", report.agent());
        text("agent.name", report.agent().name(), MAX_NAME_CHARS, true);
        text("agent.version", report.agent().version(), 64, true);
        nonNegative("agent.uptimeSeconds", report.agent().uptimeSeconds());
        nonNegative("agent.outboxDepth", report.agent().outboxDepth());
        nonNegative("agent.outboxDroppedTotal", report.agent().outboxDroppedTotal());
        nonNegative("agent.outboxCorruptTotal", report.agent().outboxCorruptTotal());
        if (report.host() != null) {
            checkHost(report.host());
        }
        if (report.qat() != null) {
            checkQat(report.qat());
        }
        if (report.licence() != null) {
            checkLicence(report.licence());
        }
        size("instances", report.instances(), MAX_INSTANCES);
        for (int i = 0; i < report.instances().size(); i++) {
            checkInstance("instances[" + i + "]", report.instances().get(i), now);
        }
        size("probes", report.probes(), MAX_LIST_ITEMS);
        for (int i = 0; i < report.probes().size(); i++) {
            ProbeStatus p = report.probes().get(i);
            String at = "probes[" + i + "]";
            required(at, p);
            text(at + ".name", p.name(), MAX_NAME_CHARS, true);
            nonNegative(at + ".durationMs", p.durationMs());
            text(at + ".error", p.error(), MAX_TEXT_CHARS, false);
            text(at + ".hint", p.hint(), MAX_TEXT_CHARS, false);
        }
    }

    private static void checkHost(HostFacts host) {
        text("host.hostname", host.hostname(), MAX_NAME_CHARS, false);
        if (host.cpu() != null) {
            text("host.cpu.vendor", host.cpu().vendor(), MAX_NAME_CHARS, false);
            text("host.cpu.model", host.cpu().model(), MAX_NAME_CHARS, false);
        }
        if (host.system() != null) {
            text("host.system.manufacturer", host.system().manufacturer(), MAX_NAME_CHARS, false);
            text("host.system.model", host.system().model(), MAX_NAME_CHARS, false);
        }
        text("host.virtualization", host.virtualization(), MAX_NAME_CHARS, false);
        if (host.memoryBytes() != null) {
            nonNegative("host.memoryBytes", host.memoryBytes());
        }
    }

    private static void checkQat(QatFacts qat) {
        size("qat.devices", qat.devices(), MAX_LIST_ITEMS);
        for (int i = 0; i < qat.devices().size(); i++) {
            QatDevice d = qat.devices().get(i);
            String at = "qat.devices[" + i + "]";
            required(at, d);
            text(at + ".address", d.address(), MAX_NAME_CHARS, true);
            text(at + ".pciId", d.pciId(), 32, true);
            required(at + ".function", d.function());
            text(at + ".generation", d.generation(), 32, false);
            text(at + ".driver", d.driver(), MAX_NAME_CHARS, false);
            text(at + ".state", d.state(), 32, false);
            names(at + ".services", d.services());
        }
    }

    private static void checkLicence(LicenceFacts licence) {
        required("licence.verdict", licence.verdict());
        size("licence.intelComponents", licence.intelComponents(), MAX_LIST_ITEMS);
        for (int i = 0; i < licence.intelComponents().size(); i++) {
            LicenceFacts.IntelComponent c = licence.intelComponents().get(i);
            String at = "licence.intelComponents[" + i + "]";
            required(at, c);
            required(at + ".kind", c.kind());
            text(at + ".description", c.description(), MAX_NAME_CHARS, false);
        }
        size("licence.notes", licence.notes(), MAX_LIST_ITEMS);
        for (int i = 0; i < licence.notes().size(); i++) {
            text("licence.notes[" + i + "]", licence.notes().get(i), MAX_TEXT_CHARS, true);
        }
    }

    private static void checkInstance(String at, SqlInstanceSnapshot s, Instant now) {
        required(at, s);
        required(at + ".name", s.name());
        if (!IDENTIFIER.matcher(s.name()).matches()) {
            throw new ReportFormatException(at + ".name",
                    "instance name must be 1 to 64 letters, digits or _ $ # . - starting with a letter, digit or _ (no spaces or path separators)");
        }
        time(at + ".collectedAt", s.collectedAt(), now, true);
        if (s.backupHighWaterMark() != null) {
            nonNegative(at + ".backupHighWaterMark", s.backupHighWaterMark());
        }
        if (s.databases() != null) {
            size(at + ".databases", s.databases(), MAX_DATABASES);
            for (int i = 0; i < s.databases().size(); i++) {
                DatabaseInfo d = s.databases().get(i);
                String dat = at + ".databases[" + i + "]";
                required(dat, d);
                text(dat + ".name", d.name(), 128, true);
                text(dat + ".databaseGuid", d.databaseGuid(), 64, false);
                text(dat + ".familyGuid", d.familyGuid(), 64, false);
                text(dat + ".groupDatabaseId", d.groupDatabaseId(), 64, false);
                text(dat + ".availabilityGroupId", d.availabilityGroupId(), 64, false);
                text(dat + ".tdeEncryptorThumbprint", d.tdeEncryptorThumbprint(), 128, false);
                text(dat + ".tdeEncryptorType", d.tdeEncryptorType(), 32, false);
            }
        }
        if (s.backups() != null) {
            size(at + ".backups", s.backups(), MAX_BACKUPS_PER_INSTANCE);
            for (int i = 0; i < s.backups().size(); i++) {
                checkBackup(at + ".backups[" + i + "]", s.backups().get(i), now);
            }
        }
        if (s.runningBackups() != null) {
            size(at + ".runningBackups", s.runningBackups(), MAX_LIST_ITEMS);
            for (int i = 0; i < s.runningBackups().size(); i++) {
                RunningBackup r = s.runningBackups().get(i);
                String rat = at + ".runningBackups[" + i + "]";
                required(rat, r);
                text(rat + ".command", r.command(), 64, true);
                text(rat + ".databaseName", r.databaseName(), 128, false);
                time(rat + ".startedAt", r.startedAt(), now, true);
                if (!(r.percentComplete() >= 0 && r.percentComplete() <= 100)) {
                    throw new ReportFormatException(rat + ".percentComplete", "must be between 0 and 100");
                }
                nonNegative(rat + ".elapsedSeconds", r.elapsedSeconds());
            }
        }
        if (s.certificates() != null) {
            size(at + ".certificates", s.certificates(), MAX_LIST_ITEMS);
            for (int i = 0; i < s.certificates().size(); i++) {
                CertificateInfo c = s.certificates().get(i);
                String cat = at + ".certificates[" + i + "]";
                required(cat, c);
                text(cat + ".name", c.name(), 128, true);
                text(cat + ".thumbprint", c.thumbprint(), 128, false);
            }
        }
        if (s.asymmetricKeys() != null) {
            size(at + ".asymmetricKeys", s.asymmetricKeys(), MAX_LIST_ITEMS);
            for (int i = 0; i < s.asymmetricKeys().size(); i++) {
                AsymmetricKeyInfo k = s.asymmetricKeys().get(i);
                String kat = at + ".asymmetricKeys[" + i + "]";
                required(kat, k);
                text(kat + ".name", k.name(), 128, true);
                text(kat + ".thumbprint", k.thumbprint(), 128, false);
                text(kat + ".providerType", k.providerType(), 120, false);
                text(kat + ".privateKeyEncryption", k.privateKeyEncryption(), 60, false);
            }
        }
        if (s.runningBackupsHiddenFor() != null) {
            size(at + ".runningBackupsHiddenFor", s.runningBackupsHiddenFor(), MAX_DATABASES);
            for (int i = 0; i < s.runningBackupsHiddenFor().size(); i++) {
                text(at + ".runningBackupsHiddenFor[" + i + "]", s.runningBackupsHiddenFor().get(i), 128, true);
            }
        }
        if (s.configuration() != null) {
            size(at + ".configuration", s.configuration(), MAX_LIST_ITEMS);
            for (int i = 0; i < s.configuration().size(); i++) {
                required(at + ".configuration[" + i + "]", s.configuration().get(i));
                text(at + ".configuration[" + i + "].name", s.configuration().get(i).name(), MAX_NAME_CHARS, true);
            }
        }
        if (s.accelerators() != null) {
            size(at + ".accelerators", s.accelerators(), MAX_LIST_ITEMS);
            for (int i = 0; i < s.accelerators().size(); i++) {
                required(at + ".accelerators[" + i + "]", s.accelerators().get(i));
                text(at + ".accelerators[" + i + "].accelerator", s.accelerators().get(i).accelerator(), 64, true);
            }
        }
    }

    private static void checkBackup(String at, BackupRecord b, Instant now) {
        required(at, b);
        if (b.backupSetId() <= 0) {
            throw new ReportFormatException(at + ".backupSetId", "must be a positive backup_set_id");
        }
        text(at + ".databaseName", b.databaseName(), 128, true);
        text(at + ".databaseGuid", b.databaseGuid(), 64, false);
        required(at + ".type", b.type());
        if (!BACKUP_TYPES.contains(b.type())) {
            throw new ReportFormatException(at + ".type", "must be one of D, I, L, F, G, P, Q (msdb backupset.type)");
        }
        time(at + ".startedAt", b.startedAt(), now, true);
        time(at + ".finishedAt", b.finishedAt(), now, true);
        if (b.finishedAt().isBefore(b.startedAt())) {
            throw new ReportFormatException(at + ".finishedAt", "finishes before it starts");
        }
        nonNegative(at + ".backupSizeBytes", b.backupSizeBytes());
        if (b.compressedSizeBytes() != null) {
            nonNegative(at + ".compressedSizeBytes", b.compressedSizeBytes());
        }
        text(at + ".compressionAlgorithm", b.compressionAlgorithm(), 32, false);
        text(at + ".keyAlgorithm", b.keyAlgorithm(), 32, false);
        text(at + ".encryptorThumbprint", b.encryptorThumbprint(), 128, false);
        text(at + ".encryptorType", b.encryptorType(), 32, false);
        text(at + ".deviceType", b.deviceType(), 32, false);
        text(at + ".target", b.target(), 32, false);
        text(at + ".familyGuid", b.familyGuid(), 64, false);
    }

    private static void required(String field, Object value) {
        if (value == null) {
            throw new ReportFormatException(field, "is required");
        }
    }

    private static void nonNegative(String field, long value) {
        if (value < 0) {
            throw new ReportFormatException(field, "must not be negative (was " + value + ")");
        }
    }

    private static void size(String field, List<?> list, int max) {
        if (list != null && list.size() > max) {
            throw new ReportFormatException(field, "has " + list.size() + " items; at most " + max + " are accepted");
        }
    }

    private static void names(String field, List<String> values) {
        size(field, values, 64);
        for (int i = 0; i < values.size(); i++) {
            text(field + "[" + i + "]", values.get(i), 64, true);
        }
    }

    private static void time(String field, Instant value, Instant now, boolean requiredValue) {
        if (value == null) {
            if (requiredValue) {
                throw new ReportFormatException(field, "is required (UTC ISO-8601, e.g. 2026-01-02T03:04:05Z)");
            }
            return;
        }
        if (value.isAfter(now.plus(MAX_FUTURE))) {
            throw new ReportFormatException(field, "is in the future (" + value + "); check the agent host's clock");
        }
        if (value.isBefore(EARLIEST)) {
            throw new ReportFormatException(field, "is before " + EARLIEST + " (" + value + ")");
        }
    }

    /** Bounded length and no control characters: what reaches logs, chat and HTML stays one clean line. */
    static void text(String field, String value, int maxChars, boolean requiredValue) {
        if (value == null) {
            if (requiredValue) {
                throw new ReportFormatException(field, "is required");
            }
            return;
        }
        if (requiredValue && value.isBlank()) {
            throw new ReportFormatException(field, "must not be blank");
        }
        if (value.length() > maxChars) {
            throw new ReportFormatException(field, "is " + value.length() + " characters long; at most " + maxChars);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw new ReportFormatException(field, String.format("contains control character U+%04X at %d", (int) c, i));
            }
        }
    }
}
