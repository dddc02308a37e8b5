package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.probe.sqlserver.AgentJobValues.Step;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** msdb's packed integers, job-step classification and BACKUP's COMPRESSION clause, on the texts the tools write. */
class AgentJobValuesTest {

    @Test
    void runDurationIsPackedAsHhmmssNotSeconds() {
        assertThat(AgentJobValues.durationSeconds(13005)).as("1 h 30 min 5 s").isEqualTo(5405);
        assertThat(AgentJobValues.durationSeconds(512)).as("5 min 12 s").isEqualTo(312);
        assertThat(AgentJobValues.durationSeconds(1_000_000)).as("100 hours need three digits of hours").isEqualTo(360_000);
        assertThat(AgentJobValues.durationSeconds(0)).isZero();
    }

    @Test
    void runDateAndTimeAreServerLocalAndConvertedWithTheServersOffset() {
        assertThat(AgentJobValues.runStart(20261130, 13000, 60)).isEqualTo(Instant.parse("2026-11-30T00:30:00Z"));
        assertThat(AgentJobValues.runStart(20261130, 3000, -300)).as("UTC-5").isEqualTo(Instant.parse("2026-11-30T05:30:00Z"));
        assertThat(AgentJobValues.runStart(0, 0, 60)).as("next_run_date 0: not computed").isNull();
        assertThat(AgentJobValues.runStart(20261131, 0, 60)).as("not a date").isNull();
        assertThat(AgentJobValues.clockTime(13000)).isEqualTo("01:30:00");
        assertThat(AgentJobValues.clockTime(0)).isEqualTo("00:00:00");
    }

    @Test
    void compressionIsReadFromTheCompressionOptionOnly() {
        var zstd = AgentJobValues.compression("BACKUP DATABASE [Catalog] TO URL = N'https://a/b.bak' WITH CHECKSUM, "
                + "COMPRESSION (ALGORITHM = ZSTD, LEVEL = MEDIUM), MAXTRANSFERSIZE = 4194304");
        assertThat(zstd).isEqualTo(new AgentJobValues.Compression("ZSTD", "MEDIUM"));
        var encrypted = AgentJobValues.compression("BACKUP LOG [Catalog] TO DISK = N'x.trn' WITH CHECKSUM, COMPRESSION, "
                + "ENCRYPTION (ALGORITHM = AES_256, SERVER CERTIFICATE = [BackupCert])");
        assertThat(encrypted).as("AES_256 is the encryption's algorithm").isEqualTo(new AgentJobValues.Compression(null, null));
        assertThat(AgentJobValues.compression("BACKUP DATABASE [a] TO DISK = N'x' WITH NO_COMPRESSION").algorithm()).isEqualTo("NONE");
        assertThat(AgentJobValues.compression("backup database a to disk = 'x' with compression (algorithm = qat_deflate)").algorithm())
                .isEqualTo("QAT_DEFLATE");
    }

    @Test
    void olaHallengrenJobsNameTheirDatabasesOnlyWhenTheyListThem() {
        var all = AgentJobValues.classify("DatabaseBackup - USER_DATABASES - FULL", List.of(new Step("TSQL",
                "EXECUTE [dbo].[DatabaseBackup]\r\n@Databases = 'USER_DATABASES',\r\n@Directory = N'C:\\Backup',\r\n@BackupType = 'FULL'")));
        assertThat(all).isEqualTo(new AgentJobValues.JobKind("OLA_HALLENGREN", true, List.of("FULL"), List.of()));
        var listed = AgentJobValues.classify("Sales and HR", List.of(new Step("CMDEXEC",
                "sqlcmd -E -S $(ESCAPE_SQUOTE(SRVR)) -d master -Q \"EXECUTE [dbo].[DatabaseBackup] @Databases = 'Sales, [HR]', "
                        + "@BackupType = 'LOG', @Directory = N'C:\\Backup'\" -b")));
        assertThat(listed).isEqualTo(new AgentJobValues.JobKind("OLA_HALLENGREN", true, List.of("LOG"), List.of("Sales", "HR")));
        var excluding = AgentJobValues.classify("all but Archive", List.of(new Step("TSQL",
                "EXECUTE dbo.DatabaseBackup @Databases = 'USER_DATABASES, -Archive', @BackupType = 'DIFF'")));
        assertThat(excluding.databases()).isEmpty();
        assertThat(excluding.backupTypes()).containsExactly("DIFF");
        var index = AgentJobValues.classify("IndexOptimize - USER_DATABASES", List.of(new Step("TSQL",
                "EXECUTE [dbo].[IndexOptimize]\r\n@Databases = 'USER_DATABASES',\r\n@LogToTable = 'Y'")));
        assertThat(index).isEqualTo(new AgentJobValues.JobKind("OLA_HALLENGREN", false, List.of(), List.of()));
    }

    @Test
    void tsqlDbatoolsAndMaintenancePlanBackupsAreRecognised() {
        var tsql = AgentJobValues.classify("nightly", List.of(new Step("TSQL", "BACKUP DATABASE [Sales] TO DISK = N'E:\\s.bak' WITH DIFFERENTIAL;"
                + "\nBACKUP LOG Sales TO DISK = N'E:\\s.trn';\nBACKUP DATABASE @name TO DISK = @file;")));
        assertThat(tsql.kind()).isEqualTo("T-SQL");
        assertThat(tsql.backupTypes()).containsExactly("DIFF", "LOG", "FULL");
        assertThat(tsql.databases()).as("a variable makes the list unknown").isEmpty();
        var named = AgentJobValues.classify("one", List.of(new Step("TSQL", "BACKUP DATABASE [Pay]]ments] TO DISK = N'NUL'")));
        assertThat(named.databases()).containsExactly("Pay]ments");
        var dbatools = AgentJobValues.classify("dbatools", List.of(new Step("PowerShell",
                "Backup-DbaDatabase -SqlInstance SQL01 -Database Sales, HR -Type Differential -Path \\\\backup01\\sql")));
        assertThat(dbatools).isEqualTo(new AgentJobValues.JobKind("DBATOOLS", true, List.of("DIFF"), List.of("Sales", "HR")));
        var plan = AgentJobValues.classify("Nightly Backup.Subplan_1", List.of(new Step("SSIS",
                "/SQL \"Maintenance Plans\\Nightly Backup\" /SERVER SQL03 /SET \"\\Package\\Subplan_1.Disable;false\"")));
        assertThat(plan).isEqualTo(new AgentJobValues.JobKind("MAINTENANCE_PLAN", true, List.of(), List.of()));
        var etl = AgentJobValues.classify("ETL", List.of(new Step("SSIS", "/ISSERVER \"\\SSISDB\\ETL\\Load.dtsx\""), new Step("TSQL", "EXEC x;")));
        assertThat(etl).as("the first step's kind").isEqualTo(new AgentJobValues.JobKind("OTHER", false, List.of(), List.of()));
        assertThat(AgentJobValues.classify("empty", List.of()).kind()).isEqualTo("OTHER");
    }
}
