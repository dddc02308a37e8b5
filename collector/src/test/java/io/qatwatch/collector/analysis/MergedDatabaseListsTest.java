package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.agDb;
import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.host;
import static io.qatwatch.collector.testing.Histories.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merged databases the evaluation holds until the next keep their lists at the size they came to, immutable, with
 * the backups and fulls the merge gave them: every replica's backups in the fleet's order of instances, then store order.
 */
class MergedDatabaseListsTest {

    private static final AnalysisConfig CONFIG = AlertsConfig.DEFAULTS.validate().analysis();
    private static final Instant NOW = berlin(LocalDate.of(2026, 9, 16), 8, 0);

    @Test
    void eachDatabaseHoldsItsReplicasBackupsAndFullsAsTheMergeListedThem() {
        List<BackupRecord> a = new ArrayList<>();
        List<BackupRecord> b = new ArrayList<>();
        for (int d = 10; d <= 15; d++) {
            LocalDate day = LocalDate.of(2026, 9, d);
            a.add(backup("Sales", "D", berlin(day, 22, 0), 3_600, 50_000_000_000L, "MS_XPRESS", "DISK"));
            a.add(backup("Stock", d % 2 == 0 ? "D" : "I", berlin(day, 23, 0), 1_200, 9_000_000_000L, "MS_XPRESS", "DISK"));
            b.add(backup("Sales", "L", berlin(day, 23, 30), 60, 1_000_000_000L, "MS_XPRESS", "UNC"));
        }
        FleetState fleet = new FleetState(List.of(
                host("sql-a", NOW, instance("MSSQLSERVER", NOW, List.of(agDb("Sales", "agSales", "PRIMARY"),
                        db("Stock", "FULL"), db("Empty", "SIMPLE")), a, List.of())),
                host("sql-b", NOW, instance("MSSQLSERVER", NOW, List.of(agDb("Sales", "agSales", "SECONDARY")), b,
                        List.of()))));
        FleetAnalysis analysis = new FleetAnalysis(fleet, CONFIG, NOW);

        MergedDatabase sales = analysis.databases().get("ag:agsales/sales");
        assertThat(sales.replicas()).containsExactly("sql-a/MSSQLSERVER", "sql-b/MSSQLSERVER");
        List<String> salesBackups = new ArrayList<>();
        a.stream().filter(x -> x.databaseName().equals("Sales")).forEach(x -> salesBackups.add("sql-a " + x.startedAt()));
        b.forEach(x -> salesBackups.add("sql-b " + x.startedAt()));
        assertThat(sales.backups().stream().map(MergedDatabaseListsTest::named).toList()).isEqualTo(salesBackups);
        assertThat(sales.fulls()).hasSize(1);
        assertThat(sales.fulls().get(0).size()).isEqualTo(6);

        MergedDatabase stock = analysis.databases().values().stream().filter(m -> m.name().equals("Stock")).findFirst()
                .orElseThrow();
        assertThat(stock.backups()).extracting(DatabaseBackup::type).containsExactly("D", "I", "D", "I", "D", "I");
        assertThat(stock.fulls()).hasSize(1);
        assertThat(stock.fulls().get(0).size()).isEqualTo(3);

        MergedDatabase empty = analysis.databases().values().stream().filter(m -> m.name().equals("Empty")).findFirst()
                .orElseThrow();
        assertThat(empty.backups()).isEmpty();
        assertThat(empty.fulls()).isEmpty();
        assertThat(empty.chains()).isEmpty();

        for (MergedDatabase m : analysis.databases().values()) {
            assertThatThrownBy(() -> m.backups().add(null)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> m.fulls().add(null)).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    private static String named(DatabaseBackup b) {
        return b.instance().substring(0, 5) + " " + b.startedAt();
    }
}
