package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReportTemplateTest {

    private final Instant now = Instant.parse("2026-11-30T06:15:00Z");

    @Test
    void everyRenderedBodyIsAValidNewReportWithTwoNewBackups() {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(42), now, "run1");
        AgentReport third = ReportJson.parse(template.render(3));
        AgentReport fourth = ReportJson.parse(template.render(4));

        assertThat(ReportValidator.validate(third, now)).isEmpty();
        assertThat(third.reportId()).isEqualTo("sql42-run1-3").isNotEqualTo(fourth.reportId());
        SqlInstanceSnapshot instance = third.instances().get(0);
        assertThat(instance.databases()).hasSize(SimulatedAgent.DATABASES);
        assertThat(instance.backups()).extracting(BackupRecord::backupSetId).containsExactly(7L, 8L);
        assertThat(instance.backupHighWaterMark()).isEqualTo(8L);
        assertThat(fourth.instances().get(0).backups()).extracting(BackupRecord::backupSetId).containsExactly(9L, 10L);
    }

    @Test
    void eachReportsBackupsHaveTheirOwnTimesKeepingTheirDuration() {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(5), now, "t");
        BackupRecord third = ReportJson.parse(template.render(3)).instances().get(0).backups().get(1);
        BackupRecord fourth = ReportJson.parse(template.render(4)).instances().get(0).backups().get(1);
        assertThat(Duration.between(third.startedAt(), fourth.startedAt())).isEqualTo(ReportTemplate.STEP);
        assertThat(Duration.between(third.startedAt(), third.finishedAt()))
                .isEqualTo(Duration.between(fourth.startedAt(), fourth.finishedAt())).isPositive();
        assertThat(third.databaseName()).isEqualTo("Billing");
        assertThat(third.finishedAt()).isBefore(now);
    }

    @Test
    void bodiesHaveTheSizeOfARealCycleReport() {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(0), now, "r");
        assertThat(template.size()).isBetween(5_000, 12_000);
        assertThat(template.render(1).length).isBetween(template.size(), template.size() + 200);
    }

    @Test
    void agentsDifferInNameAndDatabaseIdentity() {
        SimulatedAgent a = new SimulatedAgent(1);
        SimulatedAgent b = new SimulatedAgent(2);
        assertThat(a.host()).isEqualTo("sql1");
        assertThat(a.databases().get(0).databaseGuid()).isNotEqualTo(b.databases().get(0).databaseGuid());
    }
}
