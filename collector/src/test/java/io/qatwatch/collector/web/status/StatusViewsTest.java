package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the status page takes from the compression comparison and the alerts. */
class StatusViewsTest {

    private static final long GB = 1L << 30;

    @Test
    void theCompressionViewKeepsThePagesHostsInOrderWithTheFleetsCounts() {
        Instant now = Instant.parse("2026-11-30T08:00:00Z");
        List<BackupRecord> sql01 = new java.util.ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            sql01.add(backup(n, "Sales", "MS_XPRESS", now.minusSeconds(n * 86_400L), 1000, null));
            sql01.add(backup(10 + n, "Sales", "QAT_DEFLATE", now.minusSeconds(n * 86_400L + 7200), 500, null));
            sql01.add(backup(20 + n, "Hr", "MS_XPRESS", now.minusSeconds(n * 86_400L + 3600), 300, "AES_256"));
        }
        FleetState fleet = new FleetState(List.of(
                Histories.host("sql02", now, Histories.instance("MSSQLSERVER", now, List.of(), List.of(
                        backup(31, "Hr", "MS_XPRESS", now.minusSeconds(90_000), 300, null)), List.of())),
                Histories.host("sql01", now, Histories.instance("MSSQLSERVER", now,
                        List.of(new DatabaseInfo("Sales", null, "FULL", "ENCRYPTED", null, null, null)), sql01, List.of()))));
        FleetCompression c = new FleetAnalysis(fleet, AlertsConfig.DEFAULTS.validate().analysis(), now).compression();

        StatusView.Compression view = StatusViews.compression(c, new java.util.LinkedHashSet<>(List.of("sql01", "sql03")));

        assertThat(view.hosts()).extracting(StatusView.HostCompression::host).as("only the page's hosts that have rows")
                .containsExactly("sql01");
        assertThat(view.hosts().get(0).rows()).extracting(StatusView.CompressionRow::database, StatusView.CompressionRow::encryption,
                StatusView.CompressionRow::verdict).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Hr", "TDE unknown, backup encrypted", "SINGLE_ALGORITHM"),
                org.assertj.core.groups.Tuple.tuple("Sales", "TDE", "FASTER"));
        assertThat(view.hosts().get(0).summary()).isEqualTo("QAT_DEFLATE: faster to local disk for 1 of 1 database");
        assertThat(view.fleet()).singleElement().satisfies(f -> {
            assertThat(f.method()).isEqualTo("QAT_DEFLATE");
            assertThat(f.verdicts()).containsEntry("FASTER", 1).containsEntry("NO_GAIN", 0);
        });
        assertThat(view.restoreBurden()).as("two hosts probed, neither sent QAT facts (issue 29 item 13: it said 0 of 0)")
                .isEqualTo("restorable on 0 of 2 probed hosts (2 of them sent no QAT facts yet)");
    }

    @Test
    void theFleetTableCountsTheCpuVerdictsBesideTheTimeAndSizeOnes() {
        Instant now = Instant.parse("2026-11-30T08:00:00Z");
        List<BackupRecord> sql01 = new java.util.ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            // the same speed, 43 % of MS_XPRESS's CPU (Intel's QAT figure): CHEAPER, which NO_GAIN would hide
            sql01.add(withCpu(backup(n, "Sales", "MS_XPRESS", now.minusSeconds(n * 86_400L), 1000 + n, null), 1_000_000L + n));
            sql01.add(withCpu(backup(10 + n, "Sales", "QAT_DEFLATE", now.minusSeconds(n * 86_400L + 7200), 995 + n, null), 430_000L + n));
        }
        FleetState fleet = new FleetState(List.of(Histories.host("sql01", now, Histories.instance("MSSQLSERVER", now, List.of(),
                sql01, List.of()))));
        FleetCompression c = new FleetAnalysis(fleet, AlertsConfig.DEFAULTS.validate().analysis(), now).compression();

        StatusView.Compression view = StatusViews.compression(c, new java.util.LinkedHashSet<>(List.of("sql01")));

        assertThat(view.fleet()).singleElement().satisfies(f -> assertThat(f.verdicts()).containsExactly(
                java.util.Map.entry("FASTER_AND_CHEAPER", 0), java.util.Map.entry("FASTER_AND_SMALLER", 0),
                java.util.Map.entry("FASTER", 0), java.util.Map.entry("SMALLER", 0), java.util.Map.entry("CHEAPER", 1),
                java.util.Map.entry("FASTER_BUT_COSTLIER", 0), java.util.Map.entry("NO_GAIN", 0),
                java.util.Map.entry("COSTLIER", 0), java.util.Map.entry("SLOWER", 0), java.util.Map.entry("NOT_ENOUGH_DATA", 0)));
        StringBuilder html = new StringBuilder();
        CompressionSection.compression(html, StatusFixture.of(now, List.of(), List.of(), List.of(), view));
        assertThat(html).as("the verdict is said in words, not only in colour")
                .contains("<th class=\"num\">as fast, cheaper in CPU</th>", "<th class=\"num\">no gain, costlier in CPU</th>",
                        "<td class=\"num\" data-label=\"as fast, cheaper in CPU\">1</td>", "<span class=\"tag good\">CHEAPER</span>");
    }

    /** {@code b} seen running from start to end by the polls, the SQL Server process's CPU reliable. */
    private static BackupRecord withCpu(BackupRecord b, long cpuMillis) {
        return b.withCpu(new io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu(cpuMillis / 2, cpuMillis / 2, 10, b.startedAt(),
                b.finishedAt(), cpuMillis, 11, true, null));
    }

    @Test
    void alertsComeMostSevereFirstWithTheirDetailsAsTheWhy() {
        Instant t = Instant.parse("2026-11-30T06:00:00Z");
        List<StatusView.ActiveAlert> alerts = StatusViews.alerts(List.of(
                new AlertsView.ActiveAlert("1", "agent-silent", "warning", "sql03", null, null, "sql03 is silent",
                        "No report for 2 h.", t.minusSeconds(60)),
                new AlertsView.ActiveAlert("2", "qat-fallback", "critical", "sql01", "MSSQLSERVER", null, "QAT fell back",
                        "SOFTWARE since 05:40.\nmode reason: Hardware not found", t),
                new AlertsView.ActiveAlert("3", "backup-window-creep", "warning", "sql01", "MSSQLSERVER", null, "Creeping",
                        "Margin shrinks 9 min/day.", t.minusSeconds(3600))));
        assertThat(alerts).extracting(StatusView.ActiveAlert::id).containsExactly("2", "3", "1");
        assertThat(alerts.get(0).why()).isEqualTo("SOFTWARE since 05:40.\nmode reason: Hardware not found");
        assertThat(StatusPage.render(StatusFixture.of(t, List.of(), alerts, List.of(), null)))
                .contains("<p class=\"why\">SOFTWARE since 05:40.\nmode reason: Hardware not found</p>");
    }

    private static BackupRecord backup(long id, String database, String algorithm, Instant start, long seconds,
            String keyAlgorithm) {
        return new BackupRecord(id, database, null, "D", false, start, start.plusSeconds(seconds), true, 100L << 30, 40L << 30,
                algorithm, true, keyAlgorithm, null, null, "DISK", "LOCAL");
    }
}
