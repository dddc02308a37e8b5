package io.qatwatch.collector.notify;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server on 127.0.0.1, port 0, standing in for a chat webhook: it records every request and
 * answers from a script (status, optional Retry-After, or no answer at all), then 200.
 */
public final class Loopback {

    /** One received request. */
    public record Received(Instant at, String path, String contentType, String authorization, JsonObject body) {
    }

    /** One scripted answer; status 0 means never answer (the client times out). */
    public record Answer(int status, String retryAfter) {
    }

    public final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();
    private HttpServer server;

    /** Starts the server; the future holds its port. */
    public Future<Integer> start(Vertx vertx) {
        server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(buf -> {
            received.add(new Received(Instant.now(), req.path(), req.getHeader("Content-Type"), req.getHeader("Authorization"),
                    buf.length() == 0 ? null : buf.toJsonObject()));
            Answer a;
            synchronized (script) {
                a = script.pollFirst();
            }
            if (a == null) {
                req.response().setStatusCode(200).end("ok");
            } else if (a.status() > 0) {
                if (a.retryAfter() != null) {
                    req.response().putHeader("Retry-After", a.retryAfter());
                }
                req.response().setStatusCode(a.status()).end("scripted " + a.status());
            }
        }));
        return server.listen(0, "127.0.0.1").map(HttpServer::actualPort);
    }

    /** Queues answers for the next requests. */
    public Loopback then(int status, String retryAfter) {
        synchronized (script) {
            script.addLast(new Answer(status, retryAfter));
        }
        return this;
    }

    public Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
