package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetCompression.Row;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.AlgorithmStats.Quartiles;
import io.qatwatch.collector.compression.BackupKind;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.Method;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.compression.Verdict;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A quiet minute's fleet compression is the last minute's object (nothing of it is worked out again), and any change of
 * what it is made of (a comparison list, an instance's or host's name, the hosts, a host's QAT facts or mode) shows in the
 * very next minute, exactly as a compression worked out afresh.
 */
class QuietMinuteCompressionTest {

    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
    private static final long GB = 1_000_000_000L;
    private static final Method XPRESS = Method.shared(Method.MS_XPRESS, null, null);
    private static final QatFacts QAT_INSTALLED = new QatFacts(List.of(), new QatSoftware(List.of(), List.of(), List.of(),
            List.of(new SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.9.0", null)), List.of(), List.of(),
            List.of()), false);
    private static final AcceleratorStatus QAT_HARDWARE = new AcceleratorStatus("QAT", "HARDWARE",
            "HARDWARE_MODE_ENTERPRISE_SKU", true, "1.9.0-0008", null);
    private static final AcceleratorStatus QAT_OFF = new AcceleratorStatus("QAT", "OFF", null, true, "1.9.0-0008", null);

    private static Comparison row(String database, BackupKind kind) {
        AlgorithmStats s = new AlgorithmStats(XPRESS, 3, 0, new Quartiles(1, 2, 3), new Quartiles(4, 5, 6),
                new Quartiles(1.5, 2, 2.5), NOW, 0, null);
        return new Comparison(database, kind, "LOCAL", null, false, List.of(new Comparison.Entry(s, null)), XPRESS, null,
                Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, NOW);
    }

    private static InstanceState instance(String name, AcceleratorStatus... accelerators) {
        return new InstanceState(name, NOW, null, List.of(), List.of(accelerators), List.of(), List.of(), List.of(), List.of(),
                List.of());
    }

    private static HostState host(String host, QatFacts qat, InstanceState... instances) {
        return new HostState(host, Set.of(), NOW, null, qat, null, List.of(instances));
    }

    /** Everything a reader of the compression sees. */
    private static void sameAsFresh(FleetCompression c, FleetState fleet, Map<InstanceState, List<Comparison>> comparisons) {
        FleetCompression fresh = new FleetCompression(fleet, comparisons);
        assertThat(c.rows()).isEqualTo(fresh.rows());
        assertThat(c.hosts()).isEqualTo(fresh.hosts());
        assertThat(List.copyOf(c.hosts().keySet())).isEqualTo(List.copyOf(fresh.hosts().keySet()));
        assertThat(c.byInstance()).isEqualTo(fresh.byInstance());
        assertThat(c.fleet()).isEqualTo(fresh.fleet());
        assertThat(c.qatWithoutGainRows()).isEqualTo(fresh.qatWithoutGainRows());
        assertThat(c.restoreReadyHosts()).isEqualTo(fresh.restoreReadyHosts());
        assertThat(c.restoreBurden()).isEqualTo(fresh.restoreBurden());
        for (HostState h : fleet.hosts()) {
            assertThat(c.rowsOf(h.host())).isEqualTo(fresh.rowsOf(h.host()));
        }
    }

    @Test
    void aQuietMinuteIsTheLastMinutesCompressionAndEachChangeShowsInTheNext() {
        InstanceState a1 = instance("MSSQLSERVER", QAT_HARDWARE);
        InstanceState a2 = instance("REPORTS");
        InstanceState b1 = instance("MSSQLSERVER", QAT_OFF);
        Map<InstanceState, List<Comparison>> comparisons = new IdentityHashMap<>();
        comparisons.put(a1, List.of(row("Sales", BackupKind.FULL), row("Sales", BackupKind.DIFFERENTIAL)));
        comparisons.put(a2, List.of(row("Reports", BackupKind.FULL)));
        comparisons.put(b1, List.of(row("Stock", BackupKind.FULL)));
        FleetState fleet = new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, a2), host("sql-b", QAT_INSTALLED, b1)));
        FleetCompression first = FleetCompression.of(fleet, comparisons, null);
        sameAsFresh(first, fleet, comparisons);
        assertThat(first.restoreReadyHosts()).containsExactly("sql-a");

        // the next minute's state is made anew, of the same instances and lists
        FleetState quiet = new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, a2), host("sql-b", QAT_INSTALLED, b1)));
        assertThat(FleetCompression.of(quiet, new IdentityHashMap<>(comparisons), first)).isSameAs(first);

        List<FleetState> changed = new ArrayList<>();
        // QAT enabled in SQL Server on sql-b: it could restore a QAT_DEFLATE backup now
        InstanceState b1On = instance("MSSQLSERVER", QAT_HARDWARE);
        Map<InstanceState, List<Comparison>> enabled = new IdentityHashMap<>(comparisons);
        enabled.put(b1On, comparisons.get(b1));
        FleetState qatOn = new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, a2), host("sql-b", QAT_INSTALLED, b1On)));
        FleetCompression next = FleetCompression.of(qatOn, enabled, first);
        assertThat(next.restoreReadyHosts()).containsExactly("sql-a", "sql-b");
        sameAsFresh(next, qatOn, enabled);
        // sql-a's agent stops sending QAT facts
        changed.add(new FleetState(List.of(host("sql-a", null, a1, a2), host("sql-b", QAT_INSTALLED, b1))));
        // an instance renamed, its comparisons the same list
        InstanceState renamed = instance("REPORTING");
        comparisons.put(renamed, comparisons.get(a2));
        changed.add(new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, renamed), host("sql-b", QAT_INSTALLED, b1))));
        // a host renamed, one joined, one left, two swapped
        changed.add(new FleetState(List.of(host("sql-a2", QAT_INSTALLED, a1, a2), host("sql-b", QAT_INSTALLED, b1))));
        changed.add(new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, a2), host("sql-b", QAT_INSTALLED, b1),
                host("sql-c", null))));
        changed.add(new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1, a2))));
        changed.add(new FleetState(List.of(host("sql-b", QAT_INSTALLED, b1), host("sql-a", QAT_INSTALLED, a1, a2))));
        // an instance left its host
        changed.add(new FleetState(List.of(host("sql-a", QAT_INSTALLED, a1), host("sql-b", QAT_INSTALLED, b1))));
        for (FleetState f : changed) {
            FleetCompression c = FleetCompression.of(f, comparisons, first);
            assertThat(c).as("%s", f.hosts()).isNotSameAs(first);
            sameAsFresh(c, f, comparisons);
        }

        // a backup changed b1's comparisons: a new list
        Map<InstanceState, List<Comparison>> newList = new IdentityHashMap<>(comparisons);
        newList.put(b1, List.of(row("Stock", BackupKind.FULL), row("Orders", BackupKind.FULL)));
        FleetCompression withOrders = FleetCompression.of(quiet, newList, first);
        assertThat(withOrders.rowsOf("sql-b")).extracting(Row::comparison).extracting(Comparison::database)
                .containsExactly("Stock", "Orders");
        sameAsFresh(withOrders, quiet, newList);
    }

    @Test
    void theAnalysisOfAQuietMinuteKeepsTheLastMinutesCompressionAndANewBackupShowsInTheNext() {
        AnalysisConfig config = new AlertsConfig(null, null, null, null, null, null, null).validate().analysis();
        CompressionSamples samples = new CompressionSamples(60);
        for (int n = 1; n <= 4; n++) {
            samples.add(backup(n, "Sales", "MS_XPRESS", NOW.minus(Duration.ofDays(n)).minusSeconds(6 * 3600), 1000 + n),
                    QatModes.constant(null));
        }
        InstanceState i = new InstanceState("MSSQLSERVER", NOW, null, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), samples);
        FleetCompression first = analysis(i, config, NOW, null).compression();
        assertThat(first.rows()).hasSize(1);
        FleetCompression quiet = analysis(i, config, NOW.plusSeconds(60), first).compression();
        assertThat(quiet).isSameAs(first);

        samples.add(backup(9, "Sales", "ZSTD", NOW.minusSeconds(3600), 700), QatModes.constant(null));
        FleetCompression next = analysis(i, config, NOW.plusSeconds(120), quiet).compression();
        assertThat(next).isNotSameAs(first);
        assertThat(next.rows()).singleElement().satisfies(r -> assertThat(r.comparison().algorithms()).hasSize(2));
    }

    private static FleetAnalysis analysis(InstanceState i, AnalysisConfig config, Instant now, FleetCompression previous) {
        FleetState fleet = new FleetState(List.of(host("sql-a", QAT_INSTALLED, i)));
        return new FleetAnalysis(fleet, config, now, null, null, null, previous, null, null, null);
    }

    private static BackupRecord backup(long id, String database, String algorithm, Instant start, long seconds) {
        return new BackupRecord(id, database, "guid-" + database, "D", false, start, start.plusSeconds(seconds), true,
                100 * GB, 40 * GB, algorithm, true, BackupRecord.NO_ENCRYPTION, null, null, "DISK", "LOCAL");
    }
}
