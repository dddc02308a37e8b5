package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.agent.AgentMain;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Runs {@code qatwatch probe --json} and {@code qatwatch probe} on every host scenario in
 * {@code src/test/resources/hosts} and compares with the golden files in {@code golden/probe}. Regenerate
 * them on purpose with {@code -Dqatwatch.regenerateGolden=true} and review the diff.
 */
class ProbeScenarioGoldenTest {

    static final Path HOSTS = Path.of("src/test/resources/hosts");
    static final Path GOLDEN = Path.of("src/test/resources/golden/probe");
    static final Instant NOW = Instant.parse("2026-11-30T06:15:00Z");
    static final boolean REGENERATE = Boolean.getBoolean("qatwatch.regenerateGolden");

    static Stream<String> scenarios() throws IOException {
        try (Stream<Path> dirs = Files.list(HOSTS)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void jsonMatchesGolden(String scenario) throws IOException {
        Run run = probe(scenario, "--json");
        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
        AgentReport report = ReportJson.parse(run.out().getBytes(StandardCharsets.UTF_8));
        assertThat(ReportValidator.validate(report, NOW)).as("the report is valid on the wire").isEmpty();
        assertThat(report.createdAt()).isEqualTo(NOW);
        compare(GOLDEN.resolve(scenario + ".json"), normalised(run.out()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void textMatchesGolden(String scenario) throws IOException {
        Run run = probe(scenario);
        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
        compare(GOLDEN.resolve(scenario + ".txt"), run.out());
    }

    static Run probe(String scenario, String... extra) {
        Path dir = HOSTS.resolve(scenario);
        List<String> args = new ArrayList<>(List.of("probe"));
        Path registry = dir.resolve("registry.reg");
        if (Files.exists(registry)) {
            args.addAll(List.of("--registry", registry.toString()));
        } else {
            args.addAll(List.of("--root", dir.toString()));
        }
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    /** Runs the CLI as {@code qatwatch ...} would, with the clock fixed, capturing stdout and stderr. */
    static Run run(String... args) {
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ProbeCommand.class) {
                    return cls.cast(new ProbeCommand(Clock.fixed(NOW, ZoneOffset.UTC)));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = AgentMain.commandLine(factory);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    record Run(int exitCode, String out, String err) {
    }

    /** The report with what changes from run to run (id, durations) fixed, and fixture paths made relative. */
    static String normalised(String json) throws IOException {
        ObjectNode root = (ObjectNode) ReportJson.mapper().readTree(json);
        root.put("reportId", "00000000-0000-0000-0000-000000000000");
        ((ObjectNode) root.get("agent")).put("uptimeSeconds", 0);
        for (JsonNode probe : (ArrayNode) root.get("probes")) {
            ((ObjectNode) probe).put("durationMs", 0);
        }
        String text = ReportJson.toPrettyString(root) + "\n";
        return text.replace(HOSTS.toAbsolutePath().toString(), "<hosts>").replace(HOSTS.toString(), "<hosts>");
    }

    static void compare(Path golden, String actual) throws IOException {
        String normalisedActual = actual.replace(HOSTS.toAbsolutePath().toString(), "<hosts>")
                .replace(HOSTS.toString(), "<hosts>");
        if (REGENERATE || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, normalisedActual);
            assertThat(REGENERATE).as("golden file %s was missing and has been written; review and commit it", golden)
                    .isTrue();
        }
        assertThat(normalisedActual).as("output differs from %s (regenerate with -Dqatwatch.regenerateGolden=true)",
                golden).isEqualTo(Files.readString(golden));
    }
}
