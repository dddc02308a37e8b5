package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.store.TokenStore.TokenInfo;
import io.qatwatch.collector.web.server.Sessions.Session;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.Cookie;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Guards the API and the status page by role: a token as {@code Authorization: Bearer}, a signed-in browser's
 * session cookie, or (for the status page only, unless {@code statusPage.openOnLoopback} is false) a request from
 * loopback. Reading needs a read, operator or admin token; changing silences, acknowledgements and notes an operator
 * or admin token; tokens an admin token. A missing, unknown or revoked token is 401, a known token without the role
 * 403. A request that changes state with the cookie must also carry the session's CSRF token.
 */
final class ReadAccess {

    /** The routing-context key holding the token's name (absent for loopback access). */
    static final String READER = "qatwatch.reader";
    /** The routing-context key holding the {@link Session} when the request came with a session cookie. */
    static final String SESSION = "qatwatch.session";
    /** The routing-context key holding the token's {@link Kind} (absent for loopback access). */
    static final String ROLE = "qatwatch.role";
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
        require(ctx, Kind.READ, page, then);
    }

    /** Runs {@code then} when the request's token (or session) holds a role that allows {@code needed}. */
    void require(RoutingContext ctx, Kind needed, boolean page, Runnable then) {
        String header = ctx.request().getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            authenticate(header.substring(7).trim(), needed, ctx, name -> {
                ctx.put(READER, name);
                then.run();
            }, () -> deny(ctx, "unknown or revoked token"));
            return;
        }
        Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
        Optional<Session> session = cookie == null ? Optional.empty() : sessions.find(cookie.getValue(), clock.instant());
        if (session.isPresent()) {
            // the token may have been revoked since the sign-in: then the session ends too
            authenticate(session.get().readToken(), needed, ctx, name -> {
                ctx.put(READER, name);
                ctx.put(SESSION, session.get());
                then.run();
            }, () -> {
                sessions.end(cookie.getValue());
                signInAgain(ctx, page, true);
            });
            return;
        }
        if (page && needed == Kind.READ && openOnLoopback && isLoopback(ctx)) {
            then.run();
            return;
        }
        signInAgain(ctx, page, cookie != null);
    }

    /**
     * As {@link #require} for a request that changes state, by a token allowing {@code needed}: signed in by cookie,
     * it must also carry the session's CSRF token ({@value #CSRF_HEADER}, or the form field {@code csrf}), which
     * another site's page cannot know.
     */
    void requireToChange(RoutingContext ctx, Kind needed, Runnable then) {
        require(ctx, needed, false, () -> {
            Session session = ctx.get(SESSION);
            String crossSite = session == null ? null : CrossSite.refusal(ctx.request());
            if (crossSite != null) {
                ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", "refused: posted from another site (" + crossSite + ")").encode());
                return;
            }
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

    private void authenticate(String presented, Kind needed, RoutingContext ctx, Consumer<String> allowed, Runnable refused) {
        storeWorker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            if (r.failed() || r.result().isEmpty()) {
                refused.run();
            } else if (!r.result().get().kind().allows(needed)) {
                forbid(ctx, needed, r.result().get());
            } else {
                ctx.put(ROLE, r.result().get().kind());
                allowed.accept(r.result().get().name());
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
                : "send 'Authorization: Bearer <token>' (qatwatch collector token add NAME --read, --operator or --admin)");
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
        // a paused request's body (a silence) is dropped, not read, so the connection can serve the next request
        ctx.request().resume();
        ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"qatwatch\"")
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).encode());
    }

    private static void forbid(RoutingContext ctx, Kind needed, TokenInfo t) {
        ctx.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", "this needs " + roles(needed) + " token; " + t.name() + " holds "
                        + article(t.kind()) + " token (an admin issues one: qatwatch collector token add NAME --"
                        + needed.label() + ")").encode());
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
        return (k == Kind.READ ? "a " : "an ") + k.label();
    }
}
