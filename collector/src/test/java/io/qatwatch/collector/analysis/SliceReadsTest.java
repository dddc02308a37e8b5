package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.HostSlices;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.RowsReadByHost;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.window.NightlyWindow;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two collectors on one PostgreSQL, each leasing half of the 64 slices, against one collector alone (issue 33): the
 * alert stage of each reads only the rows of the hosts of its slices and of their availability-group partners (the
 * rows the server returned, counted by host), at its cold start and at the next morning's evaluation after a night of
 * new reports; each row a minute reads is read by one of the two, as often as the one collector reads it; and the two
 * find the alerts and windows the one finds. ColdStartTest's fleet, each host's databases its own: 37 hosts, an
 * availability group whose replicas ({@code sql-ag1}, slice 14; {@code sql-ag2}, slice 52) fall in different halves.
 */
class SliceReadsTest {

    private static final List<String> REPLICAS = List.of("sql-ag1", "sql-ag2");

    /** One collector's alert stage: its slices (null: every host) and partners, as {@code AlertStage.analyse} keeps them. */
    private static final class Stage {
        final Set<Integer> slices;
        final LiveFleet fleet = new LiveFleet(ColdStartTest.CONFIG.analysis(), h -> Set.of());
        Set<String> partners = Set.of();

        Stage(Set<Integer> slices) {
            this.slices = slices;
        }

        boolean owns(String host) {
            return slices == null || host != null && slices.contains(HostSlices.of(host));
        }

        /** The stage's evaluation: refresh, look the partners up, and refresh once more when that added some. */
        FleetAnalysis evaluate(ReportStore store, Instant now) throws Exception {
            if (slices == null) {
                return fleet.refresh(store, now).analysis();
            }
            LiveFleet.Refresh refresh = fleet.refresh(store, now, HostSelection.of(slices, partners));
            Set<String> found = new HashSet<>(store.hostsWithAvailabilityDatabases(fleet.availabilityGroupGuids()));
            found.removeIf(this::owns);
            if (!partners.containsAll(found)) {
                partners = Set.copyOf(found);
                refresh = fleet.refresh(store, now, HostSelection.of(slices, partners));
            }
            return refresh.analysis();
        }
    }

    @Test
    void eachOfTwoCollectorsReadsOnlyItsSlicesAndPartnersRowsAndTogetherTheyFindWhatOneFinds(@TempDir Path dir)
            throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, dir)) {
            SqlReportStore writer = filled(db);
            RowsReadByHost counted = new RowsReadByHost(db);
            SqlReportStore store = new SqlReportStore(counted);
            Set<String> fleet = new TreeSet<>();
            writer.hostsSeen().forEach(h -> fleet.add(h.host()));
            Stage one = new Stage(null);
            Stage a = new Stage(IntStream.range(0, 32).boxed().collect(Collectors.toSet()));
            Stage b = new Stage(IntStream.range(32, 64).boxed().collect(Collectors.toSet()));
            assertThat(REPLICAS).as("the replicas are in different halves").anyMatch(a::owns).anyMatch(b::owns);

            Instant now = ColdStartTest.NOW;
            for (int evaluation = 0; evaluation < 2; evaluation++) {
                counted.take();
                FleetAnalysis alone = one.evaluate(store, now);
                Map<String, Long> byOne = counted.take();
                FleetAnalysis first = a.evaluate(store, now);
                Map<String, Long> byA = counted.take();
                FleetAnalysis second = b.evaluate(store, now);
                Map<String, Long> byB = counted.take();

                String when = evaluation == 0 ? "cold start" : "next morning";
                assertThat(hosts(byOne)).as("%s: one collector reads every host", when).isEqualTo(fleet);
                for (Stage s : List.of(a, b)) {
                    Set<String> expected = new TreeSet<>(s.partners);
                    fleet.stream().filter(s::owns).forEach(expected::add);
                    assertThat(s.partners).as("%s: the other replica is a partner", when).hasSize(1).isSubsetOf(REPLICAS);
                    assertThat(hosts(s == a ? byA : byB)).as("%s: the hosts whose rows a collector read", when)
                            .isEqualTo(expected);
                }
                if (evaluation == 1) {
                    // the cold start looks the partners up and reads them again; a minute after reads each row once
                    for (String host : fleet) {
                        if (!REPLICAS.contains(host)) {
                            assertThat(byA.getOrDefault(host, 0L) + byB.getOrDefault(host, 0L)).as("rows of %s", host)
                                    .isEqualTo(byOne.get(host)).isPositive();
                        }
                    }
                    long rows = byA.values().stream().mapToLong(Long::longValue).sum()
                            + byB.values().stream().mapToLong(Long::longValue).sum();
                    System.out.printf("slice reads: a minute after a night of reports, one collector read %d rows; of two,"
                            + " each of half the slices read %d and %d (%d in all, the replicas' rows twice)%n",
                            byOne.values().stream().mapToLong(Long::longValue).sum(), total(byA), total(byB), rows);
                }
                sameAsOne(alone, List.of(first, second), List.of(a, b), when);
                if (evaluation == 0) {
                    // the next night's reports: new backups, job activity and restores for every host
                    ColdStartTest.night(writer, 1, SliceReadsTest::ownDatabase);
                    now = now.plus(Duration.ofDays(1));
                }
            }
        }
    }

    /**
     * A collector that takes the other half of the slices over (the other stopped) asks the store once for the rows of
     * all the hosts that joined, not host by host, and then finds what a collector holding every slice from its start
     * finds: on PostgreSQL the rows come in one query by name.
     */
    @Test
    void aCollectorTakingSlicesOverReadsTheJoiningHostsTogetherAndFindsWhatOneHoldingThemAllFinds(@TempDir Path dir)
            throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, dir)) {
            SqlReportStore writer = filled(db);
            Map<String, List<Integer>> asked = new TreeMap<>();
            ReportStore store = (ReportStore) java.lang.reflect.Proxy.newProxyInstance(ReportStore.class.getClassLoader(),
                    new Class<?>[] {ReportStore.class}, (proxy, method, args) -> {
                        if (method.getName().startsWith("fleetRow")) {
                            asked.computeIfAbsent(method.getName(), m -> new ArrayList<>()).add(
                                    args[0] instanceof java.util.Collection<?> c ? c.size() : 1);
                        }
                        try {
                            return method.invoke(writer, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            Set<Integer> half = IntStream.range(0, 32).boxed().collect(Collectors.toSet());
            Set<Integer> all = IntStream.range(0, 64).boxed().collect(Collectors.toSet());
            Instant now = ColdStartTest.NOW;
            LiveFleet taking = new LiveFleet(ColdStartTest.CONFIG.analysis(), h -> Set.of());
            taking.refresh(store, now, HostSelection.of(half, Set.of()));
            assertThat(asked).as("the first refresh reads its hosts' rows by slice").isEmpty();
            Set<String> joining = new TreeSet<>();
            writer.hostsSeen().forEach(h -> joining.add(h.host()));
            joining.removeAll(taking.hosts());
            assertThat(joining).as("hosts of the other half").hasSizeGreaterThan(1);

            FleetAnalysis afterTakeover = taking.refresh(store, now.plusSeconds(60), HostSelection.of(all, Set.of())).analysis();
            assertThat(asked).as("the joining hosts' rows, asked for together").isEqualTo(Map.of("fleetRows", List.of(joining.size())));
            assertThat(taking.hosts()).containsAll(joining);

            Stage holding = new Stage(all);
            FleetAnalysis fresh = holding.fleet.refresh(writer, now.plusSeconds(60), HostSelection.of(all, Set.of())).analysis();
            sameAsOne(fresh, List.of(afterTakeover), List.of(holding), "after the takeover");
        }
    }

    /** ColdStartTest's fleet, 51 nights of it, each host's databases its own. */
    private static SqlReportStore filled(Database db) throws Exception {
        SqlReportStore writer = new SqlReportStore(db);
        for (int night = -50; night <= 0; night++) {
            ColdStartTest.night(writer, night, SliceReadsTest::ownDatabase);
        }
        return writer;
    }

    /**
     * Each host's own databases: ColdStartTest names them alike on every host, and the same name gives the same
     * {@code database_guid}, which the analysis takes for one database across hosts (those of other slices included).
     */
    private static String ownDatabase(String host, String database) {
        return database + "_" + host.substring(host.indexOf('-') + 1);
    }

    private static Set<String> hosts(Map<String, Long> rows) {
        Set<String> out = new TreeSet<>(rows.keySet());
        out.remove("");
        return out;
    }

    private static long total(Map<String, Long> rows) {
        return rows.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The alert without the facts that count the hosts the collector keeps (qat-no-gain's restore burden: "restorable on
     * 0 of 23 probed hosts"), which several collectors judge each over its own share, as they judge drift.
     */
    private static Alert ofItsHost(Alert a) {
        return new Alert(a.rule(), a.severity(), a.host(), a.instance(), a.database(), a.subject(), a.summary(), a.why(),
                a.facts().stream().filter(f -> !f.label().equals("Restore burden")).toList(), a.series(), a.forecast());
    }

    /** The alerts and windows of each collector's own hosts, together, are those of one collector alone. */
    private static void sameAsOne(FleetAnalysis alone, List<FleetAnalysis> shares, List<Stage> stages, String when) {
        var evaluator = ColdStartTest.CONFIG.evaluator();
        List<Alert> together = new ArrayList<>();
        Map<String, InstanceAnalysis> byScope = new HashMap<>();
        for (int i = 0; i < shares.size(); i++) {
            Stage s = stages.get(i);
            evaluator.evaluate(shares.get(i)).alerts().stream().filter(x -> s.owns(x.host())).map(SliceReadsTest::ofItsHost)
                    .forEach(together::add);
            shares.get(i).instances().stream().filter(x -> s.owns(x.host().host())).forEach(x -> byScope.put(x.scope(), x));
        }
        List<Alert> expected = evaluator.evaluate(alone).alerts().stream().map(SliceReadsTest::ofItsHost).toList();
        assertThat(expected).as("%s: the fleet raises alerts", when).isNotEmpty();
        assertThat(together).as("%s: alerts", when).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(byScope.keySet()).as("%s: instances", when)
                .isEqualTo(alone.instances().stream().map(InstanceAnalysis::scope).collect(Collectors.toSet()));
        for (InstanceAnalysis x : alone.instances()) {
            InstanceAnalysis y = byScope.get(x.scope());
            assertThat(y.windows().stream().map(NightlyWindow::withoutBackups).toList()).as("%s: windows of %s", when, x.scope())
                    .isEqualTo(x.windows().stream().map(NightlyWindow::withoutBackups).toList());
            assertThat(y.creep()).as("%s: creep of %s", when, x.scope()).isEqualTo(x.creep());
            assertThat(y.spills()).as("%s: spills of %s", when, x.scope()).isEqualTo(x.spills());
        }
    }
}
