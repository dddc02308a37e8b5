package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Jobs.backupCommand;
import static io.qatwatch.collector.testing.Jobs.backupJob;
import static io.qatwatch.collector.testing.Jobs.daily;
import static io.qatwatch.collector.testing.Jobs.otherJob;
import static io.qatwatch.collector.testing.Jobs.outcome;
import static io.qatwatch.collector.testing.Jobs.restore;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The rules and facts that read SQL Server Agent jobs, CommandLog and restores, with an injected clock. */
class JobEvidenceRulesTest {

    private static final CalendarConfig RETAIL = new CalendarConfig("retail", "Europe/Berlin",
            Map.of("mon-sun", "07:00-19:00"), List.of(), 60);
    private static final String BACKUP_JOB = "0A0A0A0A-1111-4222-8333-444455556666";
    private static final String INDEX_JOB = "0B0B0B0B-1111-4222-8333-444455556666";
    private static final String CHECKDB_JOB = "0C0C0C0C-1111-4222-8333-444455556666";

    private static AlertsConfig config(CalendarConfig calendar, RulesConfig rules) {
        return new AlertsConfig(List.of(calendar), null, null, null, rules, null, null).validate();
    }

    private static InstanceState instance(String name, Instant at, ServerInfo server, List<ConfigOption> configuration,
            List<io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus> accelerators, List<DatabaseInfo> dbs,
            List<BackupRecord> backups, JobActivity jobs) {
        return new InstanceState(name, at, server, configuration, accelerators, dbs, List.of(), List.of(), List.of(), backups,
                List.of(), null, jobs);
    }

    private static HostState host(String name, Instant at, InstanceState... instances) {
        return Histories.host(name, at, instances);
    }

    /**
     * The creeping 2 TB full of BackupWindowScenarioTest (00:05 every night, 20,000 s + 28.571 s a night, business 07:00
     * Berlin), with IndexOptimize starting three minutes earlier each night (06:00 on night 0) for two hours, and CHECKDB
     * overlapping the same 20 minutes every night. The creep's why names IndexOptimize, not CHECKDB nor the backup job.
     */
    @Test
    void theCreepAlertNamesAJobThatOverlapsMoreEachNight() {
        LocalDate d0 = LocalDate.of(2026, 1, 5);
        List<BackupRecord> backups = new ArrayList<>();
        List<JobRun> runs = new ArrayList<>();
        long id = 1;
        for (int k = 0; k < 30; k++) {
            long bytes = 2_000_000_000_000L + Math.round(k * 20_000_000_000.0 / 7);
            BackupRecord full = backup("Archive", "D", berlin(d0.plusDays(k), 0, 5), Math.round(bytes / 1e8), bytes,
                    "MS_XPRESS", "VIRTUAL_DEVICE");
            backups.add(full);
            runs.add(outcome(id++, BACKUP_JOB, "DatabaseBackup - FULL", "SUCCEEDED", full.startedAt(),
                    Duration.between(full.startedAt(), full.finishedAt()).getSeconds(), "ok"));
            runs.add(outcome(id++, INDEX_JOB, "IndexOptimize - USER_DATABASES", "SUCCEEDED",
                    berlin(d0.plusDays(k), 6, 0).minus(Duration.ofMinutes(3L * k)), 7200, "ok"));
            runs.add(outcome(id++, CHECKDB_JOB, "DatabaseIntegrityCheck", "SUCCEEDED",
                    full.finishedAt().minus(Duration.ofMinutes(20)), 3600, "ok"));
        }
        List<AgentJob> jobs = List.of(backupJob(BACKUP_JOB, "DatabaseBackup - FULL", List.of("Archive"),
                        daily("00:05:00", berlin(d0.plusDays(30), 0, 5))),
                otherJob(INDEX_JOB, "IndexOptimize - USER_DATABASES"), otherJob(CHECKDB_JOB, "DatabaseIntegrityCheck"));
        Instant now = berlin(d0.plusDays(29), 8, 0);
        InstanceState prod = instance("PROD", now, null, List.of(), List.of(), List.of(Histories.db("Archive", "SIMPLE")),
                backups, new JobActivity("AVAILABLE", jobs, runs, List.of(), List.of()));
        List<Alert> alerts = config(RETAIL, null).evaluator().evaluate(new FleetState(List.of(host("sql-fra-01", now, prod))), now)
                .alerts().stream().filter(a -> a.rule().equals("backup-window-creep")).toList();

        // the fit's nights are the latest 21: k = 9 .. 29; IndexOptimize overlaps from its start to the window's end
        BackupRecord last = backups.get(29);
        double latest = Duration.between(berlin(d0.plusDays(29), 6, 0).minus(Duration.ofMinutes(87)), last.finishedAt()).getSeconds() / 60.0;
        BackupRecord first = backups.get(9);
        double was = Duration.between(berlin(d0.plusDays(9), 6, 0).minus(Duration.ofMinutes(27)), first.finishedAt()).getSeconds() / 60.0;
        assertThat(alerts).singleElement().satisfies(a -> {
            String jobs1 = a.facts().stream().filter(f -> f.label().equals("Jobs overlapping more")).findFirst().orElseThrow().value();
            assertThat(jobs1).startsWith("IndexOptimize - USER_DATABASES now overlaps the full window by "
                    + Fmt.minutes(latest) + " (was " + Fmt.minutes(was) + " on " + d0.plusDays(9) + ", +")
                    .doesNotContain("DatabaseIntegrityCheck").doesNotContain("DatabaseBackup");
            assertThat(a.details()).contains("Start or length: planned start").contains("it runs longer and longer");
        });
    }

    /**
     * S3-compatible defaults: one URL holds 10,000 parts x MAXTRANSFERSIZE 10,485,760 bytes = 104,857,600,000 bytes.
     * SalesDW's nightly full to 4 URLs wrote 380e9 + 1e9·k bytes on night k (k = 0..13, each finishing 02:00 UTC from
     * 2026-11-01). The line is exact: slope 1e9 bytes/day, 380e9 at the first finish. Ceiling 4 x 104,857,600,000 =
     * 419,430,400,000 bytes, reached (419.4304e9 − 380e9) / 1e9 = 39.4304 days after 2026-11-01T02:00Z, i.e. 39 days
     * and 10.33 h: 2026-12-10 12:19 UTC (13:19 in Berlin). On 2026-11-14 that is 26 days ahead, within the 30-day
     * horizon. Billing's full to one URL, 90e9 + 0.5e9·k bytes: (104.8576e9 − 90e9) / 0.5e9 = 29.7152 days, 2026-11-30
     * 19:10 UTC (20:10 Berlin): 2026-11-30. HR's URL count is unknown (an agent before issue 15): no forecast.
     */
    @Test
    void theUrlCeilingForecastMatchesTheHandCalculation() {
        Instant now = Instant.parse("2026-11-14T08:00:00Z");
        List<BackupRecord> backups = Histories.growingUrlFulls();
        InstanceState prod = instance("PROD", now, null, List.of(), List.of(), List.of(Histories.db("SalesDW", "FULL"),
                Histories.db("Billing", "FULL"), Histories.db("HR", "FULL")), backups, JobActivity.NONE);
        List<Alert> alerts = config(RETAIL, null).evaluator().evaluate(new FleetState(List.of(host("sql01", now, prod))), now)
                .alerts().stream().filter(a -> a.rule().equals("backup-url-size-ceiling")).toList();
        assertThat(alerts).extracting(Alert::database).containsExactly("SalesDW", "Billing");
        assertThat(alerts.get(0).forecast()).isEqualTo(LocalDate.of(2026, 12, 10));
        assertThat(alerts.get(0).details()).contains("Ceiling: 419.43 GB = 4 URL(s) x 104.86 GB (10,000 parts x MAXTRANSFERSIZE 10,485,760 bytes, S3-compatible)")
                .contains("Growth: 1.00 GB/day").contains("(in 26 days)");
        assertThat(alerts.get(1).forecast()).isEqualTo(LocalDate.of(2026, 11, 30));

        UrlCeilingRules.Forecast f = UrlCeilingRules.forecast(backups.stream().filter(b -> b.databaseName().equals("SalesDW")).toList(),
                RulesConfig.DEFAULTS.backupUrlSizeCeiling().bytesPerUrl(), 3);
        assertThat(f.crossing()).isBetween(Instant.parse("2026-12-10T12:19:00Z"), Instant.parse("2026-12-10T12:20:00Z"));

        RulesConfig azure = rules(new RulesConfig.UrlSizeCeiling(null, null, null, null, "azure", null, null, null, null), null);
        assertThat(azure.backupUrlSizeCeiling().bytesPerUrl()).as("50,000 blocks x 4 MiB").isEqualTo(209_715_200_000L);
        assertThat(config(RETAIL, azure).evaluator().evaluate(new FleetState(List.of(host("sql01", now, prod))), now).alerts())
                .as("on Azure the same backups have room beyond the horizon").noneMatch(a -> a.rule().equals("backup-url-size-ceiling"));
    }

    private static RulesConfig rules(RulesConfig.UrlSizeCeiling ceiling, RulesConfig.RestoreUntested untested) {
        return new RulesConfig(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, ceiling, untested);
    }

    /**
     * SalesDW on sql01 was restored on sql-dr (another server, its copy has a GUID of its own; the family GUID is
     * SalesDW's) ten days ago; HR never. Off by default; on with 30 days, HR only; with 7 days, both. The restore
     * counts whichever host performed it.
     */
    @Test
    void restoreUntestedFindsDatabasesNoHostRestoredRecently() {
        Instant now = Instant.parse("2026-11-30T09:00:00Z");
        DatabaseInfo sales = new DatabaseInfo("SalesDW", "g-sales", "FULL", "NONE", null, null, null, "f-sales", null, null,
                null, null, null);
        DatabaseInfo hr = new DatabaseInfo("HR", "g-hr", "SIMPLE", "NONE", null, null, null, "f-hr", null, null, null, null, null);
        List<BackupRecord> fulls = List.of(
                new BackupRecord(1, "SalesDW", "g-sales", "D", false, now.minus(Duration.ofDays(1)), now.minus(Duration.ofHours(20)),
                        true, 1L << 30, 1L << 28, "MS_XPRESS", true, "NO_Encryption", null, null, "DISK", "UNC", "f-sales", false),
                new BackupRecord(2, "HR", "g-hr", "D", false, now.minus(Duration.ofDays(1)), now.minus(Duration.ofHours(20)),
                        true, 1L << 30, 1L << 28, "MS_XPRESS", true, "NO_Encryption", null, null, "DISK", "UNC", "f-hr", false),
                new BackupRecord(3, "master", "g-master", "D", false, now.minus(Duration.ofDays(1)), now.minus(Duration.ofHours(20)),
                        true, 1L << 20, 1L << 18, "MS_XPRESS", true, "NO_Encryption", null, null, "DISK", "UNC", "f-m", false));
        InstanceState prod = instance("PROD", now, null, List.of(), List.of(), List.of(sales, hr,
                new DatabaseInfo("master", "g-master", "SIMPLE", "NONE", null, null, null)), fulls, JobActivity.NONE);
        RestoreRecord tested = restore(7, "SalesDW_check", now.minus(Duration.ofDays(10)), "SQL01\\PROD", "SalesDW", "g-sales", "f-sales");
        InstanceState dr = instance("DR", now, null, List.of(), List.of(), List.of(new DatabaseInfo("SalesDW_check", "g-copy",
                "SIMPLE", "NONE", null, null, null, "f-sales", null, null, null, null, null)), List.of(),
                new JobActivity("AVAILABLE", List.of(), List.of(), List.of(), List.of(tested)));
        FleetState fleet = new FleetState(List.of(host("sql01", now, prod), host("sql-dr", now, dr)));

        assertThat(config(RETAIL, null).evaluator().evaluate(fleet, now).alerts()).as("off by default")
                .noneMatch(a -> a.rule().equals("restore-untested"));
        List<Alert> thirty = config(RETAIL, rules(null, new RulesConfig.RestoreUntested(true, null, 30))).evaluator()
                .evaluate(fleet, now).alerts().stream().filter(a -> a.rule().equals("restore-untested")).toList();
        assertThat(thirty).singleElement().satisfies(a -> {
            assertThat(a.where()).isEqualTo("sql01 / PROD / HR");
            assertThat(a.severity()).isEqualTo(io.qatwatch.collector.alert.Severity.INFO);
            assertThat(a.summary()).isEqualTo("No restore of HR's backups anywhere in the fleet in the last 60 days");
        });
        List<Alert> seven = config(RETAIL, rules(null, new RulesConfig.RestoreUntested(true, null, 7))).evaluator()
                .evaluate(fleet, now).alerts().stream().filter(a -> a.rule().equals("restore-untested")).toList();
        assertThat(seven).extracting(Alert::database).containsExactlyInAnyOrder("HR", "SalesDW");
        assertThat(seven.stream().filter(a -> a.database().equals("SalesDW")).findFirst().orElseThrow().details())
                .contains("Last restore: Fri 2026-11-20 10:00 CET on sql-dr/DR as SalesDW_check");

        Assertions.assertThatThrownBy(() -> config(RETAIL, rules(null, new RulesConfig.RestoreUntested(true, null, 90))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("alerts.rules.restoreUntested.maxAgeDays");
    }

    /**
     * SQL Server 2025 with QAT in hardware mode: the instance default is MS_XPRESS (ZSTD cannot be: Msg 15129), the
     * jobs' commands name ZSTD LEVEL = MEDIUM for SalesDW and MS_XPRESS for Billing. qat-config-mismatch says what the
     * commands configure and that the fix for Billing is in its job, not the instance default.
     */
    @Test
    void theConfiguredAlgorithmIsTheJobsCommandWhereCommandLogSaysSo() {
        Instant now = Instant.parse("2026-11-30T09:00:00Z");
        Instant night = now.minus(Duration.ofHours(7));
        List<BackupRecord> backups = List.of(backup("SalesDW", "D", night, 600, 100L << 30, "ZSTD", "URL"),
                backup("Billing", "D", night.plusSeconds(900), 600, 10L << 30, "MS_XPRESS", "URL"));
        List<CommandLogEntry> commands = List.of(backupCommand(1, "SalesDW", night, "ZSTD", "MEDIUM"),
                backupCommand(2, "Billing", night.plusSeconds(900), "MS_XPRESS", null));
        ServerInfo sql2025 = new ServerInfo("17.0.1000.7", 17, "Enterprise Edition", 3, "SQL01", "SQL01", false);
        InstanceState prod = instance("PROD", now, sql2025, List.of(new ConfigOption("backup compression algorithm", 1, 1)),
                List.of(Histories.qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU")),
                List.of(Histories.db("SalesDW", "FULL"), Histories.db("Billing", "FULL")), backups,
                new JobActivity("AVAILABLE", List.of(), List.of(), commands, List.of()));
        List<Alert> alerts = config(RETAIL, null).evaluator().evaluate(new FleetState(List.of(host("sql01", now, prod))), now)
                .alerts().stream().filter(a -> a.rule().equals("qat-config-mismatch")).toList();
        assertThat(alerts).singleElement().satisfies(a -> assertThat(a.details())
                .contains("'backup compression algorithm': 1 (MS_XPRESS)")
                .contains("The jobs' commands (CommandLog): MS_XPRESS for Billing; ZSTD LEVEL = MEDIUM for SalesDW (ZSTD cannot "
                        + "be the instance default: sp_configure 'backup compression algorithm', 3 fails with Msg 15129; each "
                        + "BACKUP names it)")
                .contains("MS_XPRESS in the last 48 h: Billing")
                .contains("Fix: the jobs' commands name ALGORITHM = MS_XPRESS for Billing"));
    }

    /**
     * A breach the night the backup job started 70 minutes late (Agent was down at 00:05) is told apart from one where
     * the job started on time and ran long.
     */
    @Test
    void aWindowThatStartedLateBecauseTheJobDidIsToldApartFromOneThatRanLong() {
        LocalDate morning = LocalDate.of(2026, 11, 30);
        Instant planned = berlin(morning, 0, 5);
        List<AgentJob> jobs = List.of(backupJob(BACKUP_JOB, "DatabaseBackup - FULL", List.of("Archive"),
                daily("00:05:00", berlin(morning.plusDays(1), 0, 5))));
        Instant now = berlin(morning, 8, 0);

        BackupRecord late = backup("Archive", "D", planned.plus(Duration.ofMinutes(70)), 7 * 3600, 1L << 40, "MS_XPRESS", "UNC");
        List<JobRun> lateRun = List.of(outcome(1, BACKUP_JOB, "DatabaseBackup - FULL", "SUCCEEDED", late.startedAt(), 7 * 3600, "ok"));
        assertThat(breachFact(now, late, jobs, lateRun)).isEqualTo("Mon 2026-11-30 00:05 CET (DatabaseBackup - FULL); the "
                + "window began 1 h 10 min late: the job itself started late, at Mon 2026-11-30 01:15 CET");

        InstanceState lateProd = instance("PROD", now, null, List.of(), List.of(), List.of(Histories.db("Archive", "SIMPLE")),
                List.of(late), new JobActivity("AVAILABLE", jobs, lateRun, List.of(), List.of()));
        var json = io.qatwatch.collector.analysis.WindowsJson.of(config(RETAIL, null).evaluator()
                .analyse(new FleetState(List.of(host("sql01", now, lateProd))), now).instances().get(0))
                .getJsonArray("windows").getJsonObject(0);
        assertThat(json.getString("plannedStart")).as("the windows API's planned start").isEqualTo(planned.toString());
        assertThat(json.getLong("lateStartSeconds")).isEqualTo(70 * 60L);
        assertThat(json.getString("plannedBy")).isEqualTo("DatabaseBackup - FULL");

        BackupRecord longRun = backup("Archive", "D", planned.plusSeconds(20), 8 * 3600, 1L << 40, "MS_XPRESS", "UNC");
        List<JobRun> onTime = List.of(outcome(1, BACKUP_JOB, "DatabaseBackup - FULL", "SUCCEEDED", planned, 8 * 3600, "ok"));
        assertThat(breachFact(now, longRun, jobs, onTime)).isEqualTo("Mon 2026-11-30 00:05 CET (DatabaseBackup - FULL); the "
                + "window began on time and ran long: 8 h 00 min from its first start to its last finish");
    }

    private static String breachFact(Instant now, BackupRecord full, List<AgentJob> jobs, List<JobRun> runs) {
        InstanceState prod = instance("PROD", now, null, List.of(), List.of(), List.of(Histories.db("Archive", "SIMPLE")),
                List.of(full), new JobActivity("AVAILABLE", jobs, runs, List.of(), List.of()));
        Alert breach = config(RETAIL, null).evaluator().evaluate(new FleetState(List.of(host("sql01", now, prod))), now)
                .alerts().stream().filter(a -> a.rule().equals("backup-window-breach")).findFirst().orElseThrow();
        return breach.facts().stream().filter(f -> f.label().equals("Planned start")).findFirst().orElseThrow().value();
    }
}
