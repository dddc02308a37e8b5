package io.qatwatch.agent.ship;

import com.fasterxml.jackson.databind.JsonNode;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A collector that speaks DESIGN.md Contract 2 on loopback, for delivery tests before the real one is at
 * hand: checks the bearer token, unzips, stores by report id (repeats answer {@code duplicate: true}),
 * and answers from a script of statuses when one is queued.
 */
final class StubCollector {

    /** A scripted answer: status, optional Retry-After, body. */
    record Scripted(int status, String retryAfter, JsonObject body) {
    }

    final String token;
    final List<String> received = new CopyOnWriteArrayList<>();
    final List<JsonNode> stored = new CopyOnWriteArrayList<>();
    final Set<String> storedIds = ConcurrentHashMap.newKeySet();
    final AtomicInteger requests = new AtomicInteger();
    private final Deque<Scripted> script = new ArrayDeque<>();
    private HttpServer server;

    StubCollector(String token) {
        this.token = token;
    }

    synchronized StubCollector then(int status, String retryAfter, JsonObject body) {
        script.addLast(new Scripted(status, retryAfter, body));
        return this;
    }

    int start(Vertx vertx, int port) {
        server = vertx.createHttpServer().requestHandler(this::handle);
        return server.listen(port, "127.0.0.1").await().actualPort();
    }

    void stop() {
        server.close().await();
    }

    private void handle(HttpServerRequest req) {
        requests.incrementAndGet();
        if (!req.path().equals(CollectorClient.REPORTS_PATH) || req.method().name().equals("GET")) {
            req.response().setStatusCode(404).end();
            return;
        }
        if (!("Bearer " + token).equals(req.getHeader("Authorization"))) {
            req.response().setStatusCode(401).end(new JsonObject().put("error", "unknown token").encode());
            return;
        }
        req.body().onSuccess(buf -> {
            byte[] bytes = buf.getBytes();
            if ("gzip".equals(req.getHeader("Content-Encoding"))) {
                bytes = gunzip(bytes);
            }
            JsonNode report;
            try {
                report = ReportJson.mapper().readTree(bytes);
            } catch (IOException e) {
                req.response().setStatusCode(400).end(new JsonObject().put("error", "malformed JSON").put("field", "$").encode());
                return;
            }
            String id = report.path("reportId").asText();
            received.add(id);
            Scripted next;
            synchronized (this) {
                next = script.pollFirst();
            }
            if (next != null) {
                if (next.retryAfter() != null) {
                    req.response().putHeader("Retry-After", next.retryAfter());
                }
                req.response().setStatusCode(next.status()).end(next.body() == null ? "" : next.body().encode());
                return;
            }
            boolean duplicate = !storedIds.add(id);
            if (!duplicate) {
                stored.add(report);
            }
            req.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("reportId", id).put("duplicate", duplicate).encode());
        });
    }

    static byte[] gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
