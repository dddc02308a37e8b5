package io.qatwatch.agent.ship;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real, small file system for disk-full drills: a tmpfs of a few hundred KiB mounted on a test folder, which a
 * filler file fills to its last block, so that writes fail with "No space left on device" as on a full disk. Needs
 * the right to mount (root in CI); where mounting is refused the test is skipped with the reason, not faked.
 */
public final class SmallDisk implements AutoCloseable {

    private final Path mountPoint;
    private final Path filler;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    /** Mounts a tmpfs of {@code kib} KiB on {@code mountPoint} (an empty folder), or skips the test. */
    public static SmallDisk mount(Path mountPoint, int kib) throws Exception {
        Files.createDirectories(mountPoint);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + kib + "k,mode=0700", "tmpfs",
                mountPoint.toString()).redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes());
        boolean done = mount.waitFor(30, TimeUnit.SECONDS);
        Assumptions.assumeTrue(done && mount.exitValue() == 0,
                "the disk-full drill needs to mount a small tmpfs (root, CAP_SYS_ADMIN); mount said: " + output.trim());
        return new SmallDisk(mountPoint);
    }

    public Path path() {
        return mountPoint;
    }

    /** Writes the filler until the file system has no block left. */
    public void fill() throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            if (full.getMessage() == null || !full.getMessage().contains("No space left")) {
                throw full;
            }
        }
        // the last partial block may still take a few bytes; take those too
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            for (int i = 0; i < 4096; i++) {
                out.write(0);
                out.flush();
            }
        } catch (IOException full) {
            // full to the last byte
        }
    }

    /** Gives the space back. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws Exception {
        Process umount = new ProcessBuilder("umount", "-l", mountPoint.toString()).redirectErrorStream(true).start();
        umount.getInputStream().readAllBytes();
        umount.waitFor(30, TimeUnit.SECONDS);
    }
}
