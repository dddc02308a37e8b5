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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Install, upgrade, remove and purge the agent package (beside the collector) with the real dpkg and the
 * real maintainer scripts, inside a throw-away root (src/test/resources/dpkg-root.sh), and check what a DBA
 * would look at afterwards.
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

        // install (the collector too, on the same host): a system user each, a config only root and that
        // user can read, the unit enabled for boot
        String install = dpkg("--install", Dist.deb("qatwatch-common").toString(), Dist.deb("qatwatch-agent").toString(),
                Dist.deb("qatwatch-collector").toString());

        // the install output says why the services are not running and what to do
        assertThat(install).contains("qatwatch-agent: installed and enabled, not started: it starts (at boot too) once "
                + "/etc/qatwatch/agent.token exists.", "qatwatch-collector: installed and enabled, not started.");

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
        // the agent's class-data archive, dumped for this Java and this jar; the launcher uses it while they match
        Path archive = root.resolve("var/cache/qatwatch/qatwatch-agent.jsa");
        assertThat(install).contains("qatwatch agent-cds: /var/cache/qatwatch/qatwatch-agent.jsa");
        assertThat(archive).isRegularFile();
        assertThat(Files.readString(root.resolve("var/cache/qatwatch/qatwatch-agent.jsa.stamp")))
                .contains("/usr/share/qatwatch/lib/qatwatch-agent.jar ");
        String[] collector = passwd(root, "qatwatch-collector").orElseThrow(() -> new AssertionError("no user qatwatch-collector"));
        assertThat(collector[2]).isNotEqualTo(user[2]);
        assertThat(Files.getAttribute(root.resolve("etc/qatwatch/collector.yaml"), "unix:gid"))
                .isEqualTo(Integer.parseInt(collector[3]));
        // each state directory exists from the install on, as the unit's StateDirectory= would make it
        assertOwnedDirectory(root.resolve(STATE), user);
        assertOwnedDirectory(root.resolve("var/lib/qatwatch/collector"), collector);

        // enrol before the collector ever started, retire, and check: the commands exactly as docs/install.md has them
        enrolAndRetireAsDocumented(root, collector);

        // the DBA edits the config; the running agent leaves reports in its outbox
        Files.writeString(config, "# edited by the DBA\n", StandardOpenOption.APPEND);
        Path outbox = Files.createDirectories(root.resolve(STATE).resolve("outbox"));
        Files.writeString(outbox.resolve("report-1.json"), "{}");

        // upgrade to a version whose sample config changed: the edited config, the state and the user stay
        String upgrade = dpkg("--install", rebuiltWithNewerVersion("qatwatch-common", "").toString(),
                rebuiltWithNewerVersion("qatwatch-agent", "# a newer sample config\n").toString());

        assertThat(upgrade).contains("Unpacking qatwatch-agent (99.0.0) over", "qatwatch agent-cds: ");
        assertThat(Files.readString(config)).endsWith("# edited by the DBA\n");
        assertThat(Files.getAttribute(config, "unix:mode")).isEqualTo(0100640);
        assertThat(outbox.resolve("report-1.json")).exists();
        assertThat(passwd(root, "qatwatch-agent").orElseThrow()[2]).isEqualTo(user[2]);

        // remove: the program goes, config and state stay for a later reinstall
        dpkg("--remove", "qatwatch-agent");

        assertThat(usr("share/qatwatch/lib/qatwatch-agent.jar")).doesNotExist();
        assertThat(archive).doesNotExist();
        assertThat(config).exists();
        assertThat(outbox.resolve("report-1.json")).exists();

        // purge: nothing of the agent is left; the launcher and the collector are untouched
        dpkg("--purge", "qatwatch-agent");

        assertThat(root.resolve(CONFIG)).doesNotExist();
        assertThat(root.resolve(STATE)).doesNotExist();
        assertThat(root.resolve("etc/qatwatch/collector.yaml")).exists();
        assertThat(passwd(root, "qatwatch-collector")).isPresent();
        assertThat(passwd(root, "qatwatch-agent")).isEmpty();
        assertThat(Files.readString(root.resolve("etc/group"))).doesNotContain("qatwatch-agent:");
        assertThat(Files.readString(root.resolve("var/lib/dpkg/statoverride"))).doesNotContain("qatwatch-agent");
        assertThat(root.resolve("etc/systemd/system/multi-user.target.wants/qatwatch-agent.service")).doesNotExist();
        assertThat(usr("share/qatwatch/qatwatch")).as("qatwatch-common stays").exists();

        // purging the collector as well empties the shared folders
        dpkg("--purge", "qatwatch-collector");

        assertThat(root.resolve("etc/qatwatch")).doesNotExist();
        assertThat(root.resolve("var/lib/qatwatch")).doesNotExist();
        assertThat(passwd(root, "qatwatch-collector")).isEmpty();
        assertThat(Files.readString(root.resolve("var/lib/dpkg/statoverride"))).doesNotContain("qatwatch");
    }

    private static void assertOwnedDirectory(Path dir, String[] user) throws IOException {
        assertThat(dir).isDirectory();
        assertThat(Files.getAttribute(dir, "unix:mode")).isEqualTo(040750);
        assertThat(Files.getAttribute(dir, "unix:uid")).isEqualTo(Integer.parseInt(user[2]));
        assertThat(Files.getAttribute(dir, "unix:gid")).isEqualTo(Integer.parseInt(user[3]));
    }

    /** docs/install.md's token commands, run in the root with runuser (what sudo -u does; no sudo here). */
    private void enrolAndRetireAsDocumented(Path root, String[] collector) throws IOException {
        Matcher documented = Pattern.compile("sudo -u qatwatch-collector (qatwatch collector token [^\n`]+)")
                .matcher(Files.readString(Dist.REPO.resolve("docs/install.md")));
        List<String> commands = new ArrayList<>();
        while (documented.find()) {
            commands.add(documented.group(1).strip());
        }
        String data = "--data /var/lib/qatwatch/collector";
        assertThat(commands).containsExactly("qatwatch collector token add sql01 " + data,
                "qatwatch collector token list " + data, "qatwatch collector token revoke sql01 " + data);

        String added = runAsCollector(commands.get(0));
        assertThat(added.strip().lines().reduce((first, second) -> second).orElseThrow()).matches("\\S{20,}");
        assertThat(runAsCollector(commands.get(1))).containsPattern("sql01\\s+agent .* active");
        assertThat(runAsCollector(commands.get(2))).contains("Revoked 1 token(s) of sql01 in /var/lib/qatwatch/collector/qatwatch.db.");
        assertThat(runAsCollector(commands.get(1))).containsPattern("sql01\\s+agent .* revoked ");

        // the store is the collector's own, in its data directory, and nothing was left anywhere else
        Path store = root.resolve("var/lib/qatwatch/collector");
        try (Stream<Path> files = Files.list(store)) {
            assertThat(files.toList()).isNotEmpty().allSatisfy(file ->
                    assertThat(Files.getAttribute(file, "unix:uid")).as(file.toString()).isEqualTo(Integer.parseInt(collector[2])));
        }
        assertThat(root.resolve(".qatwatch")).doesNotExist();
        assertThat(root.resolve("root/.qatwatch")).doesNotExist();
    }

    private String runAsCollector(String command) {
        List<String> args = new ArrayList<>(List.of("--run", "runuser", "-u", "qatwatch-collector", "--"));
        args.addAll(List.of(command.split(" ")));
        return inRoot(args.toArray(String[]::new));
    }

    private String dpkg(String... args) {
        return inRoot(args);
    }

    /** src/test/resources/dpkg-root.sh with these arguments: dpkg's, or --run and a command. */
    private String inRoot(String... args) {
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
