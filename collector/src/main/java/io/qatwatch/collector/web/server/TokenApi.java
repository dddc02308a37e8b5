package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;

/**
 * {@code /api/v1/tokens} for admin tokens: list (never secrets), issue (the token shown once in the answer),
 * revoke by name. What {@code qatwatch collector token} does on the collector's host, over HTTP.
 */
final class TokenApi {

    private final WorkerExecutor storeWorker;
    private final TokenStore tokens;
    private final Clock clock;

    TokenApi(WorkerExecutor storeWorker, TokenStore tokens, Clock clock) {
        this.storeWorker = storeWorker;
        this.tokens = tokens;
        this.clock = clock;
    }

    void list(RoutingContext ctx) {
        storeWorker.executeBlocking(tokens::list, false).onSuccess(list -> {
            JsonArray out = new JsonArray();
            list.forEach(t -> out.add(new JsonObject().put("id", t.id()).put("name", t.name()).put("kind", t.kind().label())
                    .put("createdAt", t.createdAt().toString())
                    .put("revokedAt", t.revokedAt() == null ? null : t.revokedAt().toString())));
            ctx.response().putHeader("Content-Type", "application/json").end(out.encodePrettily());
        }).onFailure(ctx::fail);
    }

    /** {@code {"name", "kind": "agent" | "read" | "operator" | "admin"}} → 201 {@code {"name", "kind", "token"}}. */
    void add(RoutingContext ctx) {
        JsonObject body;
        try {
            body = ctx.body().buffer() == null || ctx.body().length() == 0 ? null : ctx.body().buffer().toJsonObject();
        } catch (DecodeException | ClassCastException e) {
            body = null;
        }
        if (body == null) {
            bad(ctx, "$", "send {\"name\": \"...\", \"kind\": \"agent\" | \"read\" | \"operator\" | \"admin\"}");
            return;
        }
        Object name = body.getValue("name");
        Kind kind = body.getValue("kind") instanceof String k ? Kind.parse(k) : null;
        if (!(name instanceof String n)) {
            bad(ctx, "name", "give the token's name (a host name for an agent token)");
            return;
        }
        if (kind == null) {
            bad(ctx, "kind", "kind must be agent, read, operator or admin");
            return;
        }
        storeWorker.executeBlocking(() -> tokens.add(n, kind, clock.instant()), false)
                .onSuccess(token -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                        .putHeader("Cache-Control", "no-store")
                        .end(new JsonObject().put("name", n).put("kind", kind.label()).put("token", token).encodePrettily()))
                .onFailure(e -> {
                    if (e instanceof IllegalArgumentException) {
                        bad(ctx, "name", e.getMessage());
                    } else {
                        ctx.fail(e);
                    }
                });
    }

    void revoke(RoutingContext ctx) {
        String name = ctx.pathParam("name");
        storeWorker.executeBlocking(() -> tokens.revoke(name, clock.instant()), false).onSuccess(n -> {
            if (n == 0) {
                ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", "no active token named " + name).encode());
            } else {
                ctx.response().setStatusCode(204).end();
            }
        }).onFailure(ctx::fail);
    }

    private static void bad(RoutingContext ctx, String field, String message) {
        ctx.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).encode());
    }
}
