package io.qatwatch.agent.daemon;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backup-history high-water mark of each SQL Server instance, one small file per instance in the
 * agent's state folder. It only moves after the report carrying the rows below it is in the outbox,
 * so a crash can repeat backup rows (the collector keeps each backup set once) but never skip any.
 * Blocking: call off the event loop.
 */
public final class BackupCursors {

    private static final Logger LOG = LoggerFactory.getLogger(BackupCursors.class);

    private final Path dir;

    public BackupCursors(Path dir) {
        this.dir = dir;
    }

    /** The highest {@code backup_set_id} already in the outbox for {@code instance}; null before the first sync. */
    public Long read(String instance) throws IOException {
        Path file = file(instance);
        if (!Files.exists(file)) {
            return null;
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            LOG.warn("backup high-water mark {} is unreadable ('{}'); reading the history of {} again from the start",
                    file, text, instance);
            return null;
        }
    }

    /** Moves the mark forward; a lower value than the stored one is ignored. */
    public void advance(String instance, long highWaterMark) throws IOException {
        Long current = read(instance);
        if (current != null && current >= highWaterMark) {
            return;
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(instance + ".hwm.tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap((highWaterMark + "\n").getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
        }
        try {
            Files.move(tmp, file(instance), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file(instance), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private Path file(String instance) {
        return dir.resolve(instance + ".hwm");
    }
}
