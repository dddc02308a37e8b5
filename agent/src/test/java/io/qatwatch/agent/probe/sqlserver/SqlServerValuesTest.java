package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlServerValuesTest {

    @Test
    void backupTimesUseTheRecordedOffsetOrTheHostZoneWhenUnknown() {
        LocalDateTime local = LocalDateTime.parse("2026-07-01T02:30:00");
        ZoneId host = ZoneId.of("America/New_York");
        assertThat(SqlServerValues.backupTimeUtc(local, -16, host)).isEqualTo(Instant.parse("2026-07-01T06:30:00Z"));
        assertThat(SqlServerValues.backupTimeUtc(local, 22, host)).as("UTC+5:30").isEqualTo(Instant.parse("2026-06-30T21:00:00Z"));
        assertThat(SqlServerValues.backupTimeUtc(local, 127, host)).as("EDT in July").isEqualTo(Instant.parse("2026-07-01T06:30:00Z"));
        assertThat(SqlServerValues.timeZoneKnown(127)).isFalse();
    }

    @Test
    void targetsAreToldApartByDeviceAndPath() {
        assertThat(SqlServerValues.target(2, "E:\\Backup\\a.bak")).isEqualTo("LOCAL");
        assertThat(SqlServerValues.target(2, "/var/opt/mssql/backup/a.bak")).isEqualTo("LOCAL");
        assertThat(SqlServerValues.target(2, "\\\\nas01\\sql\\a.bak")).isEqualTo("UNC");
        assertThat(SqlServerValues.target(2, "NUL")).isEqualTo("NUL");
        assertThat(SqlServerValues.target(9, "https://acct.blob.core.windows.net/c/a.bak")).isEqualTo("URL");
        assertThat(SqlServerValues.target(2, "s3://bucket.example/a.bak")).isEqualTo("URL");
        assertThat(SqlServerValues.target(7, "{GUID}1")).isEqualTo("VIRTUAL_DEVICE");
        assertThat(SqlServerValues.target(5, "\\\\.\\Tape0")).isEqualTo("TAPE");
        // backupmediafamily: 102 is a permanent disk device, 105 a permanent tape device; only a disk path names a share
        assertThat(SqlServerValues.target(105, "\\\\.\\Tape0")).as("a permanent tape is not UNC").isEqualTo("TAPE");
        assertThat(SqlServerValues.deviceType(105)).isEqualTo("TAPE");
        assertThat(SqlServerValues.deviceType(102)).isEqualTo("DISK");
        assertThat(SqlServerValues.target(102, "E:\\Backup\\SalesLogDevice.bak")).isEqualTo("LOCAL");
        assertThat(SqlServerValues.target(102, "\\\\nas01\\dev\\a.bak")).isEqualTo("UNC");
        assertThat(SqlServerValues.target(107, "\\\\nas01\\x")).as("undocumented device type").isEqualTo("UNKNOWN");
        assertThat(SqlServerValues.target(2, "\\\\?\\UNC\\nas01\\sql\\a.bak")).isEqualTo("UNC");
        assertThat(SqlServerValues.target(2, "\\\\?\\E:\\Backup\\a.bak")).as("long-path prefix, local").isEqualTo("LOCAL");
    }

    @Test
    void permissionErrorsBecomeTheGrantToRun() {
        SqlQuery q = SqlQuery.BACKUP_HISTORY;
        var denied = SqlProbeErrors.explain(new SQLException(
                "The SELECT permission was denied on the object 'backupset', database 'msdb', schema 'dbo'.", "S0005", 229), "here", q, "mon", 30);
        assertThat(denied.hint()).startsWith("USE msdb; GRANT SELECT ON dbo.backupset TO [mon];");
        var noUser = SqlProbeErrors.explain(new SQLException("The server principal \"mon\" is not able to access the database \"msdb\"", "08004", 916),
                "here", q, "mon", 30);
        assertThat(noUser.hint()).contains("CREATE USER [mon] FOR LOGIN [mon]");
        var timeout = SqlProbeErrors.explain(new SQLTimeoutException("The query has timed out."), "here", q, null, 30);
        assertThat(timeout.hint()).contains("longer than 30 s");
        var windows = SqlProbeErrors.explain(new SQLException("VIEW SERVER STATE permission was denied on object 'server', database 'master'.", "S0001", 300),
                "here", q, null, 30);
        assertThat(windows.hint()).contains("GRANT VIEW SERVER STATE TO [DOMAIN\\service-account]");
    }

    @Test
    void everyQueryFileHasTheHeaderAndOnlyKnownPlaceholders() {
        List<SqlQuery> all = SqlQuery.all();
        Map<String, Long> numbers = Map.of("page_size", 5000L, "after_backup_set_id", 41230L, "up_to_backup_set_id", 41240L,
                "after_instance_id", 88212L,
                "after_id", 120395L, "after_restore_history_id", 716L);
        Map<String, String> tables = Map.of("command_log_table", "DBA");
        for (SqlQuery q : all) {
            assertThat(q.text()).as(q.name()).contains("\n-- Purpose:", "\n-- Permission:", "\n-- Source:", "\n-- Columns:");
            assertThat(q.text(numbers, tables)).as(q.name()).doesNotContain("{");
        }
        assertThat(SqlQuery.COMMAND_LOG.text(numbers, tables)).contains("FROM [DBA].dbo.CommandLog AS cl", "cl.ID > 120395");
        assertThatThrownBy(() -> SqlQuery.COMMAND_LOG.text(numbers, Map.of("command_log_table", "DBA].dbo.x; DROP TABLE y; --")))
                .as("a database name is never free text in a query").isInstanceOf(IllegalArgumentException.class);
        assertThat(SqlQuery.BACKUP_HISTORY_2022.text(numbers)).contains("SELECT TOP (5000)", "bs.backup_set_id > 41230",
                "bs.backup_set_id <= 41240", "UPPER(bs.server_name) = UPPER(CAST(SERVERPROPERTY('ServerName') AS nvarchar(128)))");
        assertThat(SqlQuery.ACCELERATOR_STATUS.runsOn(15)).isFalse();
        assertThat(SqlQuery.ACCELERATOR_STATUS.runsOn(16)).isTrue();
    }

    @Test
    void credentialsNeverAppearInMessages() {
        assertThat(JdbcSqlInstanceProbe.redact("jdbc:sqlserver://h;user=a;password=hunter2;encrypt=true"))
                .isEqualTo("jdbc:sqlserver://h;user=a;password=***;encrypt=true");
    }
}
