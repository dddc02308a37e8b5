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
    void aDamagedFileIsReportedWithItsLineAndTheWayOut() throws Exception {
        Path file = dir.resolve("marks");
        Files.writeString(file, "PROD=12\nSQL19=twelve\n");
        assertThatThrownBy(() -> new HighWaterMarks(file))
                .hasMessageContaining("line 2")
                .hasMessageContaining("delete the file");
    }
}
