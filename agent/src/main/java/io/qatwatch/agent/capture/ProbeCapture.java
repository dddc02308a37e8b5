package io.qatwatch.agent.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.qatwatch.agent.probe.HostInventoryProbes.HostReads;
import io.qatwatch.agent.probe.host.LinuxRoot;
import io.qatwatch.agent.probe.host.RegistryView;
import io.qatwatch.agent.probe.sqlserver.SqlRecorder;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.Version;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * {@code qatwatch probe --capture DIR}: what one probe read, written so that it can be replayed elsewhere and give
 * the same report. {@code DIR/root/} holds the Linux files (for {@code probe --root}), {@code DIR/registry.reg} the
 * Windows keys (for {@code probe --registry}), {@code DIR/sqlserver-<instance>.json} every SQL answer as a TDS
 * scenario (for {@code qatwatch tds-server --scenario}), {@code DIR/report.json} the report the probe made, and
 * {@code DIR/README.txt} how to replay it. With {@code --anonymize} names are replaced in all of them alike.
 */
public final class ProbeCapture implements HostReads {

    private final Path dir;
    private final List<String> problems = new ArrayList<>();
    private final SqlCapture sql = new SqlCapture();
    private RootCapture root;
    private RegistryCapture registry;

    private ProbeCapture(Path dir) {
        this.dir = dir;
    }

    /** A capture into {@code dir}, which must be new or empty (nothing is overwritten). */
    public static ProbeCapture into(Path dir) {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(dir + " is a file: give a new folder for the capture");
            }
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException(dir + " is not empty: give a new folder for the capture");
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + dir + ": " + e.getMessage());
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create " + dir + ": " + e.getMessage());
        }
        return new ProbeCapture(dir);
    }

    @Override
    public LinuxRoot linux(LinuxRoot linux) {
        Path target = dir.resolve("root");
        try {
            Files.createDirectories(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + target, e);
        }
        root = new RootCapture(linux.folder(), target, problems);
        return linux.observed(root);
    }

    @Override
    public RegistryView registry(RegistryView view) {
        registry = new RegistryCapture(view);
        return registry;
    }

    /** Sees the SQL Server probe's answers. */
    public SqlRecorder sql() {
        return sql;
    }

    /** What was written, the names replaced (to show the person who captured, never saved), and what went wrong. */
    public record Written(Path dir, List<Path> files, Map<String, String> replacements, List<String> problems) {
    }

    /**
     * Writes the capture of {@code report}. {@code login} is the SQL login the probe used (null for Windows
     * authentication or no SQL Server); with {@code anonymize} it is replaced like the names in the report.
     */
    public Written write(AgentReport report, String login, boolean anonymize) {
        NameMap names = anonymize ? NameMap.of(report, login) : null;
        UnaryOperator<String> strings = names == null ? UnaryOperator.identity() : names;
        List<Path> files = new ArrayList<>();
        try {
            if (root != null) {
                if (names != null) {
                    anonymizeFiles(root.folder(), names);
                }
                files.add(root.folder());
            }
            if (registry != null) {
                files.add(Files.write(dir.resolve("registry.reg"), registry.export(strings)));
            }
            String instance = report.instances().isEmpty() ? null : strings.apply(report.instances().get(0).name());
            Path scenario = null;
            if (!sql.isEmpty()) {
                String name = "sqlserver-" + instance;
                scenario = dir.resolve(name + ".json");
                Files.writeString(scenario, sql.scenario(name, "SQL Server " + instance + " as qatwatch probe --capture read it"
                        + (anonymize ? ", names anonymized" : "") + "; created " + report.createdAt(),
                        "qatwatch " + Version.current(), strings));
                files.add(scenario);
            }
            files.add(Files.writeString(dir.resolve("report.json"), reportJson(report, strings)));
            files.add(Files.writeString(dir.resolve("README.txt"),
                    readme(report, instance, scenario, login == null ? null : strings.apply(login), anonymize)));
        } catch (IOException e) {
            problems.add("cannot write the capture into " + dir + ": " + e.getMessage());
        }
        return new Written(dir, files, names == null ? Map.of() : names.replacements(), List.copyOf(problems));
    }

    private static String reportJson(AgentReport report, UnaryOperator<String> strings) {
        JsonNode tree = ReportJson.mapper().valueToTree(report);
        return ReportJson.toPrettyString(replaceText(tree, strings)) + "\n";
    }

    /** The tree with every text value passed through {@code strings}; names of fields are left alone. */
    static JsonNode replaceText(JsonNode node, UnaryOperator<String> strings) {
        if (node.isTextual()) {
            return TextNode.valueOf(strings.apply(node.asText()));
        }
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                field.setValue(replaceText(field.getValue(), strings));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, replaceText(array.get(i), strings));
            }
        }
        return node;
    }

    private void anonymizeFiles(Path folder, NameMap names) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList();
        }
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length == 0) {
                continue;
            }
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException binary) {
                problems.add("/" + folder.relativize(file) + " is not text: names in it were not replaced");
                continue;
            }
            String replaced = names.apply(text);
            if (!replaced.equals(text)) {
                Files.writeString(file, replaced);
            }
        }
    }

    private String readme(AgentReport report, String instance, Path scenario, String login, boolean anonymize) {
        StringBuilder out = new StringBuilder();
        out.append("A capture by qatwatch ").append(Version.current()).append(" probe --capture, ").append(report.createdAt())
                .append(anonymize ? ", names anonymized" : "").append(".\n")
                .append("It holds what the probe read, and nothing else. Look through it before you attach it to a report.\n\n");
        if (root != null) {
            out.append("root/          the Linux files the probe read (a file only listed is empty)\n");
        }
        if (registry != null) {
            out.append("registry.reg   the registry keys the probe read (reg export format)\n");
        }
        if (scenario != null) {
            out.append(scenario.getFileName()).append("   every answer of SQL Server ").append(instance)
                    .append(" with its column types (a TDS test server scenario)\n");
        }
        out.append("report.json    the report the probe made\n\nReplay (from a clone of qatwatch, or where it is installed):\n\n");
        String hostArgs = root != null ? " --root " + dir.resolve("root") : registry != null ? " --registry " + dir.resolve("registry.reg") : "";
        if (scenario != null) {
            String url = "jdbc:sqlserver://127.0.0.1" + ("MSSQLSERVER".equals(instance) ? "" : "\\" + instance) + ":14330;encrypt=false";
            out.append("  qatwatch tds-server --scenario ").append(scenario).append(" --port 14330 &\n")
                    .append("  QATWATCH_SQL_PASSWORD=any qatwatch probe --json").append(hostArgs).append(" --sql '").append(url)
                    .append("' --sql-user ").append(login == null ? "any" : login).append("\n");
        } else {
            out.append("  qatwatch probe --json").append(hostArgs).append("\n");
        }
        out.append("\nThe replayed report equals report.json except its reportId, createdAt, durations and the SQL Server address.\n");
        List<String> differences = new ArrayList<>();
        if (report.probes().stream().map(ProbeStatus::name).anyMatch("oshi"::equals)) {
            differences.add("OSHI filled in facts the files do not hold (host name, OS, memory or hypervisor): a replay has only what the files say.");
        }
        if (registry != null && report.host() != null && report.host().memoryBytes() != null) {
            differences.add("Windows: the memory size and the QAT library files (qatzip.dll, isa-l.dll) come from the live machine, not the registry: a replay from registry.reg lacks them.");
        }
        if (scenario == null && !report.instances().isEmpty()) {
            differences.add("SQL Server answered nothing (see the connect probe in report.json), so there is no scenario to replay.");
        }
        if (!differences.isEmpty()) {
            out.append("\nKnown differences:\n");
            differences.forEach(d -> out.append("  - ").append(d).append('\n'));
        }
        return out.toString();
    }
}
