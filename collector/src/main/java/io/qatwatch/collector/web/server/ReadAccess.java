package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Guards the API by role: reading needs a read, operator or admin token (or, for the status page only, a request
 * from loopback); changing silences, acknowledgements and notes needs operator or admin; tokens need admin. A
 * missing or unknown token is 401, a known token without the role 403.
 */
final class ReadAccess {

    /** The routing-context key holding the token's name (absent for loopback access). */
    static final String READER = "qatwatch.reader";

    private final WorkerExecutor storeWorker;
    private final TokenStore tokens;

    ReadAccess(WorkerExecutor storeWorker, TokenStore tokens) {
        this.storeWorker = storeWorker;
        this.tokens = tokens;
    }

    /** Runs {@code then} for a read (or higher) token, or from loopback when {@code loopbackAllowed}. */
    void require(RoutingContext ctx, boolean loopbackAllowed, Runnable then) {
        require(ctx, Kind.READ, loopbackAllowed, then);
    }

    /** Runs {@code then} when the request carries a token whose role allows {@code needed}. */
    void require(RoutingContext ctx, Kind needed, boolean loopbackAllowed, Runnable then) {
        String header = ctx.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            if (loopbackAllowed && isLoopback(ctx)) {
                then.run();
            } else {
                deny(ctx, 401, "send 'Authorization: Bearer <" + needed.label() + " token>' (qatwatch collector token add NAME --"
                        + needed.label() + ")");
            }
            return;
        }
        String presented = header.substring(7).trim();
        storeWorker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            if (r.failed() || r.result().isEmpty()) {
                deny(ctx, 401, "unknown or revoked token");
            } else if (!r.result().get().kind().allows(needed)) {
                TokenStore.TokenInfo t = r.result().get();
                deny(ctx, 403, "this needs " + roles(needed) + " token; " + t.name() + " holds " + article(t.kind())
                        + " token (an admin issues one: qatwatch collector token add NAME --" + needed.label() + ")");
            } else {
                ctx.put(READER, r.result().get().name());
                then.run();
            }
        });
    }

    private static String roles(Kind needed) {
        return switch (needed) {
            case READ -> "a read, operator or admin";
            case OPERATOR -> "an operator or admin";
            case ADMIN -> "an admin";
            case AGENT -> "an agent";
        };
    }

    private static String article(Kind k) {
        return (k == Kind.AGENT || k == Kind.OPERATOR || k == Kind.ADMIN ? "an " : "a ") + k.label();
    }

    private static boolean isLoopback(RoutingContext ctx) {
        var remote = ctx.request().remoteAddress();
        if (remote == null || remote.host() == null) {
            return false;
        }
        String h = remote.host();
        return h.startsWith("127.") || h.equals("0:0:0:0:0:0:0:1") || h.equals("::1");
    }

    private static void deny(RoutingContext ctx, int status, String message) {
        if (status == 401) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"");
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
