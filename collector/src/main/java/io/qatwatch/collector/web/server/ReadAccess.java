package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.server.Sessions.Session;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.Cookie;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Optional;

/**
 * Guards the read side: a read token as {@code Authorization: Bearer}, a signed-in browser's session cookie, or
 * (for the status page only, unless {@code statusPage.openOnLoopback} is false) a request from loopback. A request
 * that changes state with the cookie must also carry the session's CSRF token.
 */
final class ReadAccess {

    /** The routing-context key holding the read token's name (absent for loopback access). */
    static final String READER = "qatwatch.reader";
    /** The routing-context key holding the {@link Session} when the request came with a session cookie. */
    static final String SESSION = "qatwatch.session";
    /** The header (or, in a form, the field {@code csrf}) that carries the session's CSRF token. */
    static final String CSRF_HEADER = "X-CSRF-Token";

    private final WorkerExecutor storeWorker;
    private final TokenStore tokens;
    private final Sessions sessions;
    private final Clock clock;
    private final boolean openOnLoopback;

    ReadAccess(WorkerExecutor storeWorker, TokenStore tokens, Sessions sessions, Clock clock, boolean openOnLoopback) {
        this.storeWorker = storeWorker;
        this.tokens = tokens;
        this.sessions = sessions;
        this.clock = clock;
        this.openOnLoopback = openOnLoopback;
    }

    /** Runs {@code then} for a reader; {@code page}: the status page, which a browser reaches through the sign-in page. */
    void require(RoutingContext ctx, boolean page, Runnable then) {
        String header = ctx.request().getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            authenticate(header.substring(7).trim(), ctx, name -> {
                ctx.put(READER, name);
                then.run();
            }, () -> deny(ctx, "unknown, revoked or non-read token"));
            return;
        }
        Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
        Optional<Session> session = cookie == null ? Optional.empty() : sessions.find(cookie.getValue(), clock.instant());
        if (session.isPresent()) {
            // the read token may have been revoked since the sign-in: then the session ends too
            authenticate(session.get().readToken(), ctx, name -> {
                ctx.put(READER, name);
                ctx.put(SESSION, session.get());
                then.run();
            }, () -> {
                sessions.end(cookie.getValue());
                signInAgain(ctx, page, true);
            });
            return;
        }
        if (page && openOnLoopback && isLoopback(ctx)) {
            then.run();
            return;
        }
        signInAgain(ctx, page, cookie != null);
    }

    /**
     * As {@link #require} for a request that changes state: signed in by cookie, it must also carry the session's
     * CSRF token ({@value #CSRF_HEADER}, or the form field {@code csrf}), which another site's page cannot know.
     */
    void requireToChange(RoutingContext ctx, Runnable then) {
        require(ctx, false, () -> {
            Session session = ctx.get(SESSION);
            if (session != null && !Sessions.csrfMatches(session, csrfOf(ctx))) {
                ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", "a request made with the session cookie must carry the session's"
                                + " CSRF token (" + CSRF_HEADER + " header, or the csrf form field); send a Bearer token instead"
                                + " for scripts").encode());
                return;
            }
            then.run();
        });
    }

    static String csrfOf(RoutingContext ctx) {
        String header = ctx.request().getHeader(CSRF_HEADER);
        return header != null ? header : ctx.request().getFormAttribute("csrf");
    }

    private void authenticate(String presented, RoutingContext ctx, java.util.function.Consumer<String> reader, Runnable refused) {
        storeWorker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            if (r.succeeded() && r.result().filter(t -> t.kind() == TokenStore.Kind.READ).isPresent()) {
                reader.accept(r.result().get().name());
            } else {
                refused.run();
            }
        });
    }

    /** A browser asking for the page goes to the sign-in page; anything else gets 401 saying how to authenticate. */
    private static void signInAgain(RoutingContext ctx, boolean page, boolean hadSession) {
        if (page) {
            ctx.response().setStatusCode(303).putHeader("Location", "/login" + (hadSession ? "?expired=1" : ""))
                    .putHeader("Cache-Control", "no-store").end();
            return;
        }
        deny(ctx, hadSession ? "the session expired or ended: sign in again at /login, or send 'Authorization: Bearer <read token>'"
                : "send 'Authorization: Bearer <read token>' (qatwatch collector token add NAME --read)");
    }

    static boolean isLoopback(RoutingContext ctx) {
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
