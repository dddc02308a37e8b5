package io.qatwatch.agent.probe.sqlserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The highest {@code backup_set_id} read per instance, and the marks of its other histories, kept in a small text file
 * so that an agent restart goes on where it stopped instead of reading msdb again. One {@code instance=id} line per
 * instance for backups, {@code instance/job-history=id}, {@code instance/command-log=id} and {@code instance/restores=id}
 * for the others (an instance name holds no '/'); every change is written to a temporary file and moved over the old
 * one, so a crash leaves the old or the new file, never half of one. Blocking file I/O: call it off the event loop.
 */
public final class HighWaterMarks {

    private final Path file;
    private final Map<String, Long> marks = new TreeMap<>();

    /** Loads the marks from {@code file}; a missing file means no instance has been read yet. */
    public HighWaterMarks(Path file) {
        this.file = file;
        if (Files.exists(file)) {
            load();
        }
    }

    private void load() {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the backup high-water marks in " + file, e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.lastIndexOf('=');
            try {
                marks.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
            } catch (RuntimeException e) {
                throw new IllegalStateException(file + " line " + (i + 1) + ": expected 'instance=backup_set_id', found '" + line
                        + "'; fix the line or delete the file (the next sync then reads the whole backup history again)", e);
            }
        }
    }

    /** The mark of an instance, empty before its first sync. */
    public synchronized OptionalLong get(String instance) {
        Long mark = marks.get(instance);
        return mark == null ? OptionalLong.empty() : OptionalLong.of(mark);
    }

    /** The same as {@link #get} as the probe's argument: null before the first sync. */
    public synchronized Long afterBackupSetId(String instance) {
        return marks.get(instance);
    }

    /** The histories besides backups whose marks are kept, by the suffix of their key. */
    public enum History {
        JOB_HISTORY("job-history"), COMMAND_LOG("command-log"), RESTORES("restores");

        final String key;

        History(String key) {
            this.key = key;
        }
    }

    /** Every mark of an instance, as the probe takes them. */
    public synchronized HistoryMarks of(String instance) {
        return new HistoryMarks(marks.get(instance), marks.get(instance + "/" + History.JOB_HISTORY.key),
                marks.get(instance + "/" + History.COMMAND_LOG.key), marks.get(instance + "/" + History.RESTORES.key));
    }

    /** Records the mark of one of an instance's other histories; it may go down (a history that started again). */
    public synchronized void put(String instance, History history, long id) {
        checkName(instance);
        if (instance.contains("/")) {
            throw new IllegalArgumentException("instance name '" + instance + "' cannot be stored: no '/'");
        }
        write(instance + "/" + history.key, id);
    }

    /** Records a new mark and writes the file atomically. */
    public synchronized void put(String instance, long backupSetId) {
        checkName(instance);
        write(instance, backupSetId);
    }

    private static void checkName(String instance) {
        if (instance.contains("=") || instance.contains("\n")) {
            throw new IllegalArgumentException("instance name '" + instance + "' cannot be stored: no '=' or line breaks");
        }
    }

    private void write(String key, long value) {
        marks.put(key, value);
        StringBuilder text = new StringBuilder("# qatwatch: highest msdb.dbo.backupset.backup_set_id read per SQL Server instance; "
                + "instance/job-history, /command-log and /restores: sysjobhistory.instance_id, CommandLog.ID, restore_history_id\n");
        marks.forEach((name, id) -> text.append(name).append('=').append(id).append('\n'));
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                Files.writeString(temp, text, StandardCharsets.UTF_8);
                try {
                    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the backup high-water marks to " + file, e);
        }
    }
}
