package io.qatwatch.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the agent read may not fit the text rules; tidied, the report is one the collector accepts. */
class ReportTidyTest {

    private static final Instant NOW = Instant.parse(SchemaSamples.NOW);

    static Stream<SchemaSamples.Breach> textBreaches() {
        return SchemaSamples.breaches().stream()
                .filter(b -> b.name().endsWith("with a control character") || b.name().endsWith("with a lone surrogate")
                        || b.name().endsWith("one character too long"))
                .filter(ReportTidyTest::isFreeText);
    }

    private static boolean isFreeText(SchemaSamples.Breach b) {
        String path = b.name().substring(0, b.name().indexOf(' '));
        ReportSchema.Type t = ReportSchema.paths().get(path.endsWith("[]") ? path.substring(0, path.length() - 2) : path).type();
        while (t instanceof ReportSchema.ListOf l) {
            t = l.item();
        }
        return t instanceof ReportSchema.Text text && text.values().isEmpty() && text.pattern() == null;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("textBreaches")
    void freeTextThatBreaksARuleIsMadeToFitAndTheReportIsAccepted(SchemaSamples.Breach breach) throws Exception {
        byte[] bad = breach.body();
        assertThat(ReportValidator.validate(bad, NOW)).isPresent();
        byte[] tidied = ReportTidy.tidy(bad);
        assertThat(ReportValidator.validate(tidied, NOW)).isEmpty();
        JsonNode value = ReportJson.mapper().readTree(tidied).at(SchemaSamples.pointer(breach.field()));
        if (breach.name().endsWith("with a control character")) {
            assertThat(value.asText()).isEqualTo("a ");
        } else if (breach.name().endsWith("with a lone surrogate")) {
            assertThat(value.asText()).isEqualTo("a\ufffd");
        } else {
            assertThat(value.asText()).endsWith("…").doesNotContain("\u0000");
        }
    }

    @Test
    void aReportThatFitsIsLeftAsItIs() {
        byte[] golden = GoldenReports.bytes(GoldenReports.COMPLETE);
        assertThat(ReportTidy.tidy(golden)).isSameAs(golden);
    }

    @Test
    void enumValuesAreNotTouched() {
        String json = new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8)
                .replace("\"deviceType\" : \"DISK\"", "\"deviceType\" : \"DI\\u0007SK\"");
        byte[] tidied = ReportTidy.tidy(json.getBytes(StandardCharsets.UTF_8));
        assertThat(ReportValidator.validate(tidied, NOW)).hasValueSatisfying(v ->
                assertThat(v.field()).isEqualTo("instances[0].backups[0].deviceType"));
    }
}
