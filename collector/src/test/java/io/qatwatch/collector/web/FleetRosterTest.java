package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore.HostSeen;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fleet's hosts kept in memory between pages answer what the store answers after every kind of report. */
class FleetRosterTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void answersWhatTheStoreAnswersAfterNewHostsLaterReportsAndLateOnes(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            FleetRoster roster = new FleetRoster(store);
            assertThat(roster.hostsSeen()).isEmpty();
            int n = 0;
            for (int i = 0; i < 20; i++) {
                store.store("sql-" + i, TestReports.numbered(++n, 1, BASE.plusSeconds(i)), BASE.plusSeconds(i));
            }
            assertThat(roster.hostsSeen()).isEqualTo(store.hostsSeen()).hasSize(20);

            // the same hosts reporting again: the roster reads only these, and answers the same list as the store
            for (int i : List.of(3, 7, 11)) {
                Instant at = BASE.plus(Duration.ofMinutes(5)).plusSeconds(i);
                store.store("sql-" + i, TestReports.numbered(++n, 1, at), at);
            }
            List<HostSeen> after = roster.hostsSeen();
            assertThat(after).isEqualTo(store.hostsSeen());
            assertThat(after).filteredOn(h -> h.host().equals("sql-7")).extracting(HostSeen::lastSeen)
                    .containsExactly(BASE.plus(Duration.ofMinutes(5)).plusSeconds(7));

            // a report stored with an earlier time than the latest one known (another collector's clock): still seen
            Instant late = BASE.plus(Duration.ofMinutes(2));
            store.store("sql-15", TestReports.numbered(++n, 1, late), late);
            assertThat(roster.hostsSeen()).isEqualTo(store.hostsSeen());

            // a new host between known ones, in the store's order
            Instant now = BASE.plus(Duration.ofMinutes(10));
            store.store("sql-10a", TestReports.numbered(++n, 1, now), now);
            assertThat(roster.hostsSeen()).isEqualTo(store.hostsSeen()).hasSize(21);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void nothingStoredSinceAnswersTheListItAlreadyHolds(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql-1", TestReports.numbered(1, 1, BASE), BASE);
            FleetRoster roster = new FleetRoster(store);
            List<HostSeen> first = roster.hostsSeen();
            assertThat(roster.hostsSeen()).isSameAs(first).isEqualTo(store.hostsSeen());
        }
    }
}
