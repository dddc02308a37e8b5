package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReportTemplateTest {

    private final Instant now = Instant.parse("2026-11-30T06:15:00Z");

    @Test
    void everyRenderedBodyIsAValidNewReportWithTwoNewBackups() {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(42), now);
        AgentReport third = ReportJson.parse(template.render("run1", 3));
        AgentReport fourth = ReportJson.parse(template.render("run1", 4));

        assertThat(ReportValidator.validate(third, now)).isEmpty();
        assertThat(third.reportId()).isEqualTo("sql42-run1-3").isNotEqualTo(fourth.reportId());
        SqlInstanceSnapshot instance = third.instances().get(0);
        assertThat(instance.databases()).hasSize(SimulatedAgent.DATABASES);
        assertThat(instance.backups()).extracting(SqlInstanceSnapshot.BackupRecord::backupSetId).containsExactly(7L, 8L);
        assertThat(instance.backupHighWaterMark()).isEqualTo(8L);
        assertThat(fourth.instances().get(0).backups())
                .extracting(SqlInstanceSnapshot.BackupRecord::backupSetId).containsExactly(9L, 10L);
    }

    @Test
    void bodiesHaveTheSizeOfARealCycleReport() {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(0), now);
        assertThat(template.size()).isBetween(5_000, 12_000);
        assertThat(template.render("r", 1).length).isBetween(template.size(), template.size() + 64);
    }

    @Test
    void agentsDifferInNameAndDatabaseIdentity() {
        SimulatedAgent a = new SimulatedAgent(1);
        SimulatedAgent b = new SimulatedAgent(2);
        assertThat(a.host()).isEqualTo("sql1");
        assertThat(a.databases().get(0).databaseGuid()).isNotEqualTo(b.databases().get(0).databaseGuid());
    }
}
