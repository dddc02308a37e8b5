package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsTestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Set;

/** Shared set-up for probe tests: the scenario fixtures, the login they accept, and settings pointing at a test server. */
final class SqlScenarios {

    static final String USER = "qatwatch_monitor";
    static final String PASSWORD = "s3cret-Pa55";
    /** The agent's clock: fixed, in a zone different from UTC so that the host-zone fallback shows. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T06:14:58Z"), ZoneId.of("Europe/Berlin"));
    static final Set<SqlSection> ALL = EnumSet.allOf(SqlSection.class);

    private SqlScenarios() {
    }

    static Scenario scenario(String name) {
        return Scenario.fromResource("/sqlserver/scenarios/" + name + ".json");
    }

    static Path passwordFile(Path dir) {
        try {
            Path file = dir.resolve("sql-password");
            Files.writeString(file, PASSWORD + "\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SqlInstanceSettings settings(TdsTestServer server, Path dir, int pageSize) {
        return settings(server.jdbcUrl(), dir, pageSize, Duration.ofSeconds(10));
    }

    static SqlInstanceSettings settings(String url, Path dir, int pageSize, Duration queryTimeout) {
        return new SqlInstanceSettings("PROD", url, USER, passwordFile(dir), null, false, Duration.ofSeconds(5), queryTimeout, pageSize);
    }
}
