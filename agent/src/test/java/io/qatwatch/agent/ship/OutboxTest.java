package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {

    private static final OutboxSettings ROOMY = new OutboxSettings(1 << 20, 4096, true, 3);

    @TempDir
    Path dir;

    @Test
    void reportsComeBackInOrderAfterReopenUntilAcknowledged() throws IOException {
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            for (int i = 0; i < 50; i++) {
                outbox.append(id(i), body(i, 300));
            }
            outbox.acknowledge(outbox.peek().orElseThrow().seq());
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().depth()).isEqualTo(49);
            assertThat(drain(outbox)).containsExactlyElementsOf(ids(1, 50));
            assertThat(outbox.stats().depth()).isZero();
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("seg-")).count())
                    .as("delivered segments are deleted, the one being written stays").isEqualTo(1);
        }
    }

    @Test
    void sequenceNumbersKeepRisingAcrossRestartsSoOldAcknowledgementsCannotHitNewReports() throws IOException {
        long first;
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            first = outbox.append(id(0), body(0, 10));
            outbox.acknowledge(first);
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            long second = outbox.append(id(1), body(1, 10));
            assertThat(second).isGreaterThan(first);
            outbox.acknowledge(first);
            assertThat(outbox.stats().depth()).isEqualTo(1);
        }
    }

    @Test
    void tornTailIsCutAndCountedAndTheOutboxKeepsWorking() throws IOException {
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            for (int i = 0; i < 3; i++) {
                outbox.append(id(i), body(i, 200));
            }
        }
        Path segment = onlySegment();
        long intact = Files.size(segment);
        ByteBuffer torn = new OutboxRecord(3, id(3), body(3, 200)).encode();
        torn.limit(torn.limit() / 2);
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(torn);
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().corruptTotal()).isEqualTo(1);
            assertThat(Files.size(segment)).isEqualTo(intact);
            outbox.append(id(4), body(4, 200));
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().corruptTotal()).as("counted once, not on every restart").isEqualTo(1);
            assertThat(drain(outbox)).containsExactly(id(0), id(1), id(2), id(4));
        }
    }

    @Test
    void aFlippedByteInTheMiddleLosesOnlyThatReport() throws IOException {
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            for (int i = 0; i < 3; i++) {
                outbox.append(id(i), body(i, 200));
            }
        }
        Path segment = onlySegment();
        int recordSize = OutboxRecord.encodedSize(id(0), 200);
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ch.write(ByteBuffer.wrap(new byte[] {'X'}), recordSize + 100);
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().corruptTotal()).isEqualTo(1);
            assertThat(drain(outbox)).containsExactly(id(0), id(2));
        }
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().corruptTotal()).isEqualTo(1);
        }
    }

    @Test
    void whenFullTheOldestAreDroppedAndCounted() throws IOException {
        int size = OutboxRecord.encodedSize(id(0), 1000);
        OutboxSettings small = new OutboxSettings(size * 5L, size * 2L, true, 3);
        try (Outbox outbox = Outbox.open(dir, small)) {
            for (int i = 0; i < 12; i++) {
                outbox.append(id(i), body(i, 1000));
            }
            assertThat(outbox.stats().depth()).isEqualTo(5);
            assertThat(outbox.stats().droppedTotal()).isEqualTo(7);
        }
        try (Outbox outbox = Outbox.open(dir, small)) {
            assertThat(outbox.stats().droppedTotal()).isEqualTo(7);
            assertThat(drain(outbox)).containsExactlyElementsOf(ids(7, 12));
        }
        long onDisk;
        try (Stream<Path> files = Files.list(dir)) {
            onDisk = files.filter(p -> p.getFileName().toString().startsWith("seg-")).mapToLong(p -> p.toFile().length()).sum();
        }
        assertThat(onDisk).isLessThanOrEqualTo(small.maxBytes() + small.segmentBytes());
    }

    @Test
    void aReportLargerThanTheWholeOutboxIsRejectedNamingTheKey() throws IOException {
        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(500, 500, true, 3))) {
            assertThatThrownBy(() -> outbox.append(id(0), body(0, 1000)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outbox.maxBytes");
        }
    }

    @Test
    void parkedReportsAreKeptWithTheirReasonAndLeaveTheQueue() throws IOException {
        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(1 << 20, 4096, true, 2))) {
            for (int i = 0; i < 4; i++) {
                outbox.append(id(i), body(i, 50));
            }
            for (int i = 0; i < 3; i++) {
                Optional<Path> copy = outbox.park(outbox.peek().orElseThrow().seq(), "HTTP 400: bad field (field instances[0].name)");
                assertThat(copy).isPresent();
            }
            assertThat(outbox.stats().parkedTotal()).isEqualTo(3);
            assertThat(drain(outbox)).containsExactly(id(3));
        }
        try (Stream<Path> parked = Files.list(dir.resolve("parked"))) {
            List<String> names = parked.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).hasSize(4).anyMatch(n -> n.endsWith(id(2) + ".json")).noneMatch(n -> n.contains(id(0)));
        }
        assertThat(Files.readString(dir.resolve("parked").resolve(String.format("%020d-%s.reason.txt", 2, id(2)))))
                .contains("field instances[0].name");
    }

    @Test
    void anUnreadableStateFileMeansResendingNotLosing() throws IOException {
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            outbox.append(id(0), body(0, 10));
            outbox.append(id(1), body(1, 10));
            outbox.acknowledge(outbox.peek().orElseThrow().seq());
        }
        Files.write(dir.resolve("outbox.state"), new byte[] {1, 2, 3});
        try (Outbox outbox = Outbox.open(dir, ROOMY)) {
            assertThat(outbox.stats().corruptTotal()).isEqualTo(1);
            assertThat(drain(outbox)).contains(id(1));
        }
    }

    static List<String> drain(Outbox outbox) throws IOException {
        List<String> out = new ArrayList<>();
        for (Optional<Outbox.Pending> p = outbox.peek(); p.isPresent(); p = outbox.peek()) {
            assertThat(new String(p.get().body(), StandardCharsets.UTF_8)).contains(p.get().reportId());
            out.add(p.get().reportId());
            outbox.acknowledge(p.get().seq());
        }
        return out;
    }

    private Path onlySegment() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("seg-")).findFirst().orElseThrow();
        }
    }

    static String id(int i) {
        return String.format("report-%04d", i);
    }

    static List<String> ids(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(id(i));
        }
        return out;
    }

    static byte[] body(int i, int size) {
        return body(id(i), size);
    }

    static byte[] body(String id, int size) {
        StringBuilder sb = new StringBuilder(id);
        while (sb.length() < size) {
            sb.append('.');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
