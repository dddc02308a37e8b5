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

    /** The digit-by-digit reading of instants agrees with {@link Instant#parse}, and refuses what it refuses. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"2026-11-30T06:15:00Z", "2026-11-30T06:15:00.6Z",
        "2026-11-30T06:15:00.123456789Z", "2024-02-29T23:59:59.05Z", "1990-01-01T00:00:00Z", "2026-12-31T12:00:00.000Z",
        "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z",
        "2026-11-30T23:59:60Z", "2026-13-01T00:00:00Z", "2026-11-30T06:15:00.Z", "2026-11-30T06:15:00.1234567890Z",
        "2026-11-30 06:15:00Z", "2026-11-30T06:15:00", "+2026-11-30T06:15:00Z", "2026-1-30T06:15:00Z", "２026-11-30T06:15:00Z"})
    void instantsReadAsInstantParseReadsThem(String text) {
        Instant expected;
        try {
            expected = java.util.regex.Pattern.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z", text)
                    ? Instant.parse(text) : null;
        } catch (java.time.format.DateTimeParseException e) {
            expected = null;
        }
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replaceFirst("\"createdAt\" : \"[^\"]*\"", "\"createdAt\" : \"" + text + "\"");
        var violation = ReportValidator.validate(json.getBytes(StandardCharsets.UTF_8), NOW.plus(java.time.Duration.ofDays(400)));
        if (expected == null) {
            assertThat(violation).hasValueSatisfying(v -> assertThat(v.field()).isEqualTo("createdAt"));
        } else if (expected.isBefore(ReportValidator.EARLIEST)) {
            assertThat(violation).isPresent();
        } else {
            assertThat(violation).as(text).isEmpty();
        }
    }

    /** A name twice in one object is refused wherever it is: a schema field, a field it does not list, a map's key. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"\"schemaVersion\" : 1", "\"type\" : \"D\""})
    void aDuplicateNameIsRefused(String field) {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8);
        assertThat(json).contains(field);
        String twice = json.replaceFirst(java.util.regex.Pattern.quote(field),
                java.util.regex.Matcher.quoteReplacement(field + ", " + field));
        assertThat(ReportValidator.validate(twice.getBytes(StandardCharsets.UTF_8), NOW))
                .hasValueSatisfying(v -> assertThat(v.error()).contains("Duplicate field"));
        String unknown = json.replaceFirst("\\{", "{ \"extra\" : 1, \"extra\" : 2, ");
        assertThat(ReportValidator.validate(unknown.getBytes(StandardCharsets.UTF_8), NOW))
                .hasValueSatisfying(v -> assertThat(v.error()).contains("Duplicate field 'extra'"));
        String nested = json.replaceFirst("\\{", "{ \"extra\" : { \"a\" : 1, \"a\" : 2 }, ");
        assertThat(ReportValidator.validate(nested.getBytes(StandardCharsets.UTF_8), NOW))
                .hasValueSatisfying(v -> assertThat(v.error()).contains("Duplicate field 'a'"));
    }
}
