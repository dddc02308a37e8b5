package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The three .deb files as dpkg sees them: contents, control fields, units, scripts, and a launcher that runs. */
class DebianPackagesIT {

    @Test
    void commonHoldsTheLauncherAndItsSymlinkInBin() {
        assertThat(files("qatwatch-common")).containsExactlyInAnyOrder(
                "-rwxr-xr-x root/root usr/share/qatwatch/qatwatch",
                "l root/root usr/bin/qatwatch -> ../share/qatwatch/qatwatch",
                "-rw-r--r-- root/root usr/share/doc/qatwatch-common/install.md",
                "-rw-r--r-- root/root usr/share/doc/qatwatch-common/copyright");
        assertThat(field("qatwatch-common", "Depends")).isEqualTo("default-jre-headless (>= 2:1.17) | java17-runtime-headless");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector"})
    void serviceHoldsItsJarUnitAndAConfigOnlyRootCanRead(String role) {
        String name = "qatwatch-" + role;

        assertThat(files(name)).containsExactlyInAnyOrder(
                "-rw-r--r-- root/root usr/share/qatwatch/lib/" + name + ".jar",
                "-rw-r--r-- root/root usr/lib/systemd/system/" + name + ".service",
                "-rw-r----- root/root etc/qatwatch/" + role + ".yaml",
                "-rw-r--r-- root/root usr/share/doc/" + name + "/copyright");
        assertThat(Command.ok(Dist.DIR, "dpkg-deb", "--info", Dist.deb(name).toString(), "conffiles").strip())
                .isEqualTo("/etc/qatwatch/" + role + ".yaml");
        assertThat(field(name, "Depends")).startsWith("qatwatch-common (= ").endsWith("), adduser");
    }

    @Test
    void thePackagedLauncherRunsBothPackagedJars(@TempDir Path root) throws IOException {
        Dist.extract(root, "qatwatch-common", "qatwatch-agent", "qatwatch-collector");
        Path launcher = root.resolve("usr/bin/qatwatch");
        // relative (Debian policy for links within /usr), so it also resolves inside the extracted tree
        assertThat(Files.readSymbolicLink(launcher)).isEqualTo(Path.of("../share/qatwatch/qatwatch"));

        Command version = launch(root, launcher, "version");
        assertThat(version.exitCode()).as(version.output()).isZero();
        assertThat(version.output()).startsWith("qatwatch " + Dist.VERSION + " (report schema ");

        Command tokens = launch(root, launcher, "collector", "token", "list", "--data", root.resolve("var/lib/qatwatch/collector").toString());
        assertThat(tokens.exitCode()).as(tokens.output()).isZero();
        assertThat(tokens.output()).contains("NAME", "KIND", "STATE");
    }

    @Disabled("the launcher's ensure_built wants both jars, so a host with only qatwatch-agent (or only qatwatch-collector)"
            + " exits 1 with 'qatwatch-collector-all.jar is missing': enable once it checks only the jar its command runs")
    @ParameterizedTest
    @ValueSource(strings = {"qatwatch-agent:version", "qatwatch-collector:collector --help"})
    void aHostWithOnePackageRunsItsCommand(String packageAndCommand, @TempDir Path root) {
        String[] parts = packageAndCommand.split(":", 2);
        Dist.extract(root, "qatwatch-common", parts[0]);

        Command run = launch(root, root.resolve("usr/bin/qatwatch"), parts[1].split(" "));

        assertThat(run.exitCode()).as(run.output()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"qatwatch-agent", "qatwatch-collector"})
    void unitPassesSystemdAnalyzeVerifyWithoutAWord(String packageName, @TempDir Path root) throws IOException {
        Dist.extract(root, "qatwatch-common", packageName);
        copyHostUnits(root.resolve("usr/lib/systemd/system"));
        Path unit = root.resolve("usr/lib/systemd/system/" + packageName + ".service");

        // systemd-analyze verify exits 0 on unknown keys and bad values, it only prints them: any output fails
        Command verify = Command.run(root, "systemd-analyze", "verify", "--root=" + root, unit.toString());

        assertThat(verify.output()).isEmpty();
        assertThat(verify.exitCode()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"qatwatch-agent", "qatwatch-collector"})
    void unitExposureStaysAtMost2OutOf10(String packageName, @TempDir Path root) {
        Dist.extract(root, packageName);
        Path unit = root.resolve("usr/lib/systemd/system/" + packageName + ".service");

        // docs/install.md records the levels (agent 1.5, collector 1.3); --threshold is in tenths
        Command security = Command.run(root, "systemd-analyze", "security", "--offline=yes", "--threshold=20", unit.toString());

        assertThat(security.exitCode()).as(security.output()).isZero();
        assertThat(security.output()).containsPattern("Overall exposure level for " + packageName + ".service: \\d\\.\\d OK");
    }

    @ParameterizedTest
    @ValueSource(strings = {"qatwatch-agent", "qatwatch-collector"})
    void maintainerScriptsAreValidPosixShell(String packageName, @TempDir Path control) {
        Command.ok(Dist.DIR, "dpkg-deb", "--control", Dist.deb(packageName).toString(), control.toString());

        for (String script : List.of("postinst", "prerm", "postrm")) {
            Path path = control.resolve(script);
            assertThat(path).isExecutable();
            Command syntax = Command.run(control, "dash", "-n", path.toString());
            assertThat(syntax.exitCode()).as(script + ": " + syntax.output()).isZero();
            if (Command.available("shellcheck")) {
                Command lint = Command.run(control, "shellcheck", "--shell=sh", path.toString());
                assertThat(lint.output()).as(script).isEmpty();
            }
        }
    }

    private static Command launch(Path root, Path launcher, String... args) {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        return Command.run(root, Map.of("QATWATCH_DATA", root.resolve("data").toString()), command);
    }

    /** dpkg-deb -c as "mode owner path" lines for everything but directories, paths without the leading "./", links as "l". */
    private static List<String> files(String packageName) {
        String listing = Command.ok(Dist.DIR, "dpkg-deb", "--contents", Dist.deb(packageName).toString());
        return listing.lines()
                .filter(line -> !line.startsWith("d"))
                .map(line -> {
                    String[] parts = line.trim().split("\\s+", 6);
                    String path = parts[5].startsWith("./") ? parts[5].substring(2) : parts[5];
                    // a symlink's own mode means nothing on Linux
                    String mode = parts[0].startsWith("l") ? "l" : parts[0];
                    return mode + " " + parts[1] + " " + path;
                })
                .toList();
    }

    private static String field(String packageName, String name) {
        return Command.ok(Dist.DIR, "dpkg-deb", "--field", Dist.deb(packageName).toString(), name).strip();
    }

    /** verify --root needs the targets the units name (network-online.target, multi-user.target, ...). */
    private static void copyHostUnits(Path unitDir) throws IOException {
        try (Stream<Path> units = Files.list(Path.of("/usr/lib/systemd/system"))) {
            for (Path unit : (Iterable<Path>) units.filter(Files::isRegularFile)::iterator) {
                Path target = unitDir.resolve(unit.getFileName());
                if (!Files.exists(target)) {
                    Files.copy(unit, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        assertThat(Arrays.asList(unitDir.toFile().list())).contains("network-online.target", "multi-user.target");
    }
}
