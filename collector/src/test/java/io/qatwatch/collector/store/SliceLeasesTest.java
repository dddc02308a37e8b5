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

    private static AlertRecord silent(String host) {
        return new AlertRecord(new Alert("agent-silent", Severity.WARNING, host, null, null, null,
                "Agent on " + host + " silent", "No report.", List.of(), List.of()), Instant.parse("2026-11-30T06:00:00Z"),
                null, false);
    }
}
