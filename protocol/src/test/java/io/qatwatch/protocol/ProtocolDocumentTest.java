package io.qatwatch.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/protocol.md is a contract: its example is the golden report and its field table names every field of an instance. */
class ProtocolDocumentTest {

    private static final Path DOC = Path.of("..", "docs", "protocol.md");

    @Test
    void theExampleIsTheGoldenReport() throws Exception {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("```json\n") + "```json\n".length();
        String example = doc.substring(start, doc.indexOf("```", start));
        assertThat(ReportJson.mapper().readTree(example))
                .isEqualTo(ReportJson.mapper().readTree(GoldenReports.bytes(GoldenReports.COMPLETE)));
    }

    @Test
    void theFieldTableNamesEveryFieldOfAnInstanceSnapshot() throws Exception {
        String table = Files.readString(DOC);
        table = table.substring(table.indexOf("## Fields"), table.indexOf("## A complete example"));
        for (Class<?> type : List.of(SqlInstanceSnapshot.class, SqlInstanceSnapshot.DatabaseInfo.class,
                SqlInstanceSnapshot.BackupRecord.class, SqlInstanceSnapshot.BackupCpu.class, SqlInstanceSnapshot.RunningBackup.class,
                SqlInstanceSnapshot.CertificateInfo.class, SqlInstanceSnapshot.AsymmetricKeyInfo.class,
                SqlInstanceSnapshot.ServerInfo.class, SqlInstanceSnapshot.AcceleratorStatus.class,
                SqlInstanceSnapshot.AgentJob.class, SqlInstanceSnapshot.JobSchedule.class, SqlInstanceSnapshot.JobRun.class,
                SqlInstanceSnapshot.CommandLogEntry.class, SqlInstanceSnapshot.RestoreRecord.class)) {
            for (RecordComponent c : type.getRecordComponents()) {
                String n = c.getName();
                assertThat(table.contains("`" + n + "`") || table.contains("." + n + "`") || table.contains("." + n + "[]"))
                        .as("%s.%s in docs/protocol.md", type.getSimpleName(), n).isTrue();
            }
        }
    }
}
