package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of the real launcher ({@code ./qatwatch}) of the built tree: {@code --help} prints its usage and exits
 * 0 without doing the command's work, and a flag it does not know exits 2 with the usage.
 */
class EveryCommandHelpsIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final List<List<String>> COMMANDS = List.of(List.of("probe"), List.of("agent"), List.of("agent-cds"),
            List.of("collector"), List.of("collector", "token"), List.of("collector", "token", "add"),
            List.of("collector", "token", "list"), List.of("collector", "token", "revoke"), List.of("collector", "store"),
            List.of("collector", "store", "copy"), List.of("up"), List.of("demo"), List.of("tds-server"), List.of("version"));

    @TempDir
    Path cwd;

    private record Run(int exit, String output) {
    }

    private Run qatwatch(Path archive, List<String> command, String flag) throws Exception {
        List<String> line = new ArrayList<>(List.of(REPO.resolve("qatwatch").toString()));
        line.addAll(command);
        line.add(flag);
        Path log = Files.createTempFile(cwd, "out", ".log");
        ProcessBuilder builder = new ProcessBuilder(line).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("QATWATCH_DATA");
        builder.environment().put("QATWATCH_AGENT_CDS", archive.toString());
        Process p = builder.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("qatwatch " + String.join(" ", line.subList(1, line.size())) + " did not finish: "
                    + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log));
    }

    @Test
    void helpHelpsAndABadFlagExitsTwoForEveryCommand() throws Exception {
        Path archive = cwd.resolve("agent.jsa");
        for (List<String> command : COMMANDS) {
            String name = String.join(" ", command);
            Run help = qatwatch(archive, command, "--help");
            assertThat(help.exit()).as("qatwatch %s --help: %s", name, help.output()).isZero();
            assertThat(help.output()).as("qatwatch %s --help", name).contains("Usage: qatwatch " + name)
                    .doesNotContain("Exception");
            Run bad = qatwatch(archive, command, "--no-such-flag");
            assertThat(bad.exit()).as("qatwatch %s --no-such-flag: %s", name, bad.output()).isEqualTo(2);
            // a command with a required option may name that one first; either way the answer shows the usage
            assertThat(bad.output()).as("qatwatch %s --no-such-flag", name).containsAnyOf("--no-such-flag", "Missing required")
                    .contains("Usage: qatwatch " + name);
        }
        assertThat(archive).as("agent-cds --help dumps no archive").doesNotExist();
        assertThat(cwd.resolve(".qatwatch")).as("no command made a data directory").doesNotExist();
        Run top = qatwatch(archive, List.of(), "--no-such-flag");
        assertThat(top.exit()).isEqualTo(2);
        assertThat(qatwatch(archive, List.of(), "--help").output()).contains("Each command takes --help.");
    }
}
