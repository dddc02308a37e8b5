package io.qatwatch.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReportJsonTest {

    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    @Test
    void goldenReportRoundTripsToTheSameJson() throws Exception {
        byte[] golden = GoldenReports.bytes(GoldenReports.COMPLETE);
        AgentReport report = ReportJson.parse(golden);
        JsonNode expected = ReportJson.mapper().readTree(golden);
        JsonNode actual = ReportJson.mapper().readTree(ReportJson.toBytes(report));
        assertThat(actual).isEqualTo(expected);
        assertThat(ReportValidator.validate(report, NOW)).isEmpty();
    }

    @Test
    void contractFieldsKeepTheirNames() {
        AgentReport report = GoldenReports.complete();
        assertThat(report.licence().verdict()).isEqualTo(LicenceVerdict.INTEL_QAT_HARDWARE);
        assertThat(report.qat().devices().get(0).function()).isEqualTo(QatDevice.PciFunction.PF);
        assertThat(report.instances().get(0).backups().get(0).backupSizeBytes()).isEqualTo(130_738_401_280L);
    }

    @Test
    void wrongTypeNamesTheField() {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replace("\"backupSizeBytes\" : 130738401280", "\"backupSizeBytes\" : \"big\"");
        assertThatThrownBy(() -> ReportJson.parse(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ReportFormatException.class,
                        e -> assertThat(e.field()).isEqualTo("instances[0].backups[0].backupSizeBytes"));
    }

    @Test
    void missingOrWrongTypedValuesSayWhatIsExpected() {
        String golden = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8);
        String missing = golden.replace("\"schemaVersion\" : 1,", "");
        assertThatThrownBy(() -> ReportJson.parse(missing.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ReportFormatException.class, e -> {
                    assertThat(e.field()).isEqualTo("schemaVersion");
                    assertThat(e.getMessage()).isEqualTo("is required (an integer)");
                });
        String wrongTime = golden.replace("\"createdAt\" : \"2026-11-30T06:15:00Z\"", "\"createdAt\" : \"yesterday\"");
        assertThatThrownBy(() -> ReportJson.parse(wrongTime.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ReportFormatException.class, e -> {
                    assertThat(e.field()).isEqualTo("createdAt");
                    assertThat(e.getMessage()).startsWith("expected a UTC ISO-8601 time");
                });
    }

    @Test
    void unknownVerdictIsRejectedAtItsPath() {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replace("\"INTEL_QAT_HARDWARE\"", "\"MAYBE\"");
        assertThatThrownBy(() -> ReportJson.parse(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ReportFormatException.class,
                        e -> assertThat(e.field()).isEqualTo("licence.verdict"));
    }

    @Test
    void malformedJsonIsABodyError() {
        assertThatThrownBy(() -> ReportJson.parse("{\"schemaVersion\": 1,".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ReportFormatException.class, e -> {
                    assertThat(e.field()).isEqualTo("$");
                    assertThat(e.getMessage()).startsWith("malformed JSON");
                });
    }

    @Test
    void unknownFieldsAreIgnoredForForwardCompatibility() {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replaceFirst("\\{", "{ \"addedInVersion2\" : [1, 2],");
        assertThat(ReportJson.parse(json.getBytes(StandardCharsets.UTF_8)).reportId())
                .isEqualTo("5f0c2a1e-8b7d-4c36-9a51-0d2e6f4b7c19");
    }

    @Test
    void aReportWithoutTheFieldsAddedByIssue14ReadsThemAsNull() {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replaceAll(",\\s*\"(familyGuid|groupDatabaseId|availabilityGroupId|autoClose|tdeEncryptorThumbprint|tdeEncryptorType|snapshot)\" : [^,\\n]+", "")
                .replaceAll(",\\s*\"(asymmetricKeys|runningBackupsHiddenFor)\" : \\[ \\]", "");
        assertThat(json).doesNotContain("familyGuid", "snapshot", "asymmetricKeys", "runningBackupsHiddenFor", "autoClose");
        SqlInstanceSnapshot s = ReportJson.parse(json.getBytes(StandardCharsets.UTF_8)).instances().get(0);
        assertThat(s.asymmetricKeys()).isNull();
        assertThat(s.runningBackupsHiddenFor()).as("unknown, not 'nothing hidden'").isNull();
        assertThat(s.databases().get(0).familyGuid()).isNull();
        assertThat(s.databases().get(0).autoClose()).isNull();
        assertThat(s.backups().get(0).snapshot()).isNull();
        assertThat(s.backups().get(0).sizeIsEstimate()).isFalse();
    }

    @Test
    void aBackupIsEncryptedWhenItsKeyAlgorithmNamesOneAndNoEncryptionIsNotOne() {
        SqlInstanceSnapshot.BackupRecord golden = GoldenReports.complete().instances().get(0).backups().get(0);
        assertThat(withKeyAlgorithm(golden, "NO_Encryption").encrypted()).as("what msdb writes for an unencrypted backup").isFalse();
        assertThat(withKeyAlgorithm(golden, null).encrypted()).isFalse();
        assertThat(withKeyAlgorithm(golden, "AES_256").encrypted()).isTrue();
        assertThat(withKeyAlgorithm(golden, "TRIPLE_DES_3KEY").encrypted()).isTrue();
        String written = new String(ReportJson.toBytes(GoldenReports.complete()), StandardCharsets.UTF_8);
        assertThat(written).as("derived, not a wire field").doesNotContain("\"encrypted\"", "sizeIsEstimate");
    }

    private static SqlInstanceSnapshot.BackupRecord withKeyAlgorithm(SqlInstanceSnapshot.BackupRecord b, String keyAlgorithm) {
        return new SqlInstanceSnapshot.BackupRecord(b.backupSetId(), b.databaseName(), b.databaseGuid(), b.type(), b.copyOnly(),
                b.startedAt(), b.finishedAt(), b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(),
                b.compressionAlgorithm(), b.hasChecksums(), keyAlgorithm, b.encryptorThumbprint(), b.encryptorType(),
                b.deviceType(), b.target(), b.familyGuid(), b.snapshot());
    }
}
