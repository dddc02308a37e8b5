package io.qatwatch.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RawHttp;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
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
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.assertj.core.api.SoftAssertions;
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
 * wrong within 10 s, nothing is stored, and afterwards a good report is still accepted. The cases: hand-written ones
 * (malformed JSON, transport, types, values, times, lengths, control characters, credentials), one per rule of
 * every field of the wire format made from {@code ReportSchema} itself, and slow or stalled clients over raw sockets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputCorpusTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);
    /** Short body and header timeouts, so that the stalled clients are done in seconds; no rate limit in the way. */
    private static final IngestConfig LIMITS = new IngestConfig(8L * 1024 * 1024, 1_000_000, 1, 3, 64, 3);
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    /** Which credential a case presents. */
    enum Auth { AGENT, NONE, BASIC, EMPTY, GARBAGE, FORGED, WRONG_SECRET, REVOKED, READ, LONG, SPACED, NO_SPACE, TWO }

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
        running = RunningCollector.start(CollectorConfig.defaults().withIngest(LIMITS), data, CLOCK);
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
        c.add(mutated("100 KB string", r -> r.getJsonObject("agent").put("name", "x".repeat(100_000)), 400, "agent.name",
                "64 KiB"));
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
        issueCases(c);
        transportCases(c);
        for (SchemaSamples.Breach b : SchemaSamples.breaches()) {
            c.add(new Case("rule: " + b.name(), Auth.AGENT, "application/json", null, b.body(), 400, b.field(), b.message()));
        }
        return c.stream();
    }

    /** What the outside test of issue 17 found accepted, each now refused. */
    private static void issueCases(List<Case> c) {
        String[] controls = {"\u0007", "\u0000", "\r", "\n", "\u001b", "\t"};
        record Where(String field, Consumer<JsonObject> set) {
        }
        for (String ctl : controls) {
            String shown = String.format("U+%04X", (int) ctl.charAt(0));
            List<Where> places = List.of(
                    new Where("host.os.name", r -> r.getJsonObject("host").getJsonObject("os").put("name", "Windows" + ctl)),
                    new Where("instances[0].server.edition", r -> instance(r).getJsonObject("server").put("edition", "Ent" + ctl)),
                    new Where("qat.devices[0].name", r -> r.getJsonObject("qat").getJsonArray("devices").getJsonObject(0)
                            .put("name", ctl + "4xxx")),
                    new Where("instances[0].databases[0].recoveryModel", r -> instance(r).getJsonArray("databases")
                            .getJsonObject(0).put("recoveryModel", "FULL" + ctl)),
                    new Where("instances[0].accelerators[0].modeReasonDesc", r -> instance(r).getJsonArray("accelerators")
                            .getJsonObject(0).put("modeReasonDesc", "HARDWARE" + ctl + "MODE")),
                    new Where("qat.software.drivers[0].path", r -> r.getJsonObject("qat").getJsonObject("software")
                            .getJsonArray("drivers").getJsonObject(0).put("path", "C:" + ctl + "qat.sys")));
            for (Where w : places) {
                c.add(mutated(shown + " in " + w.field(), w.set(), 400, w.field(), "control character " + shown));
            }
        }
        c.add(mutated("5,000 characters in host.os.name", r -> r.getJsonObject("host").getJsonObject("os")
                .put("name", "W".repeat(5000)), 400, "host.os.name", "at most 256"));
        c.add(mutated("5,000 characters in server.edition", r -> instance(r).getJsonObject("server")
                .put("edition", "E".repeat(5000)), 400, "instances[0].server.edition", "at most 256"));
        c.add(mutated("100 KiB string in an unknown field", r -> r.put("addedByANewerAgent", "x".repeat(100 * 1024)), 400,
                "addedByANewerAgent", "64 KiB"));
        c.add(mutated("control character in an unknown nested field", r -> r.getJsonObject("agent")
                .put("future", new JsonObject().put("note", "a\u001bb")), 400, "agent.future.note", "control character U+001B"));
        c.add(mutated("deviceType FLOPPY", r -> backup(r).put("deviceType", "FLOPPY"), 400,
                "instances[0].backups[0].deviceType", "must be one of"));
        c.add(mutated("target NAS", r -> backup(r).put("target", "NAS"), 400, "instances[0].backups[0].target", "must be one of"));
        c.add(mutated("QAT state UP", r -> r.getJsonObject("qat").getJsonArray("devices").getJsonObject(0).put("state", "UP"),
                400, "qat.devices[0].state", "must be one of"));
        c.add(mutated("createdAt as a number", r -> r.put("createdAt", 1_796_000_000L), 400, "createdAt", "ISO-8601"));
        c.add(mutated("edition as a number", r -> instance(r).getJsonObject("server").put("edition", 16), 400,
                "instances[0].server.edition", "expected a string"));
        c.add(mutated("hadrEnabled as a string", r -> instance(r).getJsonObject("server").put("hadrEnabled", "false"), 400,
                "instances[0].server.hadrEnabled", "expected true or false"));
        c.add(mutated("a null in a list", r -> r.getJsonObject("licence").getJsonArray("notes").addNull(), 400,
                "licence.notes[1]", "is required"));
        String golden = golden();
        int at = golden.indexOf("\"Sales\"") + 1;
        byte[] plain = golden.getBytes(StandardCharsets.UTF_8);
        int byteAt = golden.substring(0, at).getBytes(StandardCharsets.UTF_8).length;
        String[][] utf8 = {{"overlong C0 AF", "C0 AF"}, {"encoded surrogate ED A0 80", "ED A0 80"},
            {"overlong E0 80 AF", "E0 80 AF"}, {"past U+10FFFF F4 90 80 80", "F4 90 80 80"}, {"lone continuation 80", "80"},
            {"truncated E2 82", "E2 82"}, {"byte FF", "FF"}, {"raw NUL byte", "00"}};
        for (String[] u : utf8) {
            c.add(bytes("invalid UTF-8: " + u[0], concat(Arrays.copyOf(plain, byteAt), SchemaSamples.hex(u[1]),
                    Arrays.copyOfRange(plain, byteAt, plain.length)), 400, "$"));
        }
        c.add(bytes("UTF-16 body", golden.getBytes(StandardCharsets.UTF_16), 400, "$"));
    }

    /** Content types, encodings, gzip and tokens. */
    private static void transportCases(List<Case> c) throws Exception {
        byte[] good = golden().getBytes(StandardCharsets.UTF_8);
        for (String type : List.of("application/jsonp", "application/json-seq", "application/jsonx", "text/json",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin-1",
                "application/json; charset=utf-16", "application/json; foo=bar", "application/json;", "json",
                "application/*", "*/*")) {
            c.add(new Case("Content-Type " + type, Auth.AGENT, type, null, good, 415, "$", "application/json"));
        }
        for (String encoding : List.of("deflate", "gzip, gzip", "compress", "x-gzip", "")) {
            c.add(new Case("Content-Encoding '" + encoding + "'", Auth.AGENT, "application/json", encoding, good, 415, "$",
                    "Content-Encoding must be gzip"));
        }
        c.add(new Case("gzip of malformed JSON", Auth.AGENT, "application/json", "gzip", gzip("{\"a\":".getBytes(StandardCharsets.UTF_8)),
                400, "$", "malformed JSON"));
        c.add(new Case("gzip in gzip", Auth.AGENT, "application/json", "gzip", gzip(gzip(good)), 400, "$", null));
        c.add(new Case("gzip of invalid UTF-8", Auth.AGENT, "application/json", "gzip",
                gzip(concat("{\"reportId\":\"".getBytes(StandardCharsets.US_ASCII), SchemaSamples.hex("C0 AF"), "\"}".getBytes(StandardCharsets.US_ASCII))),
                400, "$", "UTF-8"));
        c.add(new Case("gzip bomb of zeros", Auth.AGENT, "application/json", "gzip", gzip(new byte[64 * 1024 * 1024]), 413, "$",
                "decompressed body exceeds"));
        c.add(new Case("gzip of a report with a bell", Auth.AGENT, "application/json", "gzip",
                gzip(golden().replace("\"Sales\"", "\"Sa\\u0007les\"").getBytes(StandardCharsets.UTF_8)), 400,
                "instances[0].databases[0].name", "control character U+0007"));
        c.add(auth("token of 4 KiB", Auth.LONG, 401, "unknown or revoked token"));
        c.add(auth("space inside the token", Auth.SPACED, 401, "malformed bearer token"));
        c.add(auth("Bearer without a space", Auth.NO_SPACE, 401, "missing bearer token"));
        c.add(auth("two tokens", Auth.TWO, 401, "malformed bearer token"));
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
        } else if (bad.auth == Auth.NO_SPACE) {
            request.putHeader("Authorization", "Bearer" + agentToken);
        } else if (token != null) {
            request.putHeader("Authorization", "Bearer " + token);
        }
        if (bad.contentType != null) {
            request.putHeader("Content-Type", bad.contentType);
        }
        if (bad.encoding != null) {
            request.putHeader("Content-Encoding", bad.encoding);
        }
        long sent = System.nanoTime();
        HttpResponse<Buffer> response = request.sendBuffer(Buffer.buffer(bad.body)).await(ANSWER_WITHIN.toSeconds(), TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).as(bad.name).isLessThan(ANSWER_WITHIN);
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

    /**
     * A client over a raw socket: what it sends, with its pauses ({@code {AGENT}} stands for a valid agent token), the
     * answers it may get (-1: the connection closed without one), by when the answer must come and by when the
     * connection must be closed.
     */
    record Slow(String name, List<RawHttp.Step> steps, Set<Integer> statuses, Duration answerWithin, Duration closedWithin) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Slow> slowClients() {
        String json = "Content-Type: application/json";
        String agent = "Authorization: Bearer {AGENT}";
        Duration second = Duration.ofSeconds(1);
        Duration linger = IngestHandler.LINGER.plusSeconds(2);
        Duration bodyIdle = Duration.ofSeconds(LIMITS.bodyIdleTimeoutSeconds() + 2);
        Duration bodyTotal = Duration.ofSeconds(LIMITS.bodyTimeoutSeconds() + 2);
        Duration header = Duration.ofSeconds(LIMITS.headerTimeoutSeconds() + 2);
        Duration stall = Duration.ofSeconds(8);
        List<Slow> c = new ArrayList<>();
        c.add(new Slow("unauthenticated 8 MiB upload that stalls", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Content-Length: 8388608")), RawHttp.send(new byte[1024]), RawHttp.pause(stall)),
                Set.of(401), second, linger));
        c.add(new Slow("forged token, upload that stalls", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Authorization: Bearer qw_aaaaaaaaaaaa_" + "A".repeat(43), "Content-Length: 8388608")),
                RawHttp.send(new byte[1024]), RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("unauthenticated chunked upload that never ends", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Transfer-Encoding: chunked")), RawHttp.send("400\r\n" + "x".repeat(1024) + "\r\n"),
                RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("unauthenticated upload that keeps sending after its 401", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Content-Length: 8388608")), RawHttp.send(new byte[1 << 20]),
                RawHttp.pause(Duration.ofMillis(500)), RawHttp.send(new byte[1 << 20]), RawHttp.pause(stall)),
                Set.of(401, -1), second, linger));
        c.add(new Slow("NUL in the Authorization header", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Authorization: Bearer qw_\u0000abc", "Content-Length: 2")), RawHttp.send("{}"),
                RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("escape character in the Authorization header", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Authorization: Bearer \u001b[31mqw_x", "Content-Length: 2")), RawHttp.send("{}"),
                RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("bytes above 0x7F in the Authorization header", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Authorization: Bearer qw_\u00e9\u00ff", "Content-Length: 2")), RawHttp.send("{}"),
                RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("Expect: 100-continue with a forged token gets 401, not 100", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, "Authorization: Bearer qw_forged", "Expect: 100-continue", "Content-Length: 5000")),
                RawHttp.pause(stall)), Set.of(401), second, linger));
        c.add(new Slow("agent token, Content-Length larger than what is sent", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, agent, "Content-Length: 5000")), RawHttp.send("{\"schemaVersion\":1"),
                RawHttp.pause(stall)), Set.of(408), bodyIdle, bodyIdle));
        c.add(new Slow("agent token, chunked without its last chunk", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, agent, "Transfer-Encoding: chunked")), RawHttp.send(Integer.toHexString(17) + "\r\n{\"schemaVersion\":\r\n"),
                RawHttp.pause(stall)), Set.of(408), bodyIdle, bodyIdle));
        c.add(new Slow("agent token, gzip body that stalls", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, agent, "Content-Encoding: gzip", "Content-Length: 5000")),
                RawHttp.send(new byte[] {0x1f, (byte) 0x8b, 8, 0}), RawHttp.pause(stall)), Set.of(408), bodyIdle, bodyIdle));
        List<RawHttp.Step> trickle = RawHttp.steps(RawHttp.send(RawHttp.head(json, agent, "Content-Length: 5000")));
        for (int i = 0; i < 16; i++) {
            trickle.add(RawHttp.send(" "));
            trickle.add(RawHttp.pause(Duration.ofMillis(400)));
        }
        c.add(new Slow("agent token, a byte every 0.4 s (never idle, never done)", trickle, Set.of(408), bodyTotal, bodyTotal));
        List<RawHttp.Step> slowHead = RawHttp.steps(RawHttp.send("POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nX-Slow: "));
        for (int i = 0; i < 16; i++) {
            slowHead.add(RawHttp.send("a"));
            slowHead.add(RawHttp.pause(Duration.ofMillis(400)));
        }
        c.add(new Slow("request head a byte every 0.4 s", slowHead, Set.of(-1, 408), header, header));
        c.add(new Slow("a connection that sends nothing", RawHttp.steps(RawHttp.pause(stall)), Set.of(-1, 408), header, header));
        c.add(new Slow("agent token, Content-Length over ingest.maxBodyBytes", RawHttp.steps(
                RawHttp.send(RawHttp.head(json, agent, "Content-Length: 9437184")), RawHttp.pause(stall)), Set.of(413), second, linger));
        c.add(new Slow("agent token, chunked body over ingest.maxBodyBytes", chunked(agent, json, 9), Set.of(413, -1), bodyIdle, linger));
        c.add(new Slow("headers over 8 KiB", RawHttp.steps(RawHttp.send(RawHttp.head(json, agent, "X-Big: " + "a".repeat(9000),
                "Content-Length: 2")), RawHttp.send("{}"), RawHttp.pause(stall)), Set.of(400, 431, -1), second, linger));
        c.add(new Slow("request line over 4 KiB", RawHttp.steps(RawHttp.send("POST /api/v1/reports?" + "a".repeat(5000)
                + " HTTP/1.1\r\nHost: x\r\n\r\n"), RawHttp.pause(stall)), Set.of(400, 414, -1), second, linger));
        c.add(new Slow("HTTP/2 prior knowledge", RawHttp.steps(RawHttp.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
                RawHttp.pause(stall)), Set.of(400, 405, 505, -1), second, linger));
        return c;
    }

    private static List<RawHttp.Step> chunked(String agent, String json, int mebibytes) {
        List<RawHttp.Step> steps = RawHttp.steps(RawHttp.send(RawHttp.head(json, agent, "Transfer-Encoding: chunked")));
        byte[] chunk = concat("100000\r\n".getBytes(StandardCharsets.US_ASCII), new byte[1 << 20],
                "\r\n".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < mebibytes; i++) {
            steps.add(RawHttp.send(chunk));
        }
        steps.add(RawHttp.pause(Duration.ofSeconds(8)));
        return steps;
    }

    @Test
    @Order(2)
    void slowAndStalledClientsAreAnsweredAndClosedWithinTheTimeouts() throws Exception {
        List<Slow> cases = slowClients();
        ExecutorService pool = Executors.newFixedThreadPool(cases.size());
        try {
            List<Future<RawHttp.Answer>> answers = new ArrayList<>();
            for (Slow slow : cases) {
                List<RawHttp.Step> steps = slow.steps().stream().map(step -> step instanceof RawHttp.Send send
                        ? RawHttp.send(new String(send.bytes(), StandardCharsets.ISO_8859_1).replace("{AGENT}", agentToken)
                                .getBytes(StandardCharsets.ISO_8859_1)) : step).toList();
                answers.add(pool.submit(() -> RawHttp.exchange(collector.port(), steps, ANSWER_WITHIN.plusSeconds(2))));
            }
            SoftAssertions soft = new SoftAssertions();
            for (int i = 0; i < cases.size(); i++) {
                Slow slow = cases.get(i);
                RawHttp.Answer a = answers.get(i).get(60, TimeUnit.SECONDS);
                soft.assertThat(a.status()).as("%s: %s %s", slow.name(), a.head(), a.body()).isIn(slow.statuses());
                if (a.status() > 0) {
                    soft.assertThat(a.answeredAfter()).as("%s answered", slow.name()).isLessThanOrEqualTo(slow.answerWithin());
                    soft.assertThat(a.head()).as(slow.name()).doesNotContain("100 Continue");
                }
                soft.assertThat(a.closed()).as("%s: the connection is closed", slow.name()).isTrue();
                if (a.closed()) {
                    soft.assertThat(a.closedAfter()).as("%s closed", slow.name()).isLessThanOrEqualTo(slow.closedWithin());
                }
            }
            soft.assertAll();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(3)
    void corpusHasAtLeastTwoHundredCases() throws Exception {
        assertThat(corpus().count() + slowClients().size()).isGreaterThanOrEqualTo(200);
    }

    @Test
    @Order(4)
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
    @Order(5)
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
            case LONG -> "qw_" + "a".repeat(4096);
            case SPACED -> agentToken.substring(0, 10) + " " + agentToken.substring(10);
            case TWO -> agentToken + ", Bearer " + agentToken;
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
