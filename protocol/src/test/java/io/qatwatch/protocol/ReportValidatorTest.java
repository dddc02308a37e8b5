package io.qatwatch.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportValidatorTest {

    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "schema version 2          | \"schemaVersion\" : 1                | \"schemaVersion\" : 2                     | schemaVersion",
        "short report id           | \"5f0c2a1e-8b7d-4c36-9a51-0d2e6f4b7c19\" | \"x\"                          | reportId",
        "created far in the future | \"2026-11-30T06:15:00Z\"              | \"2031-01-01T00:00:00Z\"                  | createdAt",
        "negative size             | 130738401280                         | -5                                       | instances[0].backups[0].backupSizeBytes",
        "finish before start       | \"2026-11-30T00:34:00.600Z\"          | \"2026-11-29T00:34:00Z\"                  | instances[0].backups[0].finishedAt",
        "unknown backup type       | \"type\" : \"D\"                        | \"type\" : \"X\"                            | instances[0].backups[0].type",
        "path in instance name     | \"name\" : \"MSSQLSERVER\"              | \"name\" : \"../../etc\"                    | instances[0].name",
        "dot-dot instance name     | \"name\" : \"MSSQLSERVER\"              | \"name\" : \"..\"                           | instances[0].name",
        "control char in database  | \"databaseName\" : \"Sales\"            | \"databaseName\" : \"Sa\\u0007les\"         | instances[0].backups[0].databaseName",
        "blank agent name          | \"name\" : \"sql01\"                    | \"name\" : \" \"                            | agent.name",
        "control char in family    | \"familyGuid\" : \"3f2504e0            | \"familyGuid\" : \"\\u00003f2504e0          | instances[0].databases[0].familyGuid",
        "blank hidden database     | \"runningBackupsHiddenFor\" : [ ]     | \"runningBackupsHiddenFor\" : [ \" \" ]      | instances[0].runningBackupsHiddenFor[0]",
        "unnamed asymmetric key    | \"asymmetricKeys\" : [ ]              | \"asymmetricKeys\" : [ { \"thumbprint\" : \"0x01\", \"usedForBackupEncryption\" : true } ] | instances[0].asymmetricKeys[0].name",
    })
    void firstViolationNamesTheField(String scenario, String from, String to, String field) {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8);
        assertThat(json).contains(from);
        AgentReport report = ReportJson.parse(json.replaceFirst(java.util.regex.Pattern.quote(from),
                java.util.regex.Matcher.quoteReplacement(to)).getBytes(StandardCharsets.UTF_8));
        assertThat(ReportValidator.validate(report, NOW))
                .hasValueSatisfying(v -> assertThat(v.field()).isEqualTo(field));
    }
}
