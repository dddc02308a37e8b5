package io.qatwatch.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.protocol.ReportSchema.Bool;
import io.qatwatch.protocol.ReportSchema.Decimal;
import io.qatwatch.protocol.ReportSchema.Field;
import io.qatwatch.protocol.ReportSchema.Int;
import io.qatwatch.protocol.ReportSchema.ListOf;
import io.qatwatch.protocol.ReportSchema.Obj;
import io.qatwatch.protocol.ReportSchema.Text;
import io.qatwatch.protocol.ReportSchema.Time;
import io.qatwatch.protocol.ReportSchema.Type;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one table of rules: every field of the records has one, the document shows it, and the validator holds it. */
class ReportSchemaTest {

    private static final Instant NOW = Instant.parse(SchemaSamples.NOW);
    private static final Path DOC = Path.of("..", "docs", "protocol.md");
    private static final String BEGIN = "<!-- field table: generated from ReportSchema";
    private static final String END = "<!-- end of the generated field table -->";

    @Test
    void everyFieldOfTheRecordsHasARuleOfItsTypeAndEveryRuleAField() {
        compare(AgentReport.class, ReportSchema.REPORT, "");
    }

    private static void compare(Class<?> record, Obj obj, String at) {
        List<String> components = Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).toList();
        assertThat(obj.fields().stream().map(Field::name).toList()).as("the fields of %s (%s)", record.getSimpleName(), at)
                .containsExactlyInAnyOrderElementsOf(components);
        for (RecordComponent c : record.getRecordComponents()) {
            Field f = obj.field(c.getName());
            String path = at + c.getName();
            if (c.getType().isPrimitive()) {
                assertThat(f.required()).as("%s is a primitive, so it is required", path).isTrue();
            }
            compareType(c.getType(), c.getGenericType(), f.type(), path);
        }
    }

    private static void compareType(Class<?> type, java.lang.reflect.Type generic, Type rule, String path) {
        if (List.class.isAssignableFrom(type)) {
            assertThat(rule).as(path).isInstanceOf(ListOf.class);
            java.lang.reflect.Type item = ((ParameterizedType) generic).getActualTypeArguments()[0];
            compareType((Class<?>) item, item, ((ListOf) rule).item(), path + "[]");
        } else if (type.isRecord()) {
            assertThat(rule).as(path).isInstanceOf(Obj.class);
            compare(type, (Obj) rule, path + ".");
        } else if (type.isEnum()) {
            assertThat(rule).as(path).isInstanceOf(Text.class);
            assertThat(((Text) rule).values()).as("%s spells the enum's values", path)
                    .containsExactly(Arrays.stream(type.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toArray(String[]::new));
        } else if (type == String.class) {
            assertThat(rule).as(path).isInstanceOf(Text.class);
        } else if (type == Instant.class) {
            assertThat(rule).as(path).isInstanceOf(Time.class);
        } else if (type == int.class || type == Integer.class) {
            assertThat(rule).as(path).isInstanceOf(Int.class);
            assertThat(((Int) rule).max()).as("%s is 32-bit", path).isLessThanOrEqualTo(Integer.MAX_VALUE);
            assertThat(((Int) rule).min()).as("%s is 32-bit", path).isGreaterThanOrEqualTo(Integer.MIN_VALUE);
        } else if (type == long.class || type == Long.class) {
            assertThat(rule).as(path).isInstanceOf(Int.class);
        } else if (type == double.class || type == Double.class) {
            assertThat(rule).as(path).isInstanceOf(Decimal.class);
        } else if (type == boolean.class || type == Boolean.class) {
            assertThat(rule).as(path).isInstanceOf(Bool.class);
        } else {
            throw new AssertionError(path + ": no rule type for " + type);
        }
    }

    @Test
    void docsProtocolShowsTheTableTheValidatorHolds() throws Exception {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("docs/protocol.md has the generated field table").isPositive();
        int tableStart = doc.indexOf('\n', begin) + 1;
        String generated = ReportSchema.markdownTable();
        if (Boolean.getBoolean("qatwatch.regenerateGolden")) {
            Files.writeString(DOC, doc.substring(0, tableStart) + generated + doc.substring(end));
            return;
        }
        assertThat(doc.substring(tableStart, end))
                .as("docs/protocol.md's field table is generated from ReportSchema: run this test with "
                        + "-Dqatwatch.regenerateGolden=true and review the diff").isEqualTo(generated);
    }

    @Test
    void theSampleMadeFromTheSchemaIsValidAndSoIsTheGoldenReport() {
        ReportValidator.check(bytes(SchemaSamples.validReport()), NOW);
        ReportValidator.check(GoldenReports.bytes(GoldenReports.COMPLETE), NOW);
        assertThat(ReportValidator.validate(ReportJson.parse(bytes(SchemaSamples.validReport())), NOW)).isEmpty();
    }

    static Stream<SchemaSamples.Breach> breaches() {
        return SchemaSamples.breaches().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("breaches")
    void everyRuleOfEveryFieldIsHeld(SchemaSamples.Breach breach) {
        assertThatThrownBy(() -> ReportValidator.check(breach.body(), NOW))
                .isInstanceOfSatisfying(ReportFormatException.class, e -> {
                    assertThat(e.field()).as(e.getMessage()).isEqualTo(breach.field());
                    assertThat(e.getMessage()).contains(breach.message());
                });
    }

    @Test
    void thereAreBreachesForEveryField() {
        assertThat(SchemaSamples.breaches()).hasSizeGreaterThan(3 * ReportSchema.paths().size());
    }

    @Test
    void aBackupMayNotFinishBeforeItStarts() {
        ObjectNode report = SchemaSamples.validReport();
        ((ObjectNode) report.at("/instances/0/backups/0")).put("finishedAt", "2026-11-30T05:59:59Z");
        assertViolation(bytes(report), "instances[0].backups[0].finishedAt", "finishes before it starts");
    }

    @Test
    void stringsInFieldsTheSchemaDoesNotKnowObeyTheRulesForEveryString() {
        ObjectNode long_ = SchemaSamples.validReport();
        ((ObjectNode) long_.get("agent")).put("addedLater", "x".repeat(100 * 1024));
        assertViolation(bytes(long_), "agent.addedLater", "64 KiB");

        ObjectNode nested = SchemaSamples.validReport();
        nested.putObject("future").putArray("list").addObject().put("note", "bell\u0007");
        assertViolation(bytes(nested), "future.list[0].note", "control character U+0007");

        ObjectNode badName = SchemaSamples.validReport();
        badName.put("new\nfield", 1);
        assertViolation(bytes(badName), "new\nfield", "control character U+000A");

        ObjectNode fine = SchemaSamples.validReport();
        fine.putObject("future").put("n", 1).put("s", "plain").putArray("a").add(true);
        ReportValidator.check(bytes(fine), NOW);
    }

    @Test
    void theLimitForAnyStringCountsUtf8Bytes() {
        ObjectNode report = SchemaSamples.validReport();
        // 21,846 three-byte characters: under 64 Ki characters, over 64 KiB
        report.put("unknown", "€".repeat(21_846));
        assertViolation(bytes(report), "unknown", "65538 bytes long");
        report.put("unknown", "€".repeat(21_845));
        ReportValidator.check(bytes(report), NOW);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"C0 AF", "C1 BF", "E0 80 AF", "ED A0 80", "ED BF BF", "F0 80 80 AF", "F4 90 80 80", "F5 80 80 80",
            "80", "BF", "C3", "E2 82", "F0 9F 98", "FE", "FF", "C3 28", "E2 28 A1", "00"})
    void malformedUtf8IsRefusedWhereverItIs(String hex) {
        byte[] bad = SchemaSamples.hex(hex);
        String prefix = "{\"schemaVersion\":1,\"reportId\":\"";
        assertViolation(splice(prefix, bad, "\"}"), "$", "not well-formed UTF-8 at byte " + prefix.length() + ":");
        ObjectNode report = SchemaSamples.validReport();
        report.put("unknownField", "PLACEHOLDER");
        String json = new String(bytes(report), StandardCharsets.UTF_8);
        int at = json.indexOf("PLACEHOLDER");
        byte[] whole = splice(json.substring(0, at), bad, json.substring(at + "PLACEHOLDER".length()));
        assertThatThrownBy(() -> ReportValidator.check(whole, NOW)).isInstanceOfSatisfying(ReportFormatException.class,
                e -> assertThat(e.getMessage()).startsWith("not well-formed UTF-8"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"C3 A9", "E2 82 AC", "F0 9F 98 80", "F4 8F BF BF", "ED 9F BF", "EE 80 80", "EF BB BF"})
    void wellFormedUtf8IsAccepted(String hex) {
        ObjectNode report = SchemaSamples.validReport();
        report.put("unknownField", "PLACEHOLDER");
        String json = new String(bytes(report), StandardCharsets.UTF_8);
        int at = json.indexOf("PLACEHOLDER");
        ReportValidator.check(splice(json.substring(0, at), SchemaSamples.hex(hex), json.substring(at + 11)), NOW);
    }

    @Test
    void onlyAJsonObjectIsAReport() {
        assertViolation("".getBytes(StandardCharsets.UTF_8), "$", "empty body");
        assertViolation("null".getBytes(StandardCharsets.UTF_8), "$", "empty body");
        assertViolation("[1]".getBytes(StandardCharsets.UTF_8), "$", "expected the report as a JSON object");
        assertViolation((new String(bytes(SchemaSamples.validReport()), StandardCharsets.UTF_8) + " {}")
                .getBytes(StandardCharsets.UTF_8), "$", "more after");
        assertViolation("{\"a\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8), "$", "Duplicate field");
        assertViolation(("[".repeat(100) + "]".repeat(100)).getBytes(StandardCharsets.UTF_8), "$", "expected the report");
        assertViolation(("{\"x\":" + "[".repeat(100) + "]".repeat(100) + "}").getBytes(StandardCharsets.UTF_8), "$", "malformed JSON");
    }

    private static void assertViolation(byte[] json, String field, String message) {
        assertThatThrownBy(() -> ReportValidator.check(json, NOW)).isInstanceOfSatisfying(ReportFormatException.class, e -> {
            assertThat(e.field()).as(e.getMessage()).isEqualTo(field);
            assertThat(e.getMessage()).contains(message);
        });
    }

    static byte[] bytes(ObjectNode report) {
        try {
            return ReportJson.mapper().writeValueAsBytes(report);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] splice(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
