package io.qatwatch.agent.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A library folder on disk, listed every run: again only when an entry came, went or was renamed. */
class FolderListingsTest {

    @TempDir
    Path root;

    @Test
    void aSettledFolderIsListedOnceAndAgainOnlyAfterItsEntriesChanged() throws Exception {
        Path lib = Files.createDirectories(root.resolve("usr/lib64"));
        Files.writeString(lib.resolve("libqat.so.4.2.0"), "elf");
        Files.writeString(lib.resolve("libz.so.1"), "elf");
        List<String> listings = new ArrayList<>();
        FolderListings folders = new FolderListings(LinuxRoot.of(root).observed(new LinuxRoot.Observer() {
            @Override
            public void read(String relative, byte[] content) {
            }

            @Override
            public void listed(String relative, List<String> names) {
                listings.add(relative);
            }

            @Override
            public void looked(String relative) {
            }
        }));

        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).as("just changed: listed").containsExactly("libqat.so.4.2.0");
        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).containsExactly("libqat.so.4.2.0");
        assertThat(listings).as("a folder changed within the last seconds is listed every time").hasSize(2);

        awaitSettled(lib);
        folders.list("usr/lib64", "lib{qat,usdm}*");
        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).containsExactly("libqat.so.4.2.0");
        assertThat(listings).as("settled: listed once more, then remembered").hasSize(3);
        assertThat(folders.list("usr/lib64", "qat_*")).as("another glob is another listing").isEmpty();
        assertThat(listings).hasSize(4);

        Files.writeString(lib.resolve("libusdm.so.0.1.0"), "elf");
        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).as("a new entry").containsExactly("libqat.so.4.2.0", "libusdm.so.0.1.0");
        awaitSettled(lib);
        folders.list("usr/lib64", "lib{qat,usdm}*");
        Files.move(lib.resolve("libqat.so.4.2.0"), lib.resolve("libqat.so.4.3.0"));
        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).as("a renamed entry").containsExactly("libqat.so.4.3.0", "libusdm.so.0.1.0");
        Files.delete(lib.resolve("libusdm.so.0.1.0"));
        assertThat(folders.list("usr/lib64", "lib{qat,usdm}*")).as("a removed entry").containsExactly("libqat.so.4.3.0");
        assertThat(folders.list("usr/lib", "lib{qat,usdm}*")).as("no folder").isEmpty();
    }

    /** Waits until the folder's last change is older than {@link FolderListings#SETTLED}. */
    private static void awaitSettled(Path folder) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (((java.nio.file.attribute.FileTime) Files.getAttribute(folder, "unix:ctime")).toMillis() + FolderListings.SETTLED
                >= System.currentTimeMillis() - 50) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the folder's change time did not settle");
            }
            Thread.sleep(100);
        }
    }
}
