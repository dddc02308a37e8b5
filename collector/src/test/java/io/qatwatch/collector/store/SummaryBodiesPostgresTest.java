package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGResultSetMetaData;

/**
 * A restart's read of the summaries on a real PostgreSQL: the bodies come back byte for byte, and in binary (bytea
 * hex-encoded as text is twice the bytes on the wire and a decode in the driver).
 */
class SummaryBodiesPostgresTest {

    private static final Instant AT = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path data;

    @Test
    void theBodiesComeBackWholeAndInBinaryOnTheFirstRead() throws Exception {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] large = new byte[200_000];
        new Random(33).nextBytes(large);
        List<InstanceSummary> written = List.of(
                new InstanceSummary("sql01", "MSSQLSERVER", 3, 10, 1, AT, everyByte),
                new InstanceSummary("sql02", "MSSQLSERVER", 3, 11, 2, AT, large),
                new InstanceSummary("sql03", "MSSQLSERVER", 3, 12, 3, AT, new byte[0]));
        try (Database db = StoreKinds.open(Database.Kind.POSTGRESQL, data)) {
            SqlReportStore store = new SqlReportStore(db);
            store.writeSummaries(written);

            List<InstanceSummary> read = new ArrayList<>();
            store.summaries(HostSelection.ALL, read::add);
            assertThat(read).hasSize(3);
            for (InstanceSummary w : written) {
                assertThat(read).filteredOn(r -> r.host().equals(w.host())).singleElement()
                        .satisfies(r -> assertThat(r.body()).as(w.host()).isEqualTo(w.body()));
            }

            int format = db.read(c -> {
                c.setAutoCommit(false);
                try (PreparedStatement s = InstanceSummaries.select(c, Database.Kind.POSTGRESQL, HostSelection.ALL);
                     ResultSet rs = s.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnName(7)).isEqualTo("body");
                    return rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(7);
                } finally {
                    c.commit();
                    c.setAutoCommit(true);
                }
            });
            assertThat(format).as("the body column's format on the wire: 1 binary, 0 text").isEqualTo(1);
        }
    }
}
