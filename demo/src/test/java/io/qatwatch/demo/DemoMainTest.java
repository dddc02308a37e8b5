package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code qatwatch demo}'s command line: version, usage, and a data directory that is not the demo's own. */
class DemoMainTest {

    record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        CommandLine cli = DemoMain.commandLine(new DemoMain());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new Run(cli.execute(args), out.toString(), err.toString());
    }

    @Test
    void versionAndABadFlag() {
        assertThat(run("demo", "-V").out()).startsWith("qatwatch demo ");
        Run bad = run("demo", "--bogus");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("Unknown option: '--bogus'", "Usage: qatwatch demo");
    }

    @Test
    void aFolderWithSomeoneElsesFilesIsNeverWipedTheDemoSaysSoAndExits1(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("precious.txt"), "keep me");
        Run run = run("demo", "--data", tmp.toString(), "--port", "0");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("demo: could not start: " + tmp + " is not empty and is not a demo's data directory");
        assertThat(tmp.resolve("precious.txt")).hasContent("keep me");
    }
}
