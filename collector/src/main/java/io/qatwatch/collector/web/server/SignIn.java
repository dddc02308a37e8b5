package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.status.SignInPage;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET/POST /login} and {@code POST /logout}: a person opens the status page from another machine by giving a
 * read token once; the answer sets the session cookie ({@code HttpOnly}, {@code SameSite=Strict}, {@code Secure}
 * with TLS, expiring with the session). Forms posted from another site are refused by their {@code Origin}.
 */
final class SignIn {

    /** Headers for every page: not cached, not framed, nothing loaded from elsewhere, forms posted here only. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final WorkerExecutor worker;
    private final TokenStore tokens;
    private final Sessions sessions;
    private final Clock clock;
    private final boolean secure;
    private final String notice;

    SignIn(WorkerExecutor worker, TokenStore tokens, Sessions sessions, Clock clock, boolean secure, String notice) {
        this.worker = worker;
        this.tokens = tokens;
        this.sessions = sessions;
        this.clock = clock;
        this.secure = secure;
        this.notice = notice;
    }

    /** GET /login: the form, with why the browser is here. */
    void page(RoutingContext ctx) {
        String message = ctx.queryParams().contains("expired") ? "Your session expired or ended: sign in again."
                : ctx.queryParams().contains("signedout") ? "Signed out." : null;
        html(ctx.response(), 200).end(SignInPage.render(message, false, notice));
    }

    /** POST /login with the form field {@code token}: a read token starts a session; anything else gets the form again. */
    void signIn(RoutingContext ctx) {
        if (!sameOrigin(ctx)) {
            html(ctx.response(), 403).end(SignInPage.render("This form was posted from another site: refused.", true, notice));
            return;
        }
        String token = ctx.request().getFormAttribute("token");
        if (token == null || token.isBlank()) {
            html(ctx.response(), 400).end(SignInPage.render("Give a read token.", true, notice));
            return;
        }
        String presented = token.trim();
        worker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            Optional<TokenStore.TokenInfo> info = r.succeeded() ? r.result() : Optional.empty();
            if (info.isEmpty() || !info.get().kind().allows(TokenStore.Kind.READ)) {
                html(ctx.response(), 401).end(SignInPage.render(info.isPresent()
                        ? "That is an agent token: the status page takes a read, operator or admin token (qatwatch collector token add NAME --read)."
                        : "That is not an active read token. Issue one on the collector with: qatwatch collector token add NAME --read",
                        true, notice));
                return;
            }
            Sessions.Started started = sessions.start(info.get().name(), presented, clock.instant());
            ctx.response().addCookie(cookie(started.cookie(), sessions.lifetime().toSeconds()));
            ctx.response().setStatusCode(303).putHeader("Location", "/").putHeader("Cache-Control", "no-store").end();
        });
    }

    /** POST /logout with the session's CSRF token: ends the session and clears the cookie. */
    void signOut(RoutingContext ctx) {
        Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
        Optional<Sessions.Session> session = cookie == null ? Optional.empty() : sessions.find(cookie.getValue(), clock.instant());
        if (session.isEmpty()) {
            ctx.response().setStatusCode(303).putHeader("Location", "/login").end();
            return;
        }
        if (!sameOrigin(ctx) || !Sessions.csrfMatches(session.get(), ReadAccess.csrfOf(ctx))) {
            html(ctx.response(), 403).end(SignInPage.render("Signing out needs the form of the status page itself: refused.",
                    true, notice));
            return;
        }
        sessions.end(cookie.getValue());
        ctx.response().addCookie(cookie("", 0));
        ctx.response().setStatusCode(303).putHeader("Location", "/login?signedout=1").end();
    }

    private Cookie cookie(String value, long maxAgeSeconds) {
        return Cookie.cookie(Sessions.COOKIE, value).setPath("/").setHttpOnly(true).setSecure(secure)
                .setSameSite(CookieSameSite.STRICT).setMaxAge(maxAgeSeconds);
    }

    /** A form posted by a page of this server: its {@code Origin}, when the browser sends one, names this host. */
    static boolean sameOrigin(RoutingContext ctx) {
        String origin = ctx.request().getHeader("Origin");
        if (origin == null) {
            return true;
        }
        // the authority the request was sent to: Host in HTTP/1.1, :authority in HTTP/2
        HostAndPort authority = ctx.request().authority();
        try {
            URI uri = URI.create(origin);
            if (authority == null || uri.getHost() == null) {
                return false;
            }
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            int requested = authority.port() != -1 ? authority.port() : ctx.request().isSSL() ? 443 : 80;
            return uri.getHost().toLowerCase(Locale.ROOT).equals(authority.host().toLowerCase(Locale.ROOT)) && port == requested;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static HttpServerResponse html(HttpServerResponse response, int status) {
        return response.setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8")
                .putHeader("Cache-Control", "no-store").putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Frame-Options", "DENY").putHeader("Referrer-Policy", "no-referrer");
    }
}
