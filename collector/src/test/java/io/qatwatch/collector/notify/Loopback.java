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

    /** One received request; {@code uri} is its path and query. */
    public record Received(Instant at, String uri, String contentType, String authorization, JsonObject body) {

        /** The path without the query. */
        public String path() {
            int q = uri.indexOf('?');
            return q < 0 ? uri : uri.substring(0, q);
        }
    }

    /** One scripted answer; status 0 means never answer (the client times out). */
    public record Answer(int status, String retryAfter) {
    }

    /** What a chat API answers a request: its status and JSON body. */
    public record Reply(int status, JsonObject body) {
    }

    public final List<Received> received = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();
    private volatile java.util.function.Function<Received, Reply> api;
    private HttpServer server;

    /** Starts the server; the future holds its port. */
    public Future<Integer> start(Vertx vertx) {
        server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(buf -> {
            Received got = new Received(Instant.now(), req.uri(), req.getHeader("Content-Type"), req.getHeader("Authorization"),
                    buf.length() == 0 ? null : buf.toJsonObject());
            received.add(got);
            Answer a;
            synchronized (script) {
                a = script.pollFirst();
            }
            java.util.function.Function<Received, Reply> answering = api;
            if (a == null && answering != null) {
                Reply reply = answering.apply(got);
                req.response().setStatusCode(reply.status()).putHeader("Content-Type", "application/json")
                        .end(reply.body().encode());
            } else if (a == null) {
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

    /** Answers every request that no scripted answer is queued for like an API: {@code reply} of what it received. */
    public Loopback answering(java.util.function.Function<Received, Reply> reply) {
        api = reply;
        return this;
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
