package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox on a real file system that runs full: lost reports are counted, and what they left is not "corrupt". */
class OutboxDiskFullTest {

    private static final OutboxSettings SETTINGS = new OutboxSettings(1 << 20, 64 * 1024, true, 3);

    @TempDir
    Path tmp;
    private SmallDisk disk;

    @BeforeEach
    void mount() throws Exception {
        disk = SmallDisk.mount(tmp.resolve("disk"), 512);
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.close();
        }
    }

    @Test
    void aReportThatCannotBeWrittenIsCountedLostAndLeavesNoTornRecordBehind() throws Exception {
        Path dir = disk.path().resolve("outbox");
        List<String> written = new ArrayList<>();
        try (Outbox outbox = Outbox.open(dir, SETTINGS)) {
            outbox.append("r-0", body(0, 500));
            written.add("r-0");
            long segmentBefore = segmentBytes(dir);
            disk.fill();
            // larger than a block: part of it fits what is left of the segment's last block, the rest does not
            for (int i = 1; i <= 3; i++) {
                int n = i;
                assertThatThrownBy(() -> outbox.append("r-" + n, body(n, 20_000)))
                        .isInstanceOf(IOException.class).hasMessageContaining("No space left");
            }
            assertThat(outbox.stats().lostTotal()).isEqualTo(3);
            assertThat(segmentBytes(dir)).as("the part of a failed append that was written is cut off again")
                    .isEqualTo(segmentBefore);

            disk.free();
            outbox.append("r-4", body(4, 20_000));
            written.add("r-4");
            assertThat(outbox.stats().lostTotal()).isEqualTo(3);
            assertThat(outbox.stats().corruptTotal()).isZero();
            outbox.acknowledge(outbox.peek().orElseThrow().seq());
            written.remove("r-0");
        }
        try (Outbox reopened = Outbox.open(dir, SETTINGS)) {
            assertThat(reopened.stats().corruptTotal()).as("a failed append is not a torn record").isZero();
            assertThat(reopened.stats().lostTotal()).as("the lost count survives a restart").isEqualTo(3);
            List<String> left = new ArrayList<>();
            for (Optional<Outbox.Pending> p; (p = reopened.peek()).isPresent(); ) {
                left.add(p.get().reportId());
                assertThat(new String(p.get().body(), StandardCharsets.UTF_8)).startsWith("{\"n\":" + p.get().reportId().substring(2));
                reopened.acknowledge(p.get().seq());
            }
            assertThat(left).containsExactlyElementsOf(written);
        }
    }

    @Test
    void aNewSegmentThatCannotBeCreatedLeavesTheOutboxWorkingWhenSpaceReturns() throws Exception {
        Path dir = disk.path().resolve("outbox");
        OutboxSettings smallSegments = new OutboxSettings(1 << 20, 1024, true, 3);
        try (Outbox outbox = Outbox.open(dir, smallSegments)) {
            outbox.append("r-0", body(0, 900));
            disk.fill();
            // the next record does not fit the 1 KiB segment: a new one is needed, on a full disk
            for (int i = 1; i <= 2; i++) {
                int n = i;
                assertThatThrownBy(() -> outbox.append("r-" + n, body(n, 5_000))).isInstanceOf(IOException.class);
            }
            disk.free();
            outbox.append("r-3", body(3, 900));
            assertThat(outbox.stats().lostTotal()).isEqualTo(2);
            assertThat(outbox.stats().depth()).isEqualTo(2);
        }
        try (Outbox reopened = Outbox.open(dir, smallSegments)) {
            assertThat(reopened.stats().corruptTotal()).isZero();
            assertThat(reopened.stats().depth()).isEqualTo(2);
        }
    }

    private static long segmentBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("seg-")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static byte[] body(int n, int size) {
        StringBuilder s = new StringBuilder("{\"n\":").append(n).append(",\"pad\":\"");
        while (s.length() < size - 2) {
            s.append('x');
        }
        return s.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
