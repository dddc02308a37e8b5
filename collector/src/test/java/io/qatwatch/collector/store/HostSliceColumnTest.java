package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.TestReports;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's {@code hosts.slice} (issue 33): a store of the schema before it gets each existing host's slice from its
 * migration, a host that a writer of that schema inserts (a collector of the previous release during an upgrade) gets
 * it from the trigger, and both are {@link HostSlices#of}'s, for names of every kind; the reads of a selection return
 * what filtering every row would.
 */
class HostSliceColumnTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    @Test
    void aStoreOfThePreviousSchemaAndItsWritersGetEachHostsSliceAsTheCollectorWorksItOut() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.store("sql-ingested", TestReports.numbered(1, 1, BASE), BASE);
            // back to the schema before: no column, no trigger, no function
            StoreKinds.update(db, "DROP TRIGGER hosts_slice ON hosts; DROP FUNCTION hosts_slice(); "
                    + "DROP INDEX hosts_by_slice; ALTER TABLE hosts DROP COLUMN slice; DROP FUNCTION host_slice(text); "
                    + "DELETE FROM schema_versions WHERE component = '" + HostSliceColumn.COMPONENT + "'");
            List<String> names = names(600);
            insertAsBefore(db, names.subList(0, 300));

            new SqlReportStore(db);
            insertAsBefore(db, names.subList(300, names.size()));
            store.store("sql-ingested-later", TestReports.numbered(2, 1, BASE), BASE);

            Map<String, Integer> stored = slices(db);
            assertThat(stored).hasSize(names.size() + 2);
            stored.forEach((host, slice) -> assertThat(slice).as(host).isEqualTo(HostSlices.of(host)));
            assertThat(stored.values().stream().distinct().count()).as("the names fall in every slice").isEqualTo(HostSlices.COUNT);
        }
    }

    @Test
    void theReadsOfASelectionReturnWhatFilteringEveryRowWould() throws Exception {
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SqlReportStore store = new SqlReportStore(db);
            Instant since = BASE.minus(Duration.ofDays(1));
            long start = store.backupsAfter(0, since).upTo();
            for (int h = 0; h < 40; h++) {
                store.store("sql" + h, TestReports.numbered(h + 1, 2, BASE), BASE);
            }
            HostSelection some = HostSelection.of(Set.of(0, 5, 17, 30, 31, 32, 44, 63), Set.of("sql7", "sql8"));
            assertThat(store.fleetHeads(some)).isNotEmpty().isEqualTo(filtered(store.fleetHeads(), some));
            assertThat(store.fleet(some)).isEqualTo(filtered(store.fleet(), some));
            assertThat(store.backupsAfter(start, since, some).backups()).isNotEmpty()
                    .isEqualTo(store.backupsAfter(start, since).backups().stream().filter(b -> some.test(b.host())).toList());
            assertThat(store.fleetHeads(HostSelection.ALL)).isEqualTo(store.fleetHeads());
            assertThat(store.fleetHeads(HostSelection.of(Set.of(), Set.of()))).isEmpty();
        }
    }

    private static <T> List<T> filtered(List<T> rows, HostSelection some) {
        return rows.stream().filter(r -> some.test(r instanceof FleetRow f ? f.host() : ((ReportStore.FleetHead) r).host())).toList();
    }

    /** Host names of every kind: short, dotted, upper case, non-ASCII. */
    private static List<String> names(int count) {
        List<String> out = new ArrayList<>();
        String[] shapes = {"sql%d", "SQL-%03d.corp.example", "db-%d-ÅÄÖ", "серверSQL%d", "主机%d", "h%d_x"};
        for (int i = 0; out.size() < count; i++) {
            out.add(String.format(shapes[i % shapes.length], i));
        }
        return out;
    }

    /** Inserts hosts as a writer that does not know the column does. */
    private static void insertAsBefore(Database db, List<String> names) throws Exception {
        db.write(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO hosts(name, first_seen, last_seen) VALUES (?, 0, 0)")) {
                for (String name : names) {
                    s.setString(1, name);
                    s.addBatch();
                }
                s.executeBatch();
            }
            return null;
        });
    }

    private static Map<String, Integer> slices(Database db) throws Exception {
        return db.read(c -> {
            Map<String, Integer> out = new HashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, slice FROM hosts"); ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
            return out;
        });
    }
}
