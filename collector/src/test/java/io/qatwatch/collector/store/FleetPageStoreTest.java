package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.HostSeen;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** Pages of the fleet from both stores: cursor order, patterns, filters, and the same rows as the whole fleet. */
class FleetPageStoreTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    /** 25 hosts in Frankfurt and 12 in London (the London ones silent for a day), plus two names with LIKE's wildcards. */
    private static List<String> fill(SqlReportStore store) throws Exception {
        List<String> hosts = new ArrayList<>();
        int n = 0;
        for (int i = 0; i < 25; i++) {
            hosts.add("sql-fra-" + String.format("%02d", i));
        }
        for (int i = 0; i < 12; i++) {
            hosts.add("SQL-LON-" + String.format("%02d", i));
        }
        hosts.add("db_1");
        hosts.add("dbx1");
        for (String host : hosts) {
            Instant at = host.startsWith("SQL-LON") ? BASE.minus(Duration.ofDays(1)) : BASE;
            store.store(host, TestReports.numbered(++n, 2, at), at);
        }
        return hosts.stream().sorted().toList();
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void pagesFollowTheCursorInHostNameOrderAndCoverTheFleetOnce(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            List<String> all = fill(store);

            List<String> seen = new ArrayList<>();
            String after = null;
            int pages = 0;
            while (true) {
                List<FleetRow> page = store.fleetPage(after, null, h -> true, 10);
                if (page.isEmpty()) {
                    break;
                }
                pages++;
                assertThat(page.size()).isLessThanOrEqualTo(10);
                page.forEach(r -> seen.add(r.host()));
                after = page.get(page.size() - 1).host();
            }
            assertThat(seen).containsExactlyElementsOf(all);
            assertThat(pages).isEqualTo(4);
            assertThat(store.hostsSeen()).extracting(HostSeen::host).containsExactlyElementsOf(all);
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aPageCarriesTheSameFactsAndInstancesAsTheWholeFleet(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            fill(store);
            List<FleetRow> page = store.fleetPage("sql-fra-03", null, h -> true, 3);
            List<FleetRow> whole = store.fleet();
            int at = whole.stream().map(FleetRow::host).toList().indexOf("sql-fra-04");
            assertThat(page).extracting(FleetRow::host).containsExactly("sql-fra-04", "sql-fra-05", "sql-fra-06");
            assertThat(page).isEqualTo(whole.subList(at, at + 3));
            assertThat(page.get(0).instances()).isNotEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void patternsAreShellStyleCaseInsensitiveAndTakeLikeWildcardsLiterally(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            fill(store);
            assertThat(store.fleetPage(null, "sql-lon-*", h -> true, 100)).hasSize(12)
                    .allSatisfy(r -> assertThat(r.host()).startsWith("SQL-LON-"));
            assertThat(store.fleetPage(null, "*-1?", h -> true, 100)).extracting(FleetRow::host)
                    .containsExactly("SQL-LON-10", "SQL-LON-11", "sql-fra-10", "sql-fra-11", "sql-fra-12", "sql-fra-13",
                            "sql-fra-14", "sql-fra-15", "sql-fra-16", "sql-fra-17", "sql-fra-18", "sql-fra-19");
            assertThat(store.fleetPage(null, "db_*", h -> true, 100)).extracting(FleetRow::host)
                    .as("'_' is a letter in a host pattern, not LIKE's any-character").containsExactly("db_1");
            assertThat(store.fleetPage("sql-fra-20", "sql-fra-*", h -> true, 100)).extracting(FleetRow::host)
                    .containsExactly("sql-fra-21", "sql-fra-22", "sql-fra-23", "sql-fra-24");
        }
    }

    @Test
    void pagesAndCountsWalkAnIndexOfNamesAndLastReportsNotTheHostRows() throws Exception {
        try (Database db = Database.open(data)) {
            new SqlReportStore(db);
            for (String query : List.of("SELECT name, last_seen FROM hosts WHERE name > ? ORDER BY name",
                    "SELECT name, last_seen FROM hosts WHERE name > ? AND name LIKE ? ESCAPE '\\' ORDER BY name",
                    "SELECT name, last_seen FROM hosts ORDER BY name")) {
                String plan = db.read(c -> {
                    try (var s = c.prepareStatement("EXPLAIN QUERY PLAN " + query)) {
                        for (int i = 1; i <= s.getParameterMetaData().getParameterCount(); i++) {
                            s.setString(i, "x");
                        }
                        try (var rs = s.executeQuery()) {
                            assertThat(rs.next()).isTrue();
                            return rs.getString("detail");
                        }
                    }
                });
                assertThat(plan).as(query).contains("COVERING INDEX hosts_by_name_seen");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void theFilterSeesWhenAHostLastReportedAndTheLimitCountsOnlyWhatItAccepts(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            SqlReportStore store = new SqlReportStore(db);
            fill(store);
            List<FleetRow> silent = store.fleetPage(null, null, h -> h.lastSeen().isBefore(BASE), 5);
            assertThat(silent).extracting(FleetRow::host)
                    .containsExactly("SQL-LON-00", "SQL-LON-01", "SQL-LON-02", "SQL-LON-03", "SQL-LON-04");
            assertThat(store.fleetPage("SQL-LON-11", null, h -> h.lastSeen().isBefore(BASE), 5)).isEmpty();
            assertThat(store.fleetPage(null, null, h -> false, 5)).isEmpty();
        }
    }
}
