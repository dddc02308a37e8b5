package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.AlertScope;
import io.qatwatch.collector.dispatch.AlertStore;
import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leases on slices of hosts in a real PostgreSQL: even shares, takeover after expiry, fenced alert writes. */
class SliceLeasesTest {

    @TempDir
    Path data;

    @Test
    void liveCollectorsEvenOutTheirSharesAndEverySliceHasOneOwner() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            Duration ttl = Duration.ofSeconds(30);
            SliceLeases a = new SliceLeases(db, "a", ttl);
            SliceLeases b = new SliceLeases(db, "b", ttl);
            SliceLeases c = new SliceLeases(db, "c", ttl);
            a.migrate();
            b.migrate();
            assertThat(a.balance(s -> true)).as("alone: every slice").hasSize(HostSlices.COUNT);
            assertThat(b.balance(s -> true)).as("nothing free yet").isEmpty();
            assertThat(a.balance(s -> true)).as("a lets go of b's share").hasSize(HostSlices.COUNT / 2);
            assertThat(b.balance(s -> true)).hasSize(HostSlices.COUNT / 2);
            c.balance(s -> true);
            for (int round = 0; round < 2; round++) {
                for (SliceLeases l : List.of(a, b, c)) {
                    l.balance(s -> true);
                }
            }
            Map<Integer, String> owners = a.owners();
            assertThat(owners).as("every slice leased once").hasSize(HostSlices.COUNT);
            assertThat(owners.values().stream().filter("a"::equals).count()).isBetween(20L, 22L);
            assertThat(owners.values().stream().filter("b"::equals).count()).isBetween(20L, 22L);
            assertThat(owners.values().stream().filter("c"::equals).count()).isBetween(20L, 22L);

            Set<Integer> keptByA = a.renew();
            assertThat(a.balance(s -> false)).as("a slice with a notification in flight is kept").containsAll(keptByA);
            c.releaseAll();
            assertThat(a.balance(s -> true).size() + b.balance(s -> true).size()).as("c's slices are taken at once")
                    .isEqualTo(HostSlices.COUNT);
        }
    }

    /**
     * Collectors started together (a restart of all of them) announce themselves before their first balancing: each
     * takes its share at once, none takes all 64 slices and builds the whole fleet before letting any go.
     */
    @Test
    void collectorsThatAnnouncedThemselvesTakeTheirSharesAtTheirFirstBalancing() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            Duration ttl = Duration.ofSeconds(30);
            List<SliceLeases> starting = List.of(new SliceLeases(db, "a", ttl), new SliceLeases(db, "b", ttl),
                    new SliceLeases(db, "c", ttl));
            for (SliceLeases l : starting) {
                l.migrate();
                l.announce();
            }
            assertThat(starting.get(0).owners()).as("announcing takes nothing").isEmpty();
            List<Integer> shares = new java.util.ArrayList<>();
            for (SliceLeases l : starting) {
                shares.add(l.balance(s -> true).size());
            }
            assertThat(shares).as("each one's first share: ceil(64 / 3), the last what is left").containsExactly(22, 22, 20);
            assertThat(starting.get(0).owners()).as("every slice leased once").hasSize(HostSlices.COUNT);
        }
    }

    @Test
    void aCollectorThatStopsRenewingLosesItsSlicesWhenTheLeaseExpires() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SliceLeases dying = new SliceLeases(db, "dying", Duration.ofMillis(600));
            SliceLeases survivor = new SliceLeases(db, "survivor", Duration.ofMillis(600));
            dying.migrate();
            assertThat(dying.balance(s -> true)).hasSize(HostSlices.COUNT);
            assertThat(survivor.balance(s -> true)).as("leased, not expired").isEmpty();
            Thread.sleep(800);
            assertThat(survivor.balance(s -> true)).as("the only live collector takes every slice").hasSize(HostSlices.COUNT);
            assertThat(dying.renew()).as("an expired lease is not renewed").isEmpty();
        }
    }

    @Test
    void aFencedAlertStoreWritesOnlyTheSlicesItsCollectorLeases() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SliceLeases a = new SliceLeases(db, "a", Duration.ofSeconds(30));
            SliceLeases b = new SliceLeases(db, "b", Duration.ofSeconds(30));
            a.migrate();
            new AlertStore(db).migrate();
            a.balance(s -> true);
            b.balance(s -> true);
            Set<Integer> ofA = a.balance(s -> true);
            Set<Integer> ofB = b.balance(s -> true);
            assertThat(ofA).doesNotContainAnyElementsOf(ofB);
            List<AlertRecord> alerts = IntStream.range(0, 200).mapToObj(i -> silent("sql" + i)).toList();
            Set<Integer> slicesOfAlerts = new HashSet<>();
            alerts.forEach(r -> slicesOfAlerts.add(HostSlices.of(r.alert().host())));
            assertThat(slicesOfAlerts).as("the hosts span both collectors' slices").containsAnyElementsOf(ofA)
                    .containsAnyElementsOf(ofB);

            AlertStore storeA = new AlertStore(db, "a");
            storeA.saveAlerts(alerts, new AlertScope(ofA));
            List<AlertRecord> stored = new AlertStore(db).loadAlerts();
            assertThat(stored).isNotEmpty().allSatisfy(r -> assertThat(ofA).contains(HostSlices.of(r.alert().host())));
            assertThat(new AlertStore(db).loadAlerts(new AlertScope(ofB))).isEmpty();
        }
    }

    @Test
    void aLeaseThatLapsedAndIsTakenBackHasANewEpochAndTheOldOneWritesNothing() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SliceLeases paused = new SliceLeases(db, "paused", Duration.ofMillis(600));
            paused.migrate();
            new AlertStore(db).migrate();
            Map<Integer, Long> before = paused.balanceLeases(s -> true);
            assertThat(before).hasSize(HostSlices.COUNT);
            assertThat(paused.renewLeases()).as("renewing keeps each epoch").isEqualTo(before);
            assertThat(paused.heldNow()).as("held, as far as it knows").isEqualTo(before);
            Thread.sleep(800);
            assertThat(paused.heldNow()).as("a lease after its last renewal it knows nothing").isEmpty();
            Map<Integer, Long> after = paused.balanceLeases(s -> true);
            assertThat(after.keySet()).as("nobody else wanted them: taken straight back").isEqualTo(before.keySet());
            after.forEach((slice, epoch) -> assertThat(epoch).as("slice %d", slice).isGreaterThan(before.get(slice)));

            AlertRecord alert = silent("sql1");
            int slice = HostSlices.of("sql1");
            AlertStore store = new AlertStore(db, "paused");
            assertThat(store.saveLogEntry("hook", "g", new io.qatwatch.collector.dispatch.NotificationDecision.LogEntry(
                    Map.of(alert.id(), Severity.WARNING), Map.of(), Instant.now(), null), "sql1", before.get(slice)))
                    .as("a log entry decided under the lapsed lease").isFalse();
            store.saveAlerts(List.of(alert), AlertScope.leased(before));
            assertThat(new AlertStore(db).loadAlerts()).as("alert state derived under the lapsed lease").isEmpty();
            store.saveAlerts(List.of(alert), AlertScope.leased(after));
            assertThat(new AlertStore(db).loadAlerts()).as("under the lease held now").hasSize(1);
        }
    }

    private static AlertRecord silent(String host) {
        return new AlertRecord(new Alert("agent-silent", Severity.WARNING, host, null, null, null,
                "Agent on " + host + " silent", "No report.", List.of(), List.of()), Instant.parse("2026-11-30T06:00:00Z"),
                null, false);
    }
}
