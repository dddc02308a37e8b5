package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Guards the read side: a read token, or (for the status page only) a request from loopback. */
final class ReadAccess {

    /** The routing-context key holding the read token's name (absent for loopback access). */
    static final String READER = "qatwatch.reader";

    private final WorkerExecutor storeWorker;
    private final TokenStore tokens;

    ReadAccess(WorkerExecutor storeWorker, TokenStore tokens) {
        this.storeWorker = storeWorker;
        this.tokens = tokens;
    }

    void require(RoutingContext ctx, boolean loopbackAllowed, Runnable then) {
        String header = ctx.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            if (loopbackAllowed && isLoopback(ctx)) {
                then.run();
            } else {
                deny(ctx, "send 'Authorization: Bearer <read token>' (qatwatch collector token add NAME --read)");
            }
            return;
        }
        String presented = header.substring(7).trim();
        storeWorker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            if (r.succeeded() && r.result().filter(t -> t.kind() == TokenStore.Kind.READ).isPresent()) {
                ctx.put(READER, r.result().get().name());
                then.run();
            } else {
                deny(ctx, "unknown, revoked or non-read token");
            }
        });
    }

    private static boolean isLoopback(RoutingContext ctx) {
        var remote = ctx.request().remoteAddress();
        if (remote == null || remote.host() == null) {
            return false;
        }
        String h = remote.host();
        return h.startsWith("127.") || h.equals("0:0:0:0:0:0:0:1") || h.equals("::1");
    }

    private static void deny(RoutingContext ctx, String message) {
        ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"")
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
