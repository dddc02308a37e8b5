package io.qatwatch.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input, case by case, against one running collector over real HTTP: each gets the right 4xx naming what is
 * wrong, nothing is stored, and afterwards a good report is still accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputCorpusTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);

    /** Which credential a case presents. */
    enum Auth { AGENT, NONE, BASIC, EMPTY, GARBAGE, FORGED, WRONG_SECRET, REVOKED, READ }

    /** One bad request and the answer it must get; {@code field} null means not checked. */
    record Case(String name, Auth auth, String contentType, String encoding, byte[] body, int status, String field,
            String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    @TempDir
    static Path data;

    private RunningCollector running;
    private Collector collector;
    private WebClient http;
    private String agentToken;
    private String revokedToken;
    private String readToken;

    @BeforeAll
    void start() throws Exception {
        running = RunningCollector.start(data, CLOCK);
        collector = running.collector();
        http = running.http();
        agentToken = collector.tokens().add("sql01", TokenStore.Kind.AGENT, CLOCK.instant());
        revokedToken = collector.tokens().add("sql-old", TokenStore.Kind.AGENT, CLOCK.instant());
        collector.tokens().revoke("sql-old", CLOCK.instant());
        readToken = collector.tokens().add("grafana", TokenStore.Kind.READ, CLOCK.instant());
    }

    @AfterAll
    void stop() throws Exception {
        running.close();
    }

    static Stream<Case> corpus() throws Exception {
        List<Case> c = new ArrayList<>();
        // malformed JSON
        c.add(raw("empty body", "", 400, "$", "empty body"));
        c.add(raw("truncated object", "{\"schemaVersion\": 1, \"reportId\": ", 400, "$", "malformed JSON"));
        c.add(raw("not JSON", "hello collector", 400, "$", "malformed JSON"));
        c.add(raw("array instead of object", "[1,2,3]", 400, "$", null));
        c.add(raw("JSON null", "null", 400, "$", "empty body"));
        c.add(raw("trailing garbage", golden() + " {}", 400, "$", null));
        c.add(raw("duplicate key", "{\"schemaVersion\":1,\"schemaVersion\":1}", 400, null, "Duplicate field"));
        c.add(raw("comment", "/* hi */ " + golden(), 400, "$", "malformed JSON"));
        c.add(raw("nesting 200 deep", "[".repeat(200) + "]".repeat(200), 400, "$", null));
        c.add(bytes("invalid UTF-8", concat("{\"schemaVersion\":1,\"reportId\":\"".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xC3, (byte) 0x28}, "\"}".getBytes(StandardCharsets.US_ASCII)), 400, null));
        // transport
        c.add(new Case("truncated gzip", Auth.AGENT, "application/json", "gzip",
                Arrays.copyOf(gzip(golden().getBytes(StandardCharsets.UTF_8)), 60), 400, "$", "not valid gzip"));
        c.add(new Case("plain body labelled gzip", Auth.AGENT, "application/json", "gzip",
                golden().getBytes(StandardCharsets.UTF_8), 400, "$", "not valid gzip"));
        c.add(new Case("gzip bomb", Auth.AGENT, "application/json", "gzip", gzip(("{" + " ".repeat(20 * 1024 * 1024)).getBytes(StandardCharsets.US_ASCII)), 413, "$",
                "decompressed body exceeds"));
        c.add(new Case("brotli encoding", Auth.AGENT, "application/json", "br", golden().getBytes(StandardCharsets.UTF_8),
                415, "$", "Content-Encoding must be gzip"));
        c.add(new Case("text/plain", Auth.AGENT, "text/plain", null, golden().getBytes(StandardCharsets.UTF_8), 415, "$",
                "application/json"));
        c.add(new Case("no content type", Auth.AGENT, null, null, golden().getBytes(StandardCharsets.UTF_8), 415, "$",
                "application/json"));
        c.add(new Case("9 MiB body", Auth.AGENT, "application/json", null, new byte[9 * 1024 * 1024], 413, "$",
                "ingest.maxBodyBytes"));
        c.add(mutated("10 MB string", r -> r.getJsonObject("agent").put("name", "x".repeat(10_000_000)), 413, "$",
                "ingest.maxBodyBytes"));
        // wrong types
        c.add(mutated("schemaVersion as string", r -> r.put("schemaVersion", "1"), 400, "schemaVersion", "expected an integer"));
        c.add(mutated("schemaVersion as float", r -> r.put("schemaVersion", 1.5), 400, "schemaVersion", null));
        c.add(mutated("reportId as number", r -> r.put("reportId", 12345678), 400, "reportId", null));
        c.add(mutated("createdAt not a time", r -> r.put("createdAt", "yesterday"), 400, "createdAt", "ISO-8601"));
        c.add(mutated("createdAt without zone", r -> r.put("createdAt", "2026-11-30T06:15:00"), 400, "createdAt", null));
        c.add(mutated("uptime as string", r -> r.getJsonObject("agent").put("uptimeSeconds", "12"), 400,
                "agent.uptimeSeconds", null));
        c.add(mutated("size as string", r -> backup(r).put("backupSizeBytes", "big"), 400,
                "instances[0].backups[0].backupSizeBytes", null));
        c.add(mutated("backups as object", r -> instance(r).put("backups", new JsonObject()), 400,
                "instances[0].backups", null));
        c.add(mutated("copyOnly as string", r -> backup(r).put("copyOnly", "false"), 400,
                "instances[0].backups[0].copyOnly", null));
        c.add(mutated("backupSetId as float", r -> backup(r).put("backupSetId", 1.5), 400,
                "instances[0].backups[0].backupSetId", null));
        c.add(mutated("unknown licence verdict", r -> r.getJsonObject("licence").put("verdict", "MAYBE"), 400,
                "licence.verdict", null));
        c.add(mutated("unknown PCI function", r -> r.getJsonObject("qat").getJsonArray("devices").getJsonObject(0)
                .put("function", "XF"), 400, "qat.devices[0].function", null));
        c.add(mutated("null for a number", r -> r.getJsonObject("agent").putNull("outboxDepth"), 400,
                "agent.outboxDepth", "is required"));
        c.add(mutated("instances as string", r -> r.put("instances", "MSSQLSERVER"), 400, "instances", null));
        // negative and impossible values
        c.add(mutated("negative size", r -> backup(r).put("backupSizeBytes", -1), 400,
                "instances[0].backups[0].backupSizeBytes", "must not be negative"));
        c.add(mutated("negative compressed size", r -> backup(r).put("compressedSizeBytes", -5), 400,
                "instances[0].backups[0].compressedSizeBytes", "must not be negative"));
        c.add(mutated("negative outbox depth", r -> r.getJsonObject("agent").put("outboxDepth", -1), 400,
                "agent.outboxDepth", "must not be negative"));
        c.add(mutated("backupSetId zero", r -> backup(r).put("backupSetId", 0), 400,
                "instances[0].backups[0].backupSetId", "positive"));
        c.add(mutated("negative high-water mark", r -> instance(r).put("backupHighWaterMark", -1), 400,
                "instances[0].backupHighWaterMark", "must not be negative"));
        c.add(mutated("percent complete 150", r -> instance(r).put("runningBackups", new JsonArray().add(new JsonObject()
                .put("sessionId", 55).put("command", "BACKUP DATABASE").put("databaseName", "Sales")
                .put("startedAt", "2026-11-30T06:00:00Z").put("percentComplete", 150.0).put("elapsedSeconds", 60))),
                400, "instances[0].runningBackups[0].percentComplete", "between 0 and 100"));
        c.add(mutated("backup type X", r -> backup(r).put("type", "X"), 400, "instances[0].backups[0].type", "D, I, L"));
        // times
        c.add(mutated("created in the far future", r -> r.put("createdAt", "2999-01-01T00:00:00Z"), 400, "createdAt",
                "in the future"));
        c.add(mutated("backup finishes in the far future", r -> backup(r).put("finishedAt", "2100-01-01T00:00:00Z"), 400,
                "instances[0].backups[0].finishedAt", "in the future"));
        c.add(mutated("backup started in 1970", r -> backup(r).put("startedAt", "1970-01-01T00:00:00Z"), 400,
                "instances[0].backups[0].startedAt", "before"));
        c.add(mutated("finishes before it starts", r -> backup(r).put("finishedAt", "2026-11-30T00:00:00Z"), 400,
                "instances[0].backups[0].finishedAt", "before it starts"));
        c.add(mutated("collectedAt missing", r -> instance(r).remove("collectedAt"), 400, "instances[0].collectedAt",
                "is required"));
        // lengths
        c.add(mutated("100 KB string", r -> r.getJsonObject("agent").put("name", "x".repeat(100_000)), 400, null,
                "String value length"));
        c.add(mutated("agent name 300 chars", r -> r.getJsonObject("agent").put("name", "x".repeat(300)), 400,
                "agent.name", "at most 256"));
        c.add(mutated("database name 200 chars", r -> backup(r).put("databaseName", "d".repeat(200)), 400,
                "instances[0].backups[0].databaseName", "at most 128"));
        c.add(mutated("65 instances", r -> {
            JsonArray many = new JsonArray();
            for (int i = 0; i < 65; i++) {
                many.add(instance(r).copy().put("name", "I" + i));
            }
            r.put("instances", many);
        }, 400, "instances", "at most 64"));
        // control characters and path separators
        c.add(mutated("NUL in agent name", r -> r.getJsonObject("agent").put("name", "sql\u000001"), 400, "agent.name",
                "control character U+0000"));
        c.add(mutated("newline in database name", r -> backup(r).put("databaseName", "Sales\nDROP"), 400,
                "instances[0].backups[0].databaseName", "control character U+000A"));
        c.add(mutated("escape in licence note", r -> r.getJsonObject("licence").put("notes",
                new JsonArray().add("\u001b[31mred")), 400, "licence.notes[0]", "control character U+001B"));
        c.add(mutated("line separator in probe error", r -> r.getJsonArray("probes").getJsonObject(0)
                .put("error", "a\u2028b"), 400, "probes[0].error", "control character U+2028"));
        c.add(mutated("tab in hostname", r -> r.getJsonObject("host").put("hostname", "sql\t01"), 400, "host.hostname",
                "control character U+0009"));
        c.add(mutated("dot-dot instance name", r -> instance(r).put("name", "../etc"), 400, "instances[0].name",
                "path separators"));
        c.add(mutated("slash in instance name", r -> instance(r).put("name", "PROD/X"), 400, "instances[0].name",
                "path separators"));
        c.add(mutated("backslash in instance name", r -> instance(r).put("name", "SQL01\\PROD"), 400, "instances[0].name",
                "path separators"));
        c.add(mutated("instance name '..'", r -> instance(r).put("name", ".."), 400, "instances[0].name",
                "path separators"));
        c.add(mutated("space in instance name", r -> instance(r).put("name", "PROD 2"), 400, "instances[0].name", null));
        c.add(mutated("path in reportId", r -> r.put("reportId", "../../../etc/passwd"), 400, "reportId", "letters, digits"));
        // protocol
        c.add(mutated("schema version 2", r -> r.put("schemaVersion", 2), 400, "schemaVersion",
                "unsupported schema version 2"));
        c.add(mutated("schema version 0", r -> r.put("schemaVersion", 0), 400, "schemaVersion", "unsupported"));
        c.add(mutated("schema version missing", r -> r.remove("schemaVersion"), 400, "schemaVersion", "is required"));
        c.add(mutated("reportId missing", r -> r.remove("reportId"), 400, "reportId", "is required"));
        c.add(mutated("agent missing", r -> r.remove("agent"), 400, "agent", "is required"));
        // credentials
        c.add(auth("no Authorization header", Auth.NONE, 401, "missing bearer token"));
        c.add(auth("Basic instead of Bearer", Auth.BASIC, 401, "missing bearer token"));
        c.add(auth("empty bearer", Auth.EMPTY, 401, "missing bearer token"));
        c.add(auth("garbage token", Auth.GARBAGE, 401, "unknown or revoked token"));
        c.add(auth("forged token of the right shape", Auth.FORGED, 401, "unknown or revoked token"));
        c.add(auth("right id, wrong secret", Auth.WRONG_SECRET, 401, "unknown or revoked token"));
        c.add(auth("revoked token", Auth.REVOKED, 401, "unknown or revoked token"));
        c.add(auth("read token posting a report", Auth.READ, 403, "read token"));
        return c.stream();
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void badInputGetsTheRight4xxAndANamedField(Case bad) throws Exception {
        var request = http.post(collector.port(), "127.0.0.1", "/api/v1/reports");
        String token = token(bad.auth);
        if (bad.auth == Auth.BASIC) {
            request.putHeader("Authorization", "Basic c3FsMDE6c2VjcmV0");
        } else if (bad.auth == Auth.EMPTY) {
            request.putHeader("Authorization", "Bearer ");
        } else if (token != null) {
            request.putHeader("Authorization", "Bearer " + token);
        }
        if (bad.contentType != null) {
            request.putHeader("Content-Type", bad.contentType);
        }
        if (bad.encoding != null) {
            request.putHeader("Content-Encoding", bad.encoding);
        }
        HttpResponse<Buffer> response = request.sendBuffer(Buffer.buffer(bad.body)).await(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).as(bad.name + ": " + response.bodyAsString()).isEqualTo(bad.status);
        JsonObject answer = response.bodyAsJsonObject();
        assertThat(answer.getString("error")).as(bad.name).isNotBlank();
        if (bad.field != null) {
            assertThat(answer.getString("field")).as(bad.name + ": " + answer).isEqualTo(bad.field);
        }
        if (bad.message != null) {
            assertThat(answer.getString("error")).as(bad.name).contains(bad.message);
        }
    }

    @Test
    @Order(2)
    void corpusHasAtLeastFiftyCases() throws Exception {
        assertThat(corpus().count()).isGreaterThanOrEqualTo(50);
    }

    @Test
    @Order(3)
    void nothingWasStoredAndTheCollectorStillServes() throws Exception {
        assertThat(count("reports")).isZero();
        assertThat(count("backups")).isZero();
        assertThat(count("hosts")).isZero();
        assertThat(count("instances")).isZero();

        HttpResponse<Buffer> good = http.post(collector.port(), "127.0.0.1", "/api/v1/reports")
                .putHeader("Authorization", "Bearer " + agentToken).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(golden())).await(10, TimeUnit.SECONDS);
        assertThat(good.statusCode()).isEqualTo(202);
        assertThat(count("backups")).isEqualTo(1);

        String metrics = http.get(collector.port(), "127.0.0.1", "/metrics").send().await(10, TimeUnit.SECONDS).bodyAsString();
        assertThat(metrics).contains("qatwatch_reports_rejected_total{reason=\"invalid\"}")
                .contains("qatwatch_reports_rejected_total{reason=\"unauthorized\"}")
                .contains("qatwatch_reports_rejected_total{reason=\"too_large\"}");
    }

    @Test
    @Order(4)
    void wrongMethodAndUnknownPathAreAnsweredInJson() throws Exception {
        HttpResponse<Buffer> get = http.request(HttpMethod.GET, collector.port(), "127.0.0.1", "/api/v1/reports")
                .send().await(10, TimeUnit.SECONDS);
        assertThat(get.statusCode()).isEqualTo(405);
        HttpResponse<Buffer> missing = http.get(collector.port(), "127.0.0.1", "/api/v1/nothing")
                .putHeader("Authorization", "Bearer " + readToken).send().await(10, TimeUnit.SECONDS);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.bodyAsJsonObject().getString("error")).contains("/api/v1/nothing");
    }

    private long count(String table) throws Exception {
        return StoreKinds.scalar(collector.database(), "SELECT COUNT(*) FROM " + table);
    }

    private String token(Auth auth) {
        return switch (auth) {
            case AGENT -> agentToken;
            case GARBAGE -> "qw_abc";
            case FORGED -> "qw_aaaaaaaaaaaa_" + "A".repeat(43);
            case WRONG_SECRET -> agentToken.substring(0, 16) + "B".repeat(43);
            case REVOKED -> revokedToken;
            case READ -> readToken;
            default -> null;
        };
    }

    private static String golden() {
        return new String(GoldenReports.bytes(GoldenReports.COMPLETE), StandardCharsets.UTF_8);
    }

    private static JsonObject instance(JsonObject report) {
        return report.getJsonArray("instances").getJsonObject(0);
    }

    private static JsonObject backup(JsonObject report) {
        return instance(report).getJsonArray("backups").getJsonObject(0);
    }

    private static Case raw(String name, String body, int status, String field, String message) {
        return new Case(name, Auth.AGENT, "application/json", null, body.getBytes(StandardCharsets.UTF_8), status, field,
                message);
    }

    private static Case bytes(String name, byte[] body, int status, String field) {
        return new Case(name, Auth.AGENT, "application/json", null, body, status, field, null);
    }

    private static Case mutated(String name, Consumer<JsonObject> change, int status, String field, String message) {
        JsonObject report = new JsonObject(golden());
        change.accept(report);
        return new Case(name, Auth.AGENT, "application/json", null, report.encode().getBytes(StandardCharsets.UTF_8),
                status, field, message);
    }

    private static Case auth(String name, Auth auth, int status, String message) {
        return new Case(name, auth, "application/json", null, golden().getBytes(StandardCharsets.UTF_8), status,
                auth == Auth.READ ? "$" : "Authorization", message);
    }

    private static byte[] gzip(byte[] plain) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
