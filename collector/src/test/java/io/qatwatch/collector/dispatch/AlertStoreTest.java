package io.qatwatch.collector.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

class AlertStoreTest {

    private static final Instant SINCE = Instant.parse("2026-11-30T06:00:00Z");

    @TempDir
    Path dir;

    private static AlertRecord missing(String database, String summary) {
        return new AlertRecord(new Alert("backup-missing", Severity.CRITICAL, "sql-a", "MSSQLSERVER", database, "log",
                summary, "The newest backup is older than its objective.",
                List.of(new Fact("Objective", "a log backup at least every 60 min")), List.of()), SINCE, null, false);
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aMinuteWithNothingNewWritesNothingAndAChangeWritesOnlyItsRows(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            AlertStore store = new AlertStore(db);
            store.migrate();
            AlertRecord sales = missing("Sales", "Newest log backup of Sales is 3 h old");
            AlertRecord hr = missing("HR", "Newest log backup of HR is 2 h old");
            AlertRecord crm = missing("CRM", "Newest log backup of CRM is 4 h old");

            assertThat(store.saveAlerts(List.of(sales, hr, crm))).isEqualTo(3);
            plant(db, "marker", crm.id());
            assertThat(store.saveAlerts(List.of(sales, hr, crm))).isZero();

            AlertRecord salesLater = missing("Sales", "Newest log backup of Sales is 4 h old");
            assertThat(store.saveAlerts(List.of(salesLater, crm))).isEqualTo(2);

            assertThat(store.loadAlerts()).extracting(r -> r.alert().summary())
                    .containsExactlyInAnyOrder("Newest log backup of Sales is 4 h old", "marker");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aHostsResolvedAlertsReadBackLastResolvedFirstWithinTheLimit(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            AlertStore store = new AlertStore(db);
            store.migrate();
            AlertRecord firing = missing("Sales", "Newest log backup of Sales is 3 h old");
            AlertRecord hr = resolved(missing("HR", "Newest log backup of HR was 2 h old"), SINCE.plusSeconds(3600));
            AlertRecord crm = resolved(missing("CRM", "Newest log backup of CRM was 4 h old"), SINCE.plusSeconds(7200));
            AlertRecord elsewhere = new AlertRecord(new Alert("agent-silent", Severity.WARNING, "sql-b", null, null, null,
                    "Agent on sql-b silent for 30 min", "No report.", List.of(), List.of()), SINCE, SINCE.plusSeconds(60), false);
            store.saveAlerts(List.of(firing, hr, crm, elsewhere));
            assertThat(store.readResolvedAlerts("sql-a", 50)).extracting(r -> r.alert().database()).containsExactly("CRM", "HR");
            assertThat(store.readResolvedAlerts("sql-a", 1)).singleElement()
                    .satisfies(r -> assertThat(r.resolvedAt()).isEqualTo(SINCE.plusSeconds(7200)));
            assertThat(store.readResolvedAlerts("sql-b", 50)).extracting(r -> r.alert().rule()).containsExactly("agent-silent");
        }
    }

    private static AlertRecord resolved(AlertRecord r, Instant at) {
        return new AlertRecord(r.alert(), r.since(), at, false);
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aRestartedStoreRewritesTheTableWhole(Database.Kind kind) throws Exception {
        StoreConfig config = StoreKinds.config(kind);
        try (Database db = StoreKinds.open(config, dir)) {
            AlertStore store = new AlertStore(db);
            store.migrate();
            store.saveAlerts(List.of(missing("Sales", "old"), missing("HR", "old")));
        }
        try (Database db = StoreKinds.open(config, dir)) {
            AlertStore store = new AlertStore(db);
            store.migrate();
            assertThat(store.saveAlerts(List.of(missing("CRM", "new")))).isEqualTo(1);
            assertThat(store.loadAlerts()).extracting(r -> r.alert().database()).containsExactly("CRM");
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aSaveLargerThanOneChunkStoresEveryRowAndRemovesTheGoneOnes(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, dir)) {
            AlertStore store = new AlertStore(db);
            store.migrate();
            List<AlertRecord> many = java.util.stream.IntStream.range(0, AlertStore.SAVE_CHUNK * 2 + 200)
                    .mapToObj(i -> missing("db" + i, "Newest log backup of db" + i + " is 3 h old")).toList();
            assertThat(store.saveAlerts(many)).isEqualTo(many.size());
            assertThat(store.loadAlerts()).hasSize(many.size());

            List<AlertRecord> fewer = many.subList(0, AlertStore.SAVE_CHUNK);
            assertThat(store.saveAlerts(fewer)).isEqualTo(many.size() - fewer.size());
            assertThat(store.loadAlerts()).extracting(r -> r.alert().database())
                    .containsExactlyInAnyOrderElementsOf(fewer.stream().map(r -> r.alert().database()).toList());
        }
    }

    /** Changes a stored row behind the store's back: a row the store rewrites loses the marker. */
    private static void plant(Database db, String summary, String id) throws Exception {
        StoreKinds.update(db, "UPDATE alert_state SET summary = '" + summary + "' WHERE id = '" + id + "'");
        assertThat(StoreKinds.scalar(db, "SELECT count(*) FROM alert_state WHERE summary = '" + summary + "'")).isOne();
    }
}
