package io.qatwatch.agent.service;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes procrun's daily log files that are older than the days kept: procrun writes one file a day each for its
 * own log and the agent's stdout and stderr ({@code procrun.2026-01-31.log}, {@code qatwatch-agent-stdout.2026-01-31.log})
 * and never deletes one. Other files in the folder are left alone.
 */
final class ProcrunLogs {

    private static final Logger LOG = LoggerFactory.getLogger(ProcrunLogs.class);

    /** NAME.YYYY-MM-DD.log, and NAME.YYYY-MM-DD.HHMMSS.log when procrun rotates more often than daily. */
    private static final Pattern DAILY = Pattern.compile("[\\w.-]+\\.\\d{4}-\\d{2}-\\d{2}(\\.\\d{6})?\\.log");

    private ProcrunLogs() {
    }

    /**
     * Deletes the daily files in {@code dir} last written before {@code now - keep} and returns them. A file that
     * cannot be deleted (still open, no permission) is logged and skipped; a missing folder is not an error.
     */
    static List<Path> prune(Path dir, Instant now, Duration keep) {
        List<Path> deleted = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return deleted;
        }
        Instant cutoff = now.minus(keep);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (!DAILY.matcher(file.getFileName().toString()).matches() || !Files.isRegularFile(file)) {
                    continue;
                }
                try {
                    if (Files.getLastModifiedTime(file).toInstant().isBefore(cutoff)) {
                        Files.delete(file);
                        deleted.add(file);
                    }
                } catch (IOException e) {
                    LOG.warn("cannot delete the old log file {}: {}", file, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list the log folder {} to delete old logs: {}", dir, e.toString());
        }
        if (!deleted.isEmpty()) {
            LOG.info("deleted {} log files older than {} days from {}", deleted.size(), keep.toDays(), dir);
        }
        return deleted;
    }
}
