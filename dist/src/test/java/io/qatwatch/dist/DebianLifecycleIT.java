package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Install, upgrade, remove and purge the agent package with the real dpkg and the real maintainer scripts,
 * inside a throw-away root (src/test/resources/dpkg-root.sh), and check what a DBA would look at afterwards.
 */
class DebianLifecycleIT {

    private static final String CONFIG = "etc/qatwatch/agent.yaml";
    private static final String STATE = "var/lib/qatwatch/agent";

    @TempDir
    Path work;

    @BeforeAll
    static void needsRootForMountsAndChroot() {
        assumeThat(Command.ok(Path.of("."), "id", "-u").strip()).as("dpkg --root with chroot needs root").isEqualTo("0");
        assumeThat(Command.available("unshare")).as("unshare (util-linux)").isTrue();
    }

    @Test
    void installUpgradeRemoveAndPurgeLeaveWhatADbaExpects() throws IOException {
        Path root = work.resolve("root");

        // install: a system user, a config only root and that user can read, the unit enabled for boot
        dpkg("--install", Dist.deb("qatwatch-common").toString(), Dist.deb("qatwatch-agent").toString());

        String[] user = passwd(root, "qatwatch-agent").orElseThrow(() -> new AssertionError("no user qatwatch-agent"));
        assertThat(Integer.parseInt(user[2])).as("a system uid").isLessThan(1000);
        assertThat(user[6]).isEqualTo("/usr/sbin/nologin");
        Path config = root.resolve(CONFIG);
        assertThat(Files.getAttribute(config, "unix:mode")).isEqualTo(0100640);
        assertThat(Files.getAttribute(config, "unix:uid")).isEqualTo(0);
        assertThat(Files.getAttribute(config, "unix:gid")).isEqualTo(Integer.parseInt(user[3]));
        assertThat(Files.readString(root.resolve("var/lib/dpkg/statoverride")))
                .contains("root qatwatch-agent 640 /etc/qatwatch/agent.yaml");
        assertThat(root.resolve("etc/systemd/system/multi-user.target.wants/qatwatch-agent.service")).isSymbolicLink();
        assertThat(usr("share/qatwatch/lib/qatwatch-agent.jar")).isRegularFile();

        // the DBA edits the config; the running agent leaves reports in its outbox
        Files.writeString(config, "# edited by the DBA\n", StandardOpenOption.APPEND);
        Path outbox = Files.createDirectories(root.resolve(STATE).resolve("outbox"));
        Files.writeString(outbox.resolve("report-1.json"), "{}");

        // upgrade to a version whose sample config changed: the edited config, the state and the user stay
        String upgrade = dpkg("--install", rebuiltWithNewerVersion("qatwatch-common", "").toString(),
                rebuiltWithNewerVersion("qatwatch-agent", "# a newer sample config\n").toString());

        assertThat(upgrade).contains("Unpacking qatwatch-agent (99.0.0) over");
        assertThat(Files.readString(config)).endsWith("# edited by the DBA\n");
        assertThat(Files.getAttribute(config, "unix:mode")).isEqualTo(0100640);
        assertThat(outbox.resolve("report-1.json")).exists();
        assertThat(passwd(root, "qatwatch-agent").orElseThrow()[2]).isEqualTo(user[2]);

        // remove: the program goes, config and state stay for a later reinstall
        dpkg("--remove", "qatwatch-agent");

        assertThat(usr("share/qatwatch/lib/qatwatch-agent.jar")).doesNotExist();
        assertThat(config).exists();
        assertThat(outbox.resolve("report-1.json")).exists();

        // purge: nothing of the agent is left; the launcher package is untouched
        dpkg("--purge", "qatwatch-agent");

        assertThat(root.resolve("etc/qatwatch")).doesNotExist();
        assertThat(root.resolve("var/lib/qatwatch")).doesNotExist();
        assertThat(passwd(root, "qatwatch-agent")).isEmpty();
        assertThat(Files.readString(root.resolve("etc/group"))).doesNotContain("qatwatch-agent:");
        assertThat(Files.readString(root.resolve("var/lib/dpkg/statoverride"))).doesNotContain("qatwatch");
        assertThat(root.resolve("etc/systemd/system/multi-user.target.wants/qatwatch-agent.service")).doesNotExist();
        assertThat(usr("share/qatwatch/qatwatch")).as("qatwatch-common stays").exists();
    }

    private String dpkg(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("dpkg.root.script", "target/test-classes/dpkg-root.sh")).toAbsolutePath().toString());
        command.add(work.toString());
        command.addAll(List.of(args));
        Command result = Command.run(work, Map.of(), command);
        assertThat(result.exitCode()).as(String.join(" ", args) + "\n" + result.output()).isZero();
        return result.output();
    }

    /** The package again as version 99.0.0 (what an upgrade brings), optionally with a changed sample config. */
    private Path rebuiltWithNewerVersion(String packageName, String configAddition) throws IOException {
        Path tree = work.resolve("rebuild-" + packageName);
        Command.ok(work, "dpkg-deb", "--raw-extract", Dist.deb(packageName).toString(), tree.toString());
        Path control = tree.resolve("DEBIAN/control");
        String version = Command.ok(work, "dpkg-deb", "--field", Dist.deb(packageName).toString(), "Version").strip();
        Files.writeString(control, Files.readString(control).replace(version, "99.0.0"));
        if (!configAddition.isEmpty()) {
            Path config = tree.resolve(CONFIG);
            Files.writeString(config, configAddition, StandardOpenOption.APPEND);
            Path md5sums = tree.resolve("DEBIAN/md5sums");
            String sum = Command.ok(tree, "md5sum", CONFIG).strip();
            Files.writeString(md5sums, Files.readString(md5sums).lines()
                    .map(line -> line.endsWith(CONFIG) ? sum : line)
                    .reduce("", (a, b) -> a + b + "\n"));
        }
        Path deb = work.resolve(packageName + "_99.0.0_all.deb");
        Command.ok(work, "dpkg-deb", "--root-owner-group", "-Znone", "--build", tree.toString(), deb.toString());
        return deb;
    }

    /** A file under the root's /usr: outside the mount namespace it lives in the overlay's upper directory. */
    private Path usr(String path) {
        return work.resolve("usr-upper").resolve(path);
    }

    private static Optional<String[]> passwd(Path root, String name) throws IOException {
        return Files.readAllLines(root.resolve("etc/passwd")).stream()
                .map(line -> line.split(":", -1))
                .filter(fields -> fields[0].equals(name))
                .findFirst();
    }
}
