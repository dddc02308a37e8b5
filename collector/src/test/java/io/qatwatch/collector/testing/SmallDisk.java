package io.qatwatch.collector.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system: a tmpfs of a few MiB mounted on a test's directory (the tests run as root here, as
 * ./run-tests does in its container; elsewhere the test is skipped, saying why), with a filler file that takes
 * every byte left and gives them back.
 */
public final class SmallDisk implements AutoCloseable {

    private final Path dir;
    private final Path filler;

    private SmallDisk(Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler");
    }

    /** Mounts a tmpfs of {@code mebibytes} on {@code dir} (created if needed). */
    public static SmallDisk mount(Path dir, int mebibytes) throws Exception {
        Files.createDirectories(dir);
        int exit = run("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m,mode=0700", "qatwatch-test", dir.toString());
        assumeTrue(exit == 0, "cannot mount a tmpfs here (needs root): the disk-full test needs a small real disk");
        return new SmallDisk(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Writes the filler until the file system has no byte left; returns the bytes it took. */
    public long fill() throws IOException {
        long written = 0;
        byte[] block = new byte[16 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
                written += block.length;
            }
        } catch (IOException full) {
            if (!full.getMessage().contains("No space left")) {
                throw full;
            }
        }
        // what is left is smaller than a block: a byte at a time
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
                written++;
            }
        } catch (IOException full) {
            return written;
        }
    }

    /** Gives the filler's bytes back. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws Exception {
        run("umount", "-l", dir.toString());
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
