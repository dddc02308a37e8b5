package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
                "-rw-r--r-- root/root usr/share/doc/qatwatch-common/copyright",
                "-rw-r--r-- root/root usr/share/doc/qatwatch-common/changelog.gz",
                "-rw-r--r-- root/root usr/share/man/man1/qatwatch.1.gz");
        assertThat(field("qatwatch-common", "Depends")).isEqualTo("default-jre-headless (>= 2:1.17) | java17-runtime-headless");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector"})
    void serviceHoldsItsJarUnitAndAConfigOnlyRootCanRead(String role) {
        String name = "qatwatch-" + role;

        List<String> expected = new ArrayList<>(List.of(
                "-rw-r--r-- root/root usr/share/qatwatch/lib/" + name + ".jar",
                "-rw-r--r-- root/root usr/lib/systemd/system/" + name + ".service",
                "-rw-r----- root/root etc/qatwatch/" + role + ".yaml",
                "-rw-r--r-- root/root etc/default/" + name,
                "-rw-r--r-- root/root usr/share/doc/" + name + "/copyright",
                "-rw-r--r-- root/root usr/share/doc/" + name + "/changelog.gz",
                "-rw-r--r-- root/root usr/share/lintian/overrides/" + name));
        if (role.equals("agent")) {
            // postinst dumps it into the agent's class-data archive for the host's Java
            expected.add("-rw-r--r-- root/root usr/share/qatwatch/lib/qatwatch-agent.classlist");
        }
        assertThat(files(name)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Command.ok(Dist.DIR, "dpkg-deb", "--info", Dist.deb(name).toString(), "conffiles").lines())
                .containsExactlyInAnyOrder("/etc/qatwatch/" + role + ".yaml", "/etc/default/" + name);
        assertThat(field(name, "Depends")).startsWith("qatwatch-common (= ").endsWith("), adduser");
    }

    @ParameterizedTest
    @ValueSource(strings = {"qatwatch-common", "qatwatch-agent", "qatwatch-collector"})
    void versionFieldFileNameAndChangelogAgree(String packageName, @TempDir Path root) throws IOException {
        Dist.extract(root, packageName);
        String version = field(packageName, "Version");

        // the Maven version in Debian's spelling: '~' sorts before the release, a '-' would start a Debian revision
        assertThat(version).isEqualTo(Dist.debianVersion());
        assertThat(Dist.deb(packageName).getFileName().toString()).isEqualTo(packageName + "_" + version + "_all.deb");
        String changelog = Command.ok(root, "zcat", root.resolve("usr/share/doc/" + packageName + "/changelog.gz").toString());
        assertThat(changelog).startsWith("qatwatch (" + version + ") ");
        assertThat(changelog).contains(" -- " + field(packageName, "Maintainer") + "  ");
    }

    /** lintian, Debian's package checker, when this machine has it (./run-tests installs it). */
    @Test
    void lintianFindsNoErrorAndNoWarning() {
        assumeThat(Command.available("lintian")).as("lintian is installed").isTrue();

        Command lintian = Command.run(Dist.DIR, "lintian", "--tag-display-limit", "0", Dist.deb("qatwatch-common").toString(),
                Dist.deb("qatwatch-agent").toString(), Dist.deb("qatwatch-collector").toString());

        // what cannot be fixed is overridden with its reason in install/debian/lintian/; errors exit 1
        List<String> findings = lintian.output().lines().filter(line -> line.matches("[EW]: .*")).toList();
        assertThat(findings).as(lintian.output()).isEmpty();
        assertThat(lintian.exitCode()).as(lintian.output()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector"})
    void unitNamesOnlyFilesThePackagesInstall(String role, @TempDir Path root) throws IOException {
        String name = "qatwatch-" + role;
        Dist.extract(root, "qatwatch-common", name);
        Map<String, String> unit = Unit.settings(root.resolve("usr/lib/systemd/system/" + name + ".service"));

        // ExecStart: the launcher (a symlink resolving inside the tree) and the config it is given
        List<String> exec = List.of(unit.get("ExecStart").split(" "));
        assertThat(inTree(root, exec.get(0))).isExecutable();
        assertThat(inTree(root, exec.get(exec.indexOf("--config") + 1))).isRegularFile();
        // the data folder, wherever it is named, is the StateDirectory= that systemd (and postinst) create
        String state = "/var/lib/" + unit.get("StateDirectory");
        assertThat(state).isEqualTo("/var/lib/qatwatch/" + role);
        assertThat(unit.get("Environment")).isEqualTo("QATWATCH_DATA=" + state);
        if (exec.contains("--data")) {
            assertThat(exec.get(exec.indexOf("--data") + 1)).isEqualTo(state);
        }
        // Documentation: the man page and install.md, both in qatwatch-common, which the package depends on
        for (String uri : unit.get("Documentation").split(" ")) {
            if (uri.startsWith("man:")) {
                assertThat(uri).isEqualTo("man:qatwatch(1)");
                assertThat(root.resolve("usr/share/man/man1/qatwatch.1.gz")).isRegularFile();
            } else {
                assertThat(uri).startsWith("file:///");
                assertThat(inTree(root, uri.substring("file://".length()))).isRegularFile();
            }
        }
        // EnvironmentFile: optional for systemd ('-'), and shipped all commented out as a conffile
        String environmentFile = unit.get("EnvironmentFile");
        assertThat(environmentFile).startsWith("-");
        Path defaults = inTree(root, environmentFile.substring(1));
        assertThat(defaults).isRegularFile();
        assertThat(Files.readAllLines(defaults)).allMatch(line -> line.isBlank() || line.startsWith("#"));
    }

    /**
     * The agent waits for its token: the unit is skipped until the file exists that docs/install.md's enrolment
     * writes, and the package's description says so.
     */
    @Test
    void agentUnitStartsOnlyOnceTheTokenFileTheDocsWriteExists(@TempDir Path root) throws IOException {
        Dist.extract(root, "qatwatch-agent");
        Map<String, String> unit = Unit.settings(root.resolve("usr/lib/systemd/system/qatwatch-agent.service"));
        String token = unit.get("ConditionPathExists");

        assertThat(token).isEqualTo("/etc/qatwatch/agent.token");
        assertThat(Files.readString(Dist.REPO.resolve("docs/install.md")))
                .contains("sudo install -o root -g qatwatch-agent -m 0640 /dev/stdin " + token)
                .contains("tokenFile: " + token);
        assertThat(field("qatwatch-agent", "Description").replaceAll("\\s+", " ")).contains("once " + token + " holds the token");
        // a configuration error (exit 2) is not retried into the start limit
        assertThat(unit.get("RestartPreventExitStatus")).isEqualTo("2");
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

        Path data = root.resolve("var/lib/qatwatch/collector");
        Command added = launch(root, launcher, "collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(added.exitCode()).as(added.output()).isZero();
        Command tokens = launch(root, launcher, "collector", "token", "list", "--data", data.toString());
        assertThat(tokens.exitCode()).as(tokens.output()).isZero();
        assertThat(tokens.output()).contains("NAME", "KIND", "STATE");
    }

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
        // it also runs man(1) for each man: Documentation= link; MANPATH lets it find the page in the tree
        Command verify = Command.run(root, Map.of("MANPATH", root.resolve("usr/share/man").toString()),
                List.of("systemd-analyze", "verify", "--root=" + root, unit.toString()));

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

    /** An absolute path of the installed system, inside the unpacked tree. */
    private static Path inTree(Path root, String absolute) {
        assertThat(absolute).startsWith("/");
        return root.resolve(absolute.substring(1));
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
