package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcrunLogsTest {

    private static final Instant NOW = Instant.parse("2026-03-31T12:00:00Z");

    @Test
    void deletesOnlyProcrunsDailyFilesOlderThanTheDaysKept(@TempDir Path logs) throws IOException {
        Path oldOwn = file(logs, "procrun.2026-02-01.log", 58);
        Path oldStdout = file(logs, "qatwatch-agent-stdout.2026-02-01.log", 58);
        Path oldRotated = file(logs, "qatwatch-agent-stderr.2026-02-01.120000.log", 58);
        Path recent = file(logs, "procrun.2026-03-30.log", 1);
        Path aPersonsNotes = file(logs, "notes.log", 58);
        Path notALog = file(logs, "procrun.2026-02-01.txt", 58);

        assertThat(ProcrunLogs.prune(logs, NOW, Duration.ofDays(30))).containsExactlyInAnyOrder(oldOwn, oldStdout, oldRotated);

        assertThat(oldOwn).doesNotExist();
        assertThat(oldStdout).doesNotExist();
        assertThat(oldRotated).doesNotExist();
        assertThat(recent).exists();
        assertThat(aPersonsNotes).exists();
        assertThat(notALog).exists();
    }

    @Test
    void aMissingFolderDeletesNothing(@TempDir Path dir) {
        assertThat(ProcrunLogs.prune(dir.resolve("logs"), NOW, Duration.ofDays(30))).isEmpty();
    }

    static Path file(Path dir, String name, int daysOld) throws IOException {
        Path file = Files.writeString(dir.resolve(name), "a log line\n");
        Files.setLastModifiedTime(file, FileTime.from(NOW.minus(Duration.ofDays(daysOld))));
        return file;
    }
}
