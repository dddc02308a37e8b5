package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.protocol.GoldenReports;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over real HTTP: each API route's oversized body is answered with that route's own limit and counted under its own
 * route, never as a refused report; and a note holds what docs/collector.md says, to the character.
 */
class ApiBodiesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T06:20:00Z"), ZoneOffset.UTC);

    @TempDir
    Path data;

    private RunningCollector running;

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
    }

    private String alertPath(String agent, String reader) throws Exception {
        assertThat(running.postReport(agent, GoldenReports.bytes(GoldenReports.COMPLETE), false).statusCode()).isEqualTo(202);
        running.evaluate();
        JsonArray alerts = running.get("/api/v1/alerts", reader).bodyAsJsonArray();
        return "/api/v1/alerts/" + alerts.getJsonObject(0).getString("id");
    }

    private HttpResponse<Buffer> post(String path, String token, String contentType, String body) throws Exception {
        return running.request(HttpMethod.POST, path, token).putHeader("Content-Type", contentType)
                .sendBuffer(Buffer.buffer(body)).await(10, TimeUnit.SECONDS);
    }

    private record Oversized(String path, String token, String contentType, String route, int limit, String says) {
    }

    @Test
    void eachRoutesOversizedBodyNamesThatRoutesLimitAndCountsUnderItsRoute() throws Exception {
        running = RunningCollector.withAlertStage(CollectorConfig.defaults().withListen("127.0.0.1", 0), data, CLOCK);
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        String reader = running.token("grafana", TokenStore.Kind.READ);
        String operator = running.token("oncall", TokenStore.Kind.OPERATOR);
        String admin = running.token("root", TokenStore.Kind.ADMIN);
        String alert = alertPath(agent, reader);
        String form = "application/x-www-form-urlencoded";
        String json = "application/json";
        List<Oversized> cases = List.of(
                new Oversized("/login", null, form, "sign-in", 8192, "sign-in form"),
                new Oversized("/logout", null, form, "sign-out", 8192, "sign-out form"),
                new Oversized(alert + "/acknowledge", operator, json, "acknowledge", 32768, "its note is at most 2000 characters"),
                new Oversized(alert + "/notes", operator, json, "notes", 32768, "a note is at most 2000 characters"),
                new Oversized("/api/v1/silences", operator, json, "silences", 65536, "silence"),
                new Oversized("/api/v1/tokens", admin, json, "tokens", 4096, "token request"),
                // the status page's own forms
                new Oversized(alert.substring("/api/v1".length()) + "/acknowledge", operator, form, "page-acknowledge", 16384,
                        "acknowledge form"),
                new Oversized(alert.substring("/api/v1".length()) + "/notes", operator, form, "page-notes", 16384, "note form"),
                new Oversized("/silences", operator, form, "page-silences", 16384, "silence form"),
                new Oversized("/silences/s1/end", operator, form, "page-unsilence", 16384, "un-silence form"));
        for (Oversized c : cases) {
            String body = c.contentType().equals(form) ? "token=" + "x".repeat(c.limit())
                    : new JsonObject().put("text", "x".repeat(c.limit())).encode();
            HttpResponse<Buffer> r = post(c.path(), c.token(), c.contentType(), body);
            assertThat(r.statusCode()).as(c.path()).isEqualTo(413);
            JsonObject answer = r.bodyAsJsonObject();
            assertThat(answer.getString("error")).as(c.path())
                    .contains("the " + c.route() + " route's limit of " + c.limit() + " bytes").contains(c.says())
                    .doesNotContain("ingest.maxBodyBytes").doesNotContain("backups");
            assertThat(answer.getString("field")).isEqualTo("$");
        }
        String metrics = running.get("/metrics", null).bodyAsString();
        for (Oversized c : cases) {
            assertThat(metrics).contains("qatwatch_api_bodies_rejected_total{route=\"" + c.route() + "\",reason=\"too_large\"} 1");
        }
        assertThat(metrics).as("no report was refused").doesNotContain("qatwatch_reports_rejected_total{reason=\"too_large\"}");

        assertThat(post("/api/v1/reports", agent, json, "{\"x\":\"" + "x".repeat(9 * 1024 * 1024) + "\"}").statusCode())
                .isEqualTo(413);
        assertThat(running.get("/metrics", null).bodyAsString())
                .contains("qatwatch_reports_rejected_total{reason=\"too_large\"} 1");
    }

    @Test
    void aNoteHoldsTwoThousandCharactersOfAnyTextAndLineFeedsOnly() throws Exception {
        running = RunningCollector.withAlertStage(CollectorConfig.defaults().withListen("127.0.0.1", 0), data, CLOCK);
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        String reader = running.token("grafana", TokenStore.Kind.READ);
        String operator = running.token("oncall", TokenStore.Kind.OPERATOR);
        String notes = alertPath(agent, reader) + "/notes";
        String json = "application/json";

        assertThat(note(notes, operator, "a".repeat(2000)).statusCode()).isEqualTo(201);
        HttpResponse<Buffer> tooLong = note(notes, operator, "a".repeat(2001));
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.bodyAsJsonObject().getString("field")).isEqualTo("text");
        assertThat(tooLong.bodyAsJsonObject().getString("error")).contains("2001 characters").contains("at most 2000");

        String emoji = "\uD83D\uDCBE";
        HttpResponse<Buffer> astral = note(notes, operator, emoji.repeat(2000));
        assertThat(astral.statusCode()).as("2,000 code points, 4,000 UTF-16 units").isEqualTo(201);
        assertThat(note(notes, operator, emoji.repeat(2001)).statusCode()).isEqualTo(400);
        StringBuilder escaped = new StringBuilder("{\"text\":\"");
        for (int i = 0; i < 2000; i++) {
            escaped.append("\\uD83D\\uDCBE");
        }
        assertThat(post(notes, operator, json, escaped.append("\"}").toString()).statusCode())
                .as("every character escaped still fits the route's body limit").isEqualTo(201);

        HttpResponse<Buffer> crlf = note(notes, operator, "line one\r\nline two\rline three\n");
        assertThat(crlf.statusCode()).isEqualTo(201);
        assertThat(crlf.bodyAsJsonObject().getString("text")).isEqualTo("line one\nline two\nline three");
        assertThat(note(notes, operator, "ünïcødé, 日本語, ok").bodyAsJsonObject().getString("text")).isEqualTo("ünïcødé, 日本語, ok");

        for (String bad : List.of("tab\there", "bell\u0007", "nul\u0000", "del\u007f", "c1\u0085", "ls\u2028", "ps\u2029")) {
            HttpResponse<Buffer> r = note(notes, operator, bad);
            assertThat(r.statusCode()).as(bad).isEqualTo(400);
            assertThat(r.bodyAsJsonObject().getString("field")).isEqualTo("text");
            assertThat(r.bodyAsJsonObject().getString("error")).contains("U+");
        }
        HttpResponse<Buffer> lone = post(notes, operator, json, "{\"text\":\"half \\uD83D of a pair\"}");
        assertThat(lone.statusCode()).isEqualTo(400);
        assertThat(lone.bodyAsJsonObject().getString("error")).contains("lone UTF-16 surrogate at character 6");

        HttpResponse<Buffer> ack = post(notes.replace("/notes", "/acknowledge"), operator, json,
                new JsonObject().put("note", "b".repeat(2001)).encode());
        assertThat(ack.statusCode()).as("an acknowledgement's note has the same rules").isEqualTo(400);
        assertThat(ack.bodyAsJsonObject().getString("field")).isEqualTo("note");
    }

    private HttpResponse<Buffer> note(String path, String token, String text) throws Exception {
        return post(path, token, "application/json", new JsonObject().put("text", text).encode());
    }
}
