package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.AlertStore;
import io.qatwatch.collector.dispatch.NotificationDecision.LogEntry;
import io.qatwatch.collector.dispatch.Silence;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.FleetRow;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qatwatch collector store copy --to postgresql}: a real SQLite store into a real PostgreSQL, twice. */
class StoreCopyCommandTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:01Z");

    @TempDir
    Path data;

    @Test
    void copiesEveryTableWithCountsAndASecondRunCopiesNothing() throws Exception {
        String token;
        AlertRecord alert = new AlertRecord(new Alert("agent-silent", Severity.WARNING, "sql02", null, null, null,
                "Agent on sql02 silent", "No report.", List.of(), List.of()), AT, null, false);
        try (Database sqlite = Database.open(data)) {
            SqlReportStore store = new SqlReportStore(sqlite);
            for (int n = 1; n <= 3; n++) {
                store.store("sql0" + n, TestReports.numbered(n, 4, AT), AT);
            }
            token = new TokenStore(sqlite).add("sql01", TokenStore.Kind.AGENT, AT);
            AlertStore alerts = new AlertStore(sqlite);
            alerts.migrate();
            alerts.saveAlerts(List.of(alert));
            alerts.saveLogEntry("ops", "rule=agent-silent,host=sql02,instance=", new LogEntry(Map.of(alert.id(),
                    Severity.WARNING), AT), "sql02");
            alerts.saveSilence(new Silence("s1", "agent-silent", "sql03", null, null, "maintenance", "admin", AT,
                    AT.plus(Duration.ofDays(1))));
        }
        StoreConfig pg = StoreKinds.config(Database.Kind.POSTGRESQL);
        Path config = Files.writeString(data.resolve("collector.yaml"), """
                store:
                  kind: postgresql
                  url: %s
                  user: %s
                  passwordFile: %s
                """.formatted(pg.url(), pg.user(), pg.passwordFile()));

        CliRun first = run("collector", "store", "copy", "--to", "postgresql", "--data", data.toString(),
                "--config", config.toString());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).containsPattern("reports\\s+3 read\\s+3 copied")
                .containsPattern("backups\\s+12 read\\s+12 copied").containsPattern("tokens\\s+1 read\\s+1 copied")
                .containsPattern("alert_state\\s+1 read\\s+1 copied").containsPattern("alert_silence\\s+1 read\\s+1 copied");

        CliRun again = run("collector", "store", "copy", "--to", "postgresql", "--data", data.toString(),
                "--config", config.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.out()).containsPattern("backups\\s+12 read\\s+0 copied\\s+12 there already")
                .contains("Nothing new");

        try (Database sqlite = Database.open(data); Database target = StoreKinds.open(pg, data)) {
            SqlReportStore from = new SqlReportStore(sqlite);
            SqlReportStore into = new SqlReportStore(target);
            assertThat(into.fleet()).as("the same fleet, sections and all").isEqualTo(from.fleet());
            Instant since = AT.minus(Duration.ofDays(2));
            for (FleetRow row : from.fleet()) {
                assertThat(into.backups(row.host(), "MSSQLSERVER", since).stream().map(StoredBackup::backup).toList())
                        .isEqualTo(from.backups(row.host(), "MSSQLSERVER", since).stream().map(StoredBackup::backup).toList());
            }
            assertThat(into.backupsAfter(0, since).backups()).as("new to the alert stage of the target").hasSize(12);
            assertThat(new TokenStore(target).authenticate(token)).map(TokenStore.TokenInfo::name).contains("sql01");
            AlertStore copied = new AlertStore(target);
            assertThat(copied.loadAlerts()).extracting(AlertRecord::id).containsExactly(alert.id());
            assertThat(StoreKinds.scalar(target, "SELECT slice FROM alert_state")).isEqualTo(HostSlices.of("sql02"));
            assertThat(StoreKinds.scalar(target, "SELECT slice FROM alert_notification_log"))
                    .as("the slice of the group's host").isEqualTo(HostSlices.of("sql02"));
            assertThat(copied.loadSilences()).extracting(Silence::id).containsExactly("s1");
        }
    }

    @Test
    void withoutATargetItSaysWhichOptionIsMissing() {
        CliRun run = run("collector", "store", "copy", "--to", "postgresql", "--data", data.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--url (or store.url)").contains("--user (or store.user)");
        assertThat(run("collector", "store", "copy", "--to", "mysql", "--data", data.toString()).err())
                .contains("--to must be postgresql");
    }


    private static CliRun run(String... args) {
        return CliRun.of(args);
    }
}
