package io.qatwatch.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A lone surrogate written as a JSON escape is well-formed JSON but no character; stored, it became {@code ?} and the
 * data changed silently. It is refused with 400 naming the field, on either store, and nothing is stored; a character
 * beyond U+FFFF escaped as its surrogate pair is accepted and stored as it was sent.
 */
class LoneSurrogateTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);
    private static final String MARK = "SURROGATE-HERE";

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void anEscapedLoneSurrogateIs400WithTheFieldAndAnEscapedPairIsStoredIntact(Database.Kind kind) throws Exception {
        try (RunningCollector running = RunningCollector.start(CollectorConfig.defaults().withStore(StoreKinds.config(kind)),
                data, CLOCK)) {
            String token = running.token("sql01", TokenStore.Kind.AGENT);
            record Bad(String field, String escape, String shown) {
            }
            for (Bad bad : new Bad[] {new Bad("agent.name", "te\\ud800host", "U+D800"),
                new Bad("instances[0].backups[0].databaseName", "Sa\\udc00les", "U+DC00"),
                new Bad("host.hostname", "sql\\ude00\\ud83d01", "U+DE00")}) {
                HttpResponse<Buffer> answer = running.postReport(token, report(bad.field(), bad.escape()), false);
                assertThat(answer.statusCode()).as(bad.field() + ": " + answer.bodyAsString()).isEqualTo(400);
                JsonObject error = answer.bodyAsJsonObject();
                assertThat(error.getString("field")).isEqualTo(bad.field());
                assertThat(error.getString("error")).contains("lone surrogate " + bad.shown());
            }
            Database db = running.collector().database();
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM reports")).isZero();
            assertThat(StoreKinds.scalar(db, "SELECT COUNT(*) FROM hosts")).isZero();

            HttpResponse<Buffer> pair = running.postReport(token,
                    report("instances[0].backups[0].databaseName", "Sales\\ud83d\\ude00"), false);
            assertThat(pair.statusCode()).as(pair.bodyAsString()).isEqualTo(202);
            assertThat(StoreKinds.text(db, "SELECT database_name FROM backups")).isEqualTo("Sales\uD83D\uDE00");
        }
    }

    /** The golden report with {@code escape} (JSON escapes as they go on the wire) as the value of {@code field}. */
    private static byte[] report(String field, String escape) {
        JsonObject r = new JsonObject(new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8));
        switch (field) {
            case "agent.name" -> r.getJsonObject("agent").put("name", MARK);
            case "host.hostname" -> r.getJsonObject("host").put("hostname", MARK);
            default -> r.getJsonArray("instances").getJsonObject(0).getJsonArray("backups").getJsonObject(0)
                    .put("databaseName", MARK);
        }
        return r.encode().replace(MARK, escape).getBytes(StandardCharsets.UTF_8);
    }
}
