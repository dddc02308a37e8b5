package io.qatwatch.agent.ship;

import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A child process for the kill -9 tests: appends reports to an outbox and prints each one once
 * {@link Outbox#append} returned. {@code steady}: appends until killed. {@code torn}: appends five, then
 * writes the first half of a sixth straight into the segment (what a crash in the middle of a write
 * leaves behind), says {@code TORN} and waits to be killed.
 */
public final class OutboxWriterProcess {

    /** A valid report of about {@code size} bytes, so that a collector takes what the outbox kept. */
    static byte[] report(String id, int size) {
        List<ProbeStatus> probes = new ArrayList<>();
        for (int left = size; left > 0; left -= 1000) {
            probes.add(ProbeStatus.failed("filler-" + probes.size(), 1, "x".repeat(Math.min(left, 1000)), null));
        }
        return ReportJson.toBytes(new AgentReport(AgentReport.SCHEMA_VERSION, id, Instant.now(),
                new AgentInfo("crash-test", "dev", 0, 0, 0, 0), null, null, null, List.of(), probes));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(64L << 20, 256L << 10, true, 5))) {
            out.println("OPEN " + outbox.stats().depth());
            int count = "torn".equals(mode) ? 5 : Integer.MAX_VALUE;
            for (int i = 0; i < count; i++) {
                String id = String.format("proc-%08d", i);
                long seq = outbox.append(id, report(id, 2000 + (i * 7919) % 30000));
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
