package io.qatwatch.dist;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the dist build put its outputs (failsafe passes the paths as system properties). */
final class Dist {

    static final Path DIR = Path.of(System.getProperty("dist.dir", "target")).toAbsolutePath();
    static final Path REPO = Path.of(System.getProperty("repo.dir", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("dist.version", "0.1.0-SNAPSHOT");

    private Dist() {
    }

    /** The built package of that name, e.g. {@code qatwatch-agent}; its file name carries the Debian version. */
    static Path deb(String packageName) {
        Path deb = DIR.resolve(packageName + "_" + debianVersion() + "_all.deb");
        if (!Files.isRegularFile(deb)) {
            throw new AssertionError(deb + " was not built: run mvn verify on the dist module");
        }
        return deb;
    }

    /** The package version: the Maven version in Debian's spelling, 0.1.0-SNAPSHOT as 0.1.0~snapshot. */
    static String debianVersion() {
        return VERSION.replace("-SNAPSHOT", "~snapshot");
    }

    static Path windowsZip() {
        return DIR.resolve("qatwatch-agent-" + VERSION + "-windows.zip");
    }

    /** Unpacks packages into {@code root} the way dpkg would, without running their scripts. */
    static void extract(Path root, String... packageNames) {
        for (String name : packageNames) {
            Command.ok(DIR, "dpkg-deb", "-x", deb(name).toString(), root.toString());
        }
    }
}
