package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HighWaterMarksTest {

    @TempDir
    Path dir;

    @Test
    void marksSurviveARestartAndNoTemporaryFileIsLeft() throws Exception {
        Path file = dir.resolve("state/backup-marks.properties");
        HighWaterMarks marks = new HighWaterMarks(file);
        assertThat(marks.get("PROD")).isEmpty();
        assertThat(marks.afterBackupSetId("PROD")).isNull();
        marks.put("PROD", 41_230);
        marks.put("SQL19", 9_105);
        marks.put("PROD", 41_300);

        HighWaterMarks restarted = new HighWaterMarks(file);
        assertThat(restarted.get("PROD")).hasValue(41_300);
        assertThat(restarted.afterBackupSetId("SQL19")).isEqualTo(9_105L);
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void theOtherHistoriesKeepTheirOwnMarksBesideTheBackupsAndMayGoBack() throws Exception {
        Path file = dir.resolve("marks");
        Files.writeString(file, "# an agent before issue 15\nPROD=41230\n");
        HighWaterMarks marks = new HighWaterMarks(file);
        assertThat(marks.of("PROD")).isEqualTo(new HistoryMarks(41_230L, null, null, null));
        marks.put("PROD", HighWaterMarks.History.JOB_HISTORY, 88_212);
        marks.put("PROD", HighWaterMarks.History.COMMAND_LOG, 120_395);
        marks.put("PROD", HighWaterMarks.History.RESTORES, 716);
        marks.put("PROD", HighWaterMarks.History.JOB_HISTORY, 12);

        HighWaterMarks restarted = new HighWaterMarks(file);
        assertThat(restarted.of("PROD")).as("a job history that started again").isEqualTo(new HistoryMarks(41_230L, 12L, 120_395L, 716L));
        assertThat(restarted.afterBackupSetId("PROD")).isEqualTo(41_230L);
        assertThat(Files.readString(file)).contains("PROD=41230\n", "PROD/job-history=12\n", "PROD/command-log=120395\n",
                "PROD/restores=716\n");
    }

    @Test
    void aDamagedFileIsReportedWithItsLineAndTheWayOut() throws Exception {
        Path file = dir.resolve("marks");
        Files.writeString(file, "PROD=12\nSQL19=twelve\n");
        assertThatThrownBy(() -> new HighWaterMarks(file))
                .hasMessageContaining("line 2")
                .hasMessageContaining("delete the file");
    }
}
