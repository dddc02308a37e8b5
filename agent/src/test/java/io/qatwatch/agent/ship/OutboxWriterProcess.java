package io.qatwatch.agent.ship;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * A child process for the kill -9 tests: appends reports to an outbox and prints each one once
 * {@link Outbox#append} returned. {@code steady}: appends until killed. {@code torn}: appends five, then
 * writes the first half of a sixth straight into the segment (what a crash in the middle of a write
 * leaves behind), says {@code TORN} and waits to be killed.
 */
public final class OutboxWriterProcess {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(64L << 20, 256L << 10, true, 5))) {
            out.println("OPEN " + outbox.stats().depth());
            int count = "torn".equals(mode) ? 5 : Integer.MAX_VALUE;
            for (int i = 0; i < count; i++) {
                String id = String.format("proc-%08d", i);
                long seq = outbox.append(id, OutboxTest.body(id, 2000 + (i * 7919) % 30000));
                out.println("APPENDED " + seq + " " + id);
            }
            if ("torn".equals(mode)) {
                ByteBuffer record = new OutboxRecord(5, "proc-torn", OutboxTest.body("proc-torn", 10_000)).encode();
                record.limit(record.limit() / 2);
                Path segment;
                try (Stream<Path> files = Files.list(dir)) {
                    segment = files.filter(p -> p.getFileName().toString().startsWith("seg-")).sorted()
                            .reduce((a, b) -> b).orElseThrow();
                }
                try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    ch.write(record);
                    ch.force(false);
                }
                out.println("TORN");
                Thread.sleep(60_000);
            }
        }
    }
}
