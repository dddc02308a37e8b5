package io.qatwatch.tds;

import static io.qatwatch.tds.Column.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.AbstractList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TdsTestServerTest {

    private static Connection connect(TdsTestServer server, String user, String password) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl() + ";databaseName=msdb;applicationName=tds-test", user, password);
    }

    @Test
    void answersEveryTypeTheAgentReadsThroughTheRealDriver() throws Exception {
        Scenario scenario = Scenario.named("types").productVersion("15.0.4375.4").answer("types.sql", TdsResponse.rows(
                List.of(col("i", "int"), col("big", "bigint"), col("small", "smallint"), col("tiny", "tinyint"),
                        col("flag", "bit"), col("pct", "real"), col("ratio", "float"), col("size", "numeric(20,0)"),
                        col("name", "nvarchar(128)"), col("kind", "char(1)"), col("path", "varchar(260)"),
                        col("thumb", "varbinary(20)"), col("guid", "uniqueidentifier"), col("at", "datetime")),
                List.of(
                        List.of(-7, 10_000_000_000L, 300, 255, true, 42.5f, 3.25, new BigDecimal("130718605312"),
                                "Ventes-ü", "D", "\\\\nas\\backup", "0x0A0B0C", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
                                "2026-11-30T00:38:19.600"),
                        java.util.Arrays.asList(null, null, null, null, null, null, null, null, null, null, null, null, null, null))));
        try (TdsTestServer server = TdsTestServer.start(scenario);
                Connection c = connect(server, "probe", "pw");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("-- types.sql\nSELECT everything")) {
            assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith("15.00.4375");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("i")).isEqualTo(-7);
            assertThat(rs.getLong("big")).isEqualTo(10_000_000_000L);
            assertThat(rs.getShort("small")).isEqualTo((short) 300);
            assertThat(rs.getInt("tiny")).isEqualTo(255);
            assertThat(rs.getBoolean("flag")).isTrue();
            assertThat(rs.getFloat("pct")).isEqualTo(42.5f);
            assertThat(rs.getDouble("ratio")).isEqualTo(3.25);
            assertThat(rs.getBigDecimal("size")).isEqualByComparingTo("130718605312");
            assertThat(rs.getString("name")).isEqualTo("Ventes-ü");
            assertThat(rs.getString("kind")).isEqualTo("D");
            assertThat(rs.getString("path")).isEqualTo("\\\\nas\\backup");
            assertThat(rs.getBytes("thumb")).containsExactly(0x0A, 0x0B, 0x0C);
            assertThat(rs.getString("guid")).isEqualToIgnoringCase("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
            assertThat(rs.getObject("at", LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2026-11-30T00:38:19.600"));
            assertThat(rs.next()).isTrue();
            for (int i = 1; i <= 14; i++) {
                assertThat(rs.getObject(i)).as("column %d", i).isNull();
            }
            assertThat(rs.next()).isFalse();
            assertThat(server.batches()).containsExactly("-- types.sql\nSELECT everything");
            assertThat(server.logins()).singleElement().satisfies(l -> {
                assertThat(l.user()).isEqualTo("probe");
                assertThat(l.password()).isEqualTo("pw");
                assertThat(l.database()).isEqualTo("msdb");
                assertThat(l.applicationName()).isEqualTo("tds-test");
            });
        }
    }

    @Test
    void permissionErrorsReachTheDriverAndTheConnectionStaysUsable() throws Exception {
        Scenario scenario = Scenario.named("denied")
                .answer("running-backups.sql", TdsResponse.permissionDenied("VIEW SERVER STATE"));
        try (TdsTestServer server = TdsTestServer.start(scenario);
                Connection c = connect(server, "probe", "pw");
                Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("-- running-backups.sql\nSELECT 2"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(300);
                        assertThat(e.getMessage()).isEqualTo("VIEW SERVER STATE permission was denied on object 'server', database 'master'.");
                        // a real server follows Msg 300 with Msg 297; the driver chains it
                        SQLException next = e.getNextException();
                        assertThat(next.getErrorCode()).isEqualTo(297);
                        assertThat(next.getMessage()).isEqualTo("The user does not have permission to perform this action.");
                    });
            assertThat(c.isValid(2)).isTrue();
            assertThat(server.batches()).last().isEqualTo("SELECT 1");
        }
    }

    @Test
    void aBatchWithoutAnAnswerNamesTheScenarioAndItsMarkers() throws Exception {
        try (TdsTestServer server = TdsTestServer.start(Scenario.named("empty").answer("known.sql", TdsResponse.invalidObject("x")));
                Connection c = connect(server, "probe", "pw");
                Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT name FROM sys.objects"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("scenario 'empty' has no answer")
                    .hasMessageContaining("known.sql");
        }
    }

    @Test
    void aQueryTimeoutIsCancelledWithAttentionAndAcknowledged() throws Exception {
        Scenario scenario = Scenario.named("slow").answer("slow.sql", new TdsResponse.Delayed(java.time.Duration.ofSeconds(30),
                TdsResponse.rows(List.of(col("x", "int")), List.of(List.of(1)))));
        try (TdsTestServer server = TdsTestServer.start(scenario);
                Connection c = connect(server, "probe", "pw");
                Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> s.executeQuery("-- slow.sql")).isInstanceOf(SQLTimeoutException.class);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
            assertThat(c.isValid(2)).isTrue();
        }
    }

    @Test
    void rejectsAWrongPasswordWithMsg18456() {
        try (TdsTestServer server = TdsTestServer.start(Scenario.named("login").acceptOnly("qatwatch", "right"))) {
            assertThatThrownBy(() -> connect(server, "qatwatch", "wrong"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(18456))
                    .hasMessageContaining("Login failed for user 'qatwatch'");
            assertThat(server.logins()).singleElement().satisfies(l -> assertThat(l.accepted()).isFalse());
        }
    }

    @Test
    void streamsAGeneratedResultLargerThanManyPackets() throws Exception {
        int rows = 50_000;
        List<List<?>> generated = new AbstractList<>() {
            @Override
            public List<?> get(int i) {
                return List.of(i + 1, "database-" + i);
            }

            @Override
            public int size() {
                return rows;
            }
        };
        Scenario scenario = Scenario.named("big").answer("big.sql",
                TdsResponse.rows(List.of(col("id", "int"), col("name", "nvarchar(128)")), generated));
        try (TdsTestServer server = TdsTestServer.start(scenario);
                Connection c = connect(server, "probe", "pw");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("-- big.sql")) {
            long sum = 0;
            int n = 0;
            String last = null;
            while (rs.next()) {
                sum += rs.getInt(1);
                last = rs.getString(2);
                n++;
            }
            assertThat(n).isEqualTo(rows);
            assertThat(sum).isEqualTo((long) rows * (rows + 1) / 2);
            assertThat(last).isEqualTo("database-" + (rows - 1));
        }
    }

    @Test
    void loadsAFixtureFileWithRowsAndErrors() throws Exception {
        Scenario scenario = Scenario.fromResource("/fixture-example.json");
        try (TdsTestServer server = TdsTestServer.start(scenario);
                Connection c = connect(server, "qatwatch", "secret");
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("-- configuration.sql")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("name")).isEqualTo("backup compression algorithm");
                assertThat(rs.getLong("value_in_use")).isEqualTo(2);
            }
            assertThatThrownBy(() -> s.executeQuery("-- accelerator-status.sql"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(208));
            assertThatThrownBy(() -> s.executeQuery("-- database-encryption.sql"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(300);
                        assertThat(e.getNextException().getErrorCode()).isEqualTo(297);
                    });
            assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith("15.00");
        }
    }
}
