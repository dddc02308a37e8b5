package io.qatwatch.agent.ship;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable queue of reports between the probes and the collector. A report is appended (checksummed,
 * forced to disk) before anyone tries to send it; it leaves the outbox when the collector acknowledged it,
 * refused it for good (parked), or when the outbox is full and it is the oldest (dropped and counted). A report
 * that cannot be written at all (a full disk) is counted as lost, and what of it reached the file is cut off again,
 * so that it is not mistaken for a torn record later.
 *
 * <p>On disk: segment files {@code seg-<first seq>.log} of {@link OutboxRecord}s and {@code outbox.state},
 * which holds the sequence number of the oldest report not yet delivered and the loss counters (an older file
 * without the lost count is read as 0 lost). Delivery
 * is in order, so acknowledging is moving that one number. Blocking file I/O: call it off the event loop.
 * Thread-safe.
 */
public final class Outbox implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);
    private static final Pattern SEGMENT = Pattern.compile("seg-(\\d{20})\\.log");
    private static final String STATE = "outbox.state";
    private static final int STATE_MAGIC = 0x51575331;
    /** magic, head, dropped, corrupt, parked, recovered-up-to, lost, CRC32C. */
    private static final int STATE_BYTES = 4 + 8 * 6 + 4;
    /** The state before the lost count (issue 17). */
    private static final int STATE_BYTES_V1 = 4 + 8 * 5 + 4;

    private final Path dir;
    private final Path parkedDir;
    private final OutboxSettings settings;
    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    private final List<Path> segments = new ArrayList<>();
    private FileChannel tail;
    private Path tailPath;
    private long nextSeq;
    private long head;
    private long pendingBytes;
    private long droppedTotal;
    private long corruptTotal;
    private long parkedTotal;
    private long lostTotal;
    /** Where a failed append left bytes that could not be cut off yet; -1 when the tail is clean. */
    private long dirtyTailAt = -1;
    /** {@link #nextSeq} when the outbox was last opened: corrupt spans before it were counted then. */
    private long recoveredSeq;
    private boolean closed;
    /** Read without the lock, so that an event-loop thread never waits for an fsync to see the numbers. */
    private volatile OutboxStats snapshot = new OutboxStats(0, 0, 0, 0, 0, 0);

    /** Where one pending report sits on disk. */
    private record Entry(long seq, String reportId, Path segment, long offset, int size) {
    }

    /** A report read back from the outbox, ready to send. */
    public record Pending(long seq, String reportId, byte[] body) {
    }

    private Outbox(Path dir, OutboxSettings settings) {
        this.dir = dir;
        this.parkedDir = dir.resolve("parked");
        this.settings = settings;
    }

    /**
     * Opens the outbox in {@code dir}, creating it when missing, and reads back every report not yet
     * delivered. A torn tail (a crash in the middle of an append) is cut off; a corrupt record elsewhere
     * is skipped; both are counted in {@link OutboxStats#corruptTotal()}, neither is fatal.
     */
    public static Outbox open(Path dir, OutboxSettings settings) throws IOException {
        Files.createDirectories(dir);
        Outbox outbox = new Outbox(dir, settings);
        outbox.recover();
        return outbox;
    }

    /**
     * Appends one report and returns its sequence number once it is on disk. When the outbox would grow
     * past {@link OutboxSettings#maxBytes()} the oldest reports are dropped first and counted.
     *
     * @throws IllegalArgumentException when the report alone is larger than the outbox may grow
     * @throws IOException when it could not be written (it is then counted in {@link OutboxStats#lostTotal()})
     */
    public synchronized long append(String reportId, byte[] body) throws IOException {
        ensureOpen();
        try {
            return write(reportId, body);
        } catch (IOException e) {
            lostTotal++;
            publishStats();
            try {
                writeState();
            } catch (IOException stateAlsoFailed) {
                // the count is in memory and goes out with the next report; the state file catches up later
                LOG.debug("outbox state not written after a failed append: {}", stateAlsoFailed.toString());
            }
            LOG.warn("outbox {}: report {} could not be written ({}); {} report(s) lost in total", dir, reportId,
                    e.getMessage(), lostTotal);
            throw e;
        }
    }

    private long write(String reportId, byte[] body) throws IOException {
        int size = OutboxRecord.encodedSize(reportId, body.length);
        if (size > settings.maxBytes()) {
            throw new IllegalArgumentException("report " + reportId + " is " + size + " bytes, larger than the whole outbox ("
                    + settings.maxBytes() + " bytes); raise outbox.maxBytes");
        }
        long dropped = 0;
        while (!pending.isEmpty() && pendingBytes + size > settings.maxBytes()) {
            Entry oldest = pending.removeFirst();
            pendingBytes -= oldest.size();
            head = oldest.seq() + 1;
            dropped++;
        }
        if (dropped > 0) {
            droppedTotal += dropped;
            writeState();
            deleteDeliveredSegments();
            LOG.warn("outbox full ({} bytes, outbox.maxBytes): dropped the {} oldest report(s), {} dropped in total",
                    settings.maxBytes(), dropped, droppedTotal);
        }
        cutDirtyTail();
        if (tail == null || (tail.size() > 0 && tail.size() + size > settings.segmentBytes())) {
            rollSegment(nextSeq);
        }
        long seq = nextSeq;
        ByteBuffer head = new OutboxRecord(seq, reportId, body).head();
        int headBytes = head.remaining();
        long offset = tail.size();
        try {
            writeFully(tail, head, offset);
            writeFully(tail, ByteBuffer.wrap(body), offset + headBytes);
            if (settings.fsync()) {
                tail.force(false);
            }
        } catch (IOException e) {
            // a write that ran out of space may have left part of the record: cut it, so that reading the outbox
            // back does not find a torn record (it was a failed append, counted as lost, not a crash)
            dirtyTailAt = offset;
            cutDirtyTail();
            throw e;
        }
        nextSeq++;
        pending.addLast(new Entry(seq, reportId, tailPath, offset, size));
        pendingBytes += size;
        publishStats();
        return seq;
    }

    /** The oldest report waiting for delivery, read from disk; empty when there is none. */
    public synchronized Optional<Pending> peek() throws IOException {
        ensureOpen();
        while (!pending.isEmpty()) {
            Entry e = pending.peekFirst();
            OutboxRecord record = read(e);
            if (record != null && record.seq() == e.seq()) {
                return Optional.of(new Pending(e.seq(), e.reportId(), record.body()));
            }
            LOG.warn("outbox record {} (report {}) in {} no longer matches its checksum; skipped and counted as corrupt",
                    e.seq(), e.reportId(), e.segment().getFileName());
            pending.removeFirst();
            pendingBytes -= e.size();
            head = e.seq() + 1;
            corruptTotal++;
            writeState();
        }
        return Optional.empty();
    }

    /** The collector took report {@code seq}: it leaves the outbox. A sequence number already gone is ignored. */
    public synchronized void acknowledge(long seq) throws IOException {
        ensureOpen();
        Entry first = pending.peekFirst();
        if (first == null || first.seq() != seq) {
            return;
        }
        pending.removeFirst();
        pendingBytes -= first.size();
        head = seq + 1;
        try {
            writeState();
        } catch (IOException e) {
            // a full disk must not stop delivery (which frees space): the next state written catches up, and a
            // restart before that sends this report again, which the collector recognises by its id
            publishStats();
            LOG.warn("outbox {}: delivery of report {} not recorded on disk ({}); it may be sent again after a restart",
                    dir, first.reportId(), e.getMessage());
        }
        deleteDeliveredSegments();
    }

    /**
     * The collector refused report {@code seq} for good: a copy goes to {@code parked/} with the reason
     * beside it, and the report leaves the queue so that the reports behind it can go.
     *
     * @return the parked copy, or empty when {@code seq} was no longer waiting
     */
    public synchronized Optional<Path> park(long seq, String reason) throws IOException {
        ensureOpen();
        Entry first = pending.peekFirst();
        if (first == null || first.seq() != seq) {
            return Optional.empty();
        }
        OutboxRecord record = read(first);
        Files.createDirectories(parkedDir);
        String base = String.format("%020d-%s", seq, first.reportId());
        Path copy = parkedDir.resolve(base + ".json");
        if (record != null) {
            Files.write(copy, record.body());
        }
        Files.writeString(parkedDir.resolve(base + ".reason.txt"), reason + System.lineSeparator(), StandardCharsets.UTF_8);
        parkedTotal++;
        acknowledge(seq);
        pruneParked();
        return Optional.of(copy);
    }

    /** The current numbers; never blocks. */
    public OutboxStats stats() {
        return snapshot;
    }

    private void publishStats() {
        snapshot = new OutboxStats(pending.size(), pendingBytes, droppedTotal, corruptTotal, parkedTotal, lostTotal);
    }

    /** Cuts what a failed append left at the end of the tail segment; fails (and stays dirty) when it cannot. */
    private void cutDirtyTail() throws IOException {
        if (dirtyTailAt < 0 || tail == null) {
            return;
        }
        if (tail.size() > dirtyTailAt) {
            tail.truncate(dirtyTailAt);
        }
        dirtyTailAt = -1;
    }

    public Path directory() {
        return dir;
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            if (tail != null) {
                tail.close();
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("outbox " + dir + " is closed");
        }
    }

    private void recover() throws IOException {
        boolean stateFound = readState();
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "seg-*.log")) {
            for (Path p : stream) {
                if (SEGMENT.matcher(p.getFileName().toString()).matches()) {
                    found.add(p);
                }
            }
        }
        found.sort(null);
        Files.deleteIfExists(dir.resolve(STATE + ".tmp"));
        long lastSeq = -1;
        for (Path segment : found) {
            lastSeq = scan(segment, lastSeq);
            segments.add(segment);
        }
        if (!stateFound) {
            head = pending.isEmpty() ? lastSeq + 1 : pending.peekFirst().seq();
        }
        pending.removeIf(e -> e.seq() < head);
        pendingBytes = pending.stream().mapToLong(Entry::size).sum();
        nextSeq = Math.max(head, lastSeq + 1);
        recoveredSeq = nextSeq;
        writeState();
        deleteDeliveredSegments();
        if (!segments.isEmpty()) {
            Path last = segments.get(segments.size() - 1);
            tail = FileChannel.open(last, StandardOpenOption.WRITE, StandardOpenOption.READ);
            tailPath = last;
        }
        if (!pending.isEmpty()) {
            LOG.info("outbox {}: {} report(s) from before the restart wait for delivery", dir, pending.size());
        }
    }

    /** Reads one segment into {@link #pending}; returns the highest sequence number seen. */
    private long scan(Path segment, long lastSeq) throws IOException {
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            long offset = 0;
            while (offset < size) {
                OutboxRecord record = readAt(ch, offset, size);
                if (record != null && record.seq() > lastSeq) {
                    int recordSize = OutboxRecord.encodedSize(record.reportId(), record.body().length);
                    pending.addLast(new Entry(record.seq(), record.reportId(), segment, offset, recordSize));
                    lastSeq = record.seq();
                    offset += recordSize;
                    continue;
                }
                long next = nextValidRecord(ch, offset + 1, size, lastSeq);
                if (next < 0) {
                    LOG.warn("outbox segment {}: torn or corrupt tail at byte {} of {} cut off (a crash during an append)",
                            segment.getFileName(), offset, size);
                    corruptTotal++;
                    ch.truncate(offset);
                    ch.force(true);
                    break;
                }
                OutboxRecord following = readAt(ch, next, size);
                if (following.seq() >= recoveredSeq) {
                    LOG.warn("outbox segment {}: corrupt bytes {}..{} skipped", segment.getFileName(), offset, next);
                    corruptTotal++;
                }
                offset = next;
            }
        }
        return lastSeq;
    }

    private long nextValidRecord(FileChannel ch, long from, long size, long lastSeq) throws IOException {
        ByteBuffer window = ByteBuffer.allocate(64 * 1024);
        long base = from;
        while (base + OutboxRecord.HEADER_BYTES <= size) {
            window.clear();
            int n = ch.read(window, base);
            if (n < 4) {
                return -1;
            }
            for (int i = 0; i + 4 <= n; i++) {
                if (window.getInt(i) == OutboxRecord.MAGIC) {
                    OutboxRecord candidate = readAt(ch, base + i, size);
                    if (candidate != null && candidate.seq() > lastSeq) {
                        return base + i;
                    }
                }
            }
            base += n - 3;
        }
        return -1;
    }

    /**
     * The record at {@code offset} when its header and checksum are sound, else null. The body is read straight into
     * its own array (no payload buffer copied out of), so reading back a report of several MB holds it once.
     */
    private static OutboxRecord readAt(FileChannel ch, long offset, long size) throws IOException {
        if (offset + OutboxRecord.HEADER_BYTES > size) {
            return null;
        }
        ByteBuffer header = ByteBuffer.allocate(OutboxRecord.HEADER_BYTES + 10);
        header.limit(OutboxRecord.HEADER_BYTES);
        readFully(ch, header, offset);
        if (header.getInt(0) != OutboxRecord.MAGIC) {
            return null;
        }
        int length = header.getInt(4);
        int crc = header.getInt(8);
        if (length < 10 || length > OutboxRecord.MAX_PAYLOAD_BYTES || offset + OutboxRecord.HEADER_BYTES + length > size) {
            return null;
        }
        header.limit(OutboxRecord.HEADER_BYTES + 10);
        readFully(ch, header, offset);
        long seq = header.getLong(OutboxRecord.HEADER_BYTES);
        int idLength = Short.toUnsignedInt(header.getShort(OutboxRecord.HEADER_BYTES + 8));
        if (idLength > length - 10) {
            return null;
        }
        byte[] id = new byte[idLength];
        byte[] body = new byte[length - 10 - idLength];
        long at = offset + OutboxRecord.HEADER_BYTES + 10;
        readFully(ch, ByteBuffer.wrap(id), at);
        readFully(ch, ByteBuffer.wrap(body), at + idLength);
        CRC32C check = new CRC32C();
        check.update(header.array(), OutboxRecord.HEADER_BYTES, 10);
        check.update(id, 0, idLength);
        check.update(body, 0, body.length);
        if ((int) check.getValue() != crc) {
            return null;
        }
        return new OutboxRecord(seq, new String(id, StandardCharsets.US_ASCII), body);
    }

    private OutboxRecord read(Entry e) throws IOException {
        if (e.segment().equals(tailPath) && tail != null) {
            return readAt(tail, e.offset(), tail.size());
        }
        try (FileChannel ch = FileChannel.open(e.segment(), StandardOpenOption.READ)) {
            return readAt(ch, e.offset(), ch.size());
        } catch (NoSuchFileException gone) {
            return null;
        }
    }

    /**
     * The JDK copies a heap buffer through a temporary direct buffer as large as what is left in it, and keeps
     * it cached per thread; a report of several MB would need that much direct memory, which the agent's
     * small {@code -XX:MaxDirectMemorySize} refuses. So reads and writes go in slices of {@link #IO_CHUNK}: 64 KiB, the
     * launcher's {@code -Djdk.nio.maxCachedBufferSize}, so that the one temporary buffer is kept and reused instead of a
     * larger one allocated and freed for every slice of a large report.
     */
    private static final int IO_CHUNK = 64 * 1024;

    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        int end = buf.limit();
        try {
            while (buf.position() < end) {
                buf.limit(Math.min(end, buf.position() + IO_CHUNK));
                if (ch.read(buf, position + buf.position()) < 0) {
                    throw new IOException("unexpected end of file");
                }
            }
        } finally {
            buf.limit(end);
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        int end = buf.limit();
        try {
            while (buf.position() < end) {
                buf.limit(Math.min(end, buf.position() + IO_CHUNK));
                ch.write(buf, position + buf.position());
            }
        } finally {
            buf.limit(end);
        }
    }

    private void rollSegment(long firstSeq) throws IOException {
        Path path = dir.resolve(String.format("seg-%020d.log", firstSeq));
        // the new segment is opened before the old one is closed: when opening fails (a full disk), the old one
        // stays the tail and the next append tries again
        FileChannel next = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        if (tail != null) {
            tail.close();
        }
        tail = next;
        tailPath = path;
        if (!segments.contains(path)) {
            segments.add(path);
        }
        if (settings.fsync()) {
            forceDirectory();
        }
    }

    /** Deletes segments whose every record is below {@link #head}, except the one being written. */
    private void deleteDeliveredSegments() throws IOException {
        Iterator<Path> it = segments.iterator();
        while (it.hasNext()) {
            Path segment = it.next();
            if (segment.equals(tailPath)) {
                break;
            }
            if (lastSeqIn(segment) >= head) {
                break;
            }
            Files.deleteIfExists(segment);
            it.remove();
        }
    }

    /** The highest sequence a closed segment can hold: one less than the first of the next segment. */
    private long lastSeqIn(Path segment) {
        int i = segments.indexOf(segment);
        if (i + 1 < segments.size()) {
            return firstSeqOf(segments.get(i + 1)) - 1;
        }
        return Long.MAX_VALUE;
    }

    private static long firstSeqOf(Path segment) {
        Matcher m = SEGMENT.matcher(segment.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalStateException("not a segment: " + segment);
        }
        return Long.parseLong(m.group(1));
    }

    private boolean readState() throws IOException {
        Path state = dir.resolve(STATE);
        if (!Files.exists(state)) {
            return false;
        }
        ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(state));
        int length = buf.remaining();
        if ((length != STATE_BYTES && length != STATE_BYTES_V1) || buf.getInt(0) != STATE_MAGIC
                || OutboxRecord.crc(buf.array(), 0, length - 4) != buf.getInt(length - 4)) {
            LOG.warn("outbox state {} is unreadable; every report still in the outbox will be sent again "
                    + "(the collector ignores repeats by report id)", state);
            corruptTotal++;
            return false;
        }
        buf.getInt();
        head = buf.getLong();
        droppedTotal = buf.getLong();
        corruptTotal = buf.getLong();
        parkedTotal = buf.getLong();
        recoveredSeq = buf.getLong();
        lostTotal = length == STATE_BYTES ? buf.getLong() : 0;
        return true;
    }

    private void writeState() throws IOException {
        publishStats();
        ByteBuffer buf = ByteBuffer.allocate(STATE_BYTES);
        buf.putInt(STATE_MAGIC).putLong(head).putLong(droppedTotal).putLong(corruptTotal).putLong(parkedTotal).putLong(recoveredSeq)
                .putLong(lostTotal);
        buf.putInt(OutboxRecord.crc(buf.array(), 0, STATE_BYTES - 4));
        buf.flip();
        Path tmp = dir.resolve(STATE + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            if (settings.fsync()) {
                ch.force(true);
            }
        }
        try {
            Files.move(tmp, dir.resolve(STATE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(STATE), StandardCopyOption.REPLACE_EXISTING);
        }
        if (settings.fsync()) {
            forceDirectory();
        }
    }

    /** Makes a new or renamed file's directory entry durable; not possible on Windows, where rename is durable enough. */
    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot force directory {}: {}", dir, e.toString());
        }
    }

    private void pruneParked() throws IOException {
        List<Path> parked = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(parkedDir, "*.json")) {
            stream.forEach(parked::add);
        }
        parked.sort(null);
        for (int i = 0; i < parked.size() - settings.parkedKept(); i++) {
            Path json = parked.get(i);
            String name = json.getFileName().toString();
            Files.deleteIfExists(json);
            Files.deleteIfExists(parkedDir.resolve(name.substring(0, name.length() - 5) + ".reason.txt"));
        }
    }
}
