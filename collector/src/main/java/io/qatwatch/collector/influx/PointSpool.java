package io.qatwatch.collector.influx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Points InfluxDB could not take, on disk until it can: one file per batch ({@code <seq>-<points>.lp}), written
 * whole and renamed into place, so a crash leaves whole batches. Bounded in bytes: a batch with no room beside the
 * others drops the oldest batches before it is written, and counts their points. Used by one thread (the sink's
 * worker).
 */
final class PointSpool {

    private static final Pattern NAME = Pattern.compile("(\\d{16})-(\\d+)\\.lp");

    /** One spooled batch. */
    record Batch(Path file, long seq, int points, long bytes) {
    }

    private final Path dir;
    private final long maxBytes;
    private final Deque<Batch> batches = new ArrayDeque<>();
    private long bytes;
    private long points;
    private long nextSeq;
    private long droppedPoints;

    PointSpool(Path dir, long maxBytes) throws IOException {
        this.dir = dir;
        this.maxBytes = maxBytes;
        Files.createDirectories(dir);
        List<Batch> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches()) {
                    found.add(new Batch(f, Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)), Files.size(f)));
                } else if (f.getFileName().toString().endsWith(".tmp")) {
                    Files.deleteIfExists(f);
                }
            }
        }
        found.sort((a, b) -> Long.compare(a.seq, b.seq));
        for (Batch b : found) {
            batches.addLast(b);
            bytes += b.bytes;
            points += b.points;
            nextSeq = b.seq + 1;
        }
    }

    /** Whether {@code lines} can be appended without dropping a batch. */
    boolean hasRoomFor(List<String> lines) {
        return bytes + encode(lines).length <= maxBytes;
    }

    private static byte[] encode(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Appends a batch, first dropping the oldest batches that the bound has no room for beside it, so the files on
     * disk never exceed the bound (unless one batch alone does: then it is kept alone).
     */
    void append(List<String> lines) throws IOException {
        byte[] content = encode(lines);
        while (!batches.isEmpty() && bytes + content.length > maxBytes) {
            Batch oldest = batches.peekFirst();
            remove(oldest);
            droppedPoints += oldest.points;
        }
        long seq = nextSeq++;
        Path file = dir.resolve(String.format("%016d-%d.lp", seq, lines.size()));
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        batches.addLast(new Batch(file, seq, lines.size(), content.length));
        bytes += content.length;
        points += lines.size();
    }

    /** The oldest batch, or null when the spool is empty. */
    Batch oldest() {
        return batches.peekFirst();
    }

    List<String> read(Batch batch) throws IOException {
        String text = Files.readString(batch.file, StandardCharsets.UTF_8);
        return Arrays.stream(text.split("\n")).filter(l -> !l.isEmpty()).toList();
    }

    /** Forgets a batch: written, or refused by the server. */
    void remove(Batch batch) throws IOException {
        Files.deleteIfExists(batch.file);
        batches.remove(batch);
        bytes -= batch.bytes;
        points -= batch.points;
    }

    boolean isEmpty() {
        return batches.isEmpty();
    }

    long bytes() {
        return bytes;
    }

    long points() {
        return points;
    }

    /** Points dropped because the spool was full, since start. */
    long droppedPoints() {
        return droppedPoints;
    }
}
