package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.host;
import static io.qatwatch.collector.testing.Histories.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.analysis.FleetCompression.Row;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.AlgorithmStats.Quartiles;
import io.qatwatch.collector.compression.BackupKind;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.Method;
import io.qatwatch.collector.compression.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link FleetCompression} holds its rows as columns and makes each {@link Row} when read: the rows must be those it
 * listed before, one a comparison, by host, instance and the instance's order, and each host's its own range of them.
 */
class FleetCompressionRowsTest {

    private static final Instant NOW = Instant.parse("2026-03-02T12:00:00Z");
    private static final Method XPRESS = Method.shared(Method.MS_XPRESS, null, null);

    private static Comparison row(String database, BackupKind kind) {
        AlgorithmStats s = new AlgorithmStats(XPRESS, 3, 0, new Quartiles(1, 2, 3), new Quartiles(4, 5, 6),
                new Quartiles(1.5, 2, 2.5), NOW, 0, null);
        return new Comparison(database, kind, "LOCAL", null, false, List.of(new Comparison.Entry(s, null)), XPRESS, null,
                Verdict.SINGLE_ALGORITHM, null, null, null, XPRESS, NOW);
    }

    /** The rows as {@link FleetCompression} listed them when each was an object it kept: host, instance, comparison. */
    private static List<Row> listed(FleetState fleet, Map<InstanceState, List<Comparison>> comparisons) {
        List<Row> out = new ArrayList<>();
        for (HostState h : fleet.hosts()) {
            for (InstanceState i : h.instances()) {
                comparisons.getOrDefault(i, List.of()).forEach(c -> out.add(new Row(h.host(), i.name(), c)));
            }
        }
        return out;
    }

    @Test
    void theRowsAreEveryComparisonByHostAndInstanceAndEachHostHasItsOwn() {
        InstanceState a1 = instance("MSSQLSERVER", NOW, List.of(), List.of(), List.of());
        InstanceState a2 = instance("REPORTS", NOW, List.of(), List.of(), List.of());
        InstanceState b1 = instance("MSSQLSERVER", NOW, List.of(), List.of(), List.of());
        InstanceState c1 = instance("MSSQLSERVER", NOW, List.of(), List.of(), List.of());
        FleetState fleet = new FleetState(List.of(host("sql-a", NOW, a1, a2), host("sql-b", NOW, b1), host("sql-c", NOW, c1),
                host("sql-d", NOW)));
        Map<InstanceState, List<Comparison>> comparisons = new IdentityHashMap<>();
        comparisons.put(a1, List.of(row("Sales", BackupKind.FULL), row("Sales", BackupKind.DIFFERENTIAL)));
        comparisons.put(a2, List.of(row("Reports", BackupKind.FULL)));
        comparisons.put(b1, List.of(row("Stock", BackupKind.FULL), row("Stock", BackupKind.DIFFERENTIAL),
                row("Orders", BackupKind.FULL)));
        comparisons.put(c1, List.of());

        FleetCompression first = new FleetCompression(fleet, comparisons);
        List<Row> expected = listed(fleet, comparisons);
        assertThat(first.rows()).hasSize(6).isEqualTo(expected).containsExactlyElementsOf(expected);
        for (int n = 0; n < expected.size(); n++) {
            assertThat(first.rows().get(n)).isEqualTo(expected.get(n));
        }
        assertThat(first.rowsOf("sql-a")).isEqualTo(expected.subList(0, 3));
        assertThat(first.rowsOf("sql-b")).isEqualTo(expected.subList(3, 6));
        assertThat(first.rowsOf("sql-c")).isEmpty();
        assertThat(first.rowsOf("sql-d")).isEmpty();
        assertThat(first.rowsOf("sql-unknown")).isEmpty();
        assertThatThrownBy(() -> first.rows().add(expected.get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> first.rows().set(0, expected.get(0))).isInstanceOf(UnsupportedOperationException.class);

        // the next evaluation reuses sql-a's part and works sql-b's out again: the rows are still in the fleet's order
        Map<InstanceState, List<Comparison>> next = new IdentityHashMap<>(comparisons);
        next.put(b1, List.of(row("Orders", BackupKind.FULL)));
        FleetCompression second = new FleetCompression(fleet, next, first);
        assertThat(second.rows()).isEqualTo(listed(fleet, next));
        assertThat(second.rowsOf("sql-b")).containsExactly(new Row("sql-b", "MSSQLSERVER", next.get(b1).get(0)));
        assertThat(second.rowsOf("sql-a")).isEqualTo(expected.subList(0, 3));
    }
}
