package io.qatwatch.collector.web.server;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.status.SignInPage;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code GET/POST /login} and {@code POST /logout}: a person opens the status page from another machine by giving a
 * read token once; the answer sets the session cookie ({@code HttpOnly}, {@code SameSite=Strict}, {@code Secure}
 * with TLS, expiring with the session). Forms posted from another site are refused ({@link CrossSite}), and each form
 * carries a CSRF token: the sign-in form's goes with a cookie of its own, sign-out's is the session's.
 */
final class SignIn {

    /**
     * Headers for every page: not cached, not framed, nothing loaded from elsewhere, forms posted here only. The
     * referrer policy {@code same-origin} tells nothing to other sites yet keeps the {@code Origin} of the page's own
     * forms ({@code no-referrer} made Chromium post them with {@code Origin: null}).
     */
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
        form(ctx, 200, message, false);
    }

    /** The sign-in form with a fresh CSRF token and its cookie. */
    private void form(RoutingContext ctx, int status, String message, boolean error) {
        Sessions.SignInForm form = sessions.signInForm();
        ctx.response().addCookie(Cookie.cookie(Sessions.SIGN_IN_COOKIE, form.cookie()).setPath("/login").setHttpOnly(true)
                .setSecure(secure).setSameSite(CookieSameSite.STRICT).setMaxAge(sessions.lifetime().toSeconds()));
        html(ctx.response(), status).end(SignInPage.render(message, error, notice, form.csrf()));
    }

    /** POST /login with the form field {@code token}: a read token starts a session; anything else gets the form again. */
    void signIn(RoutingContext ctx) {
        String crossSite = CrossSite.refusal(ctx.request());
        if (crossSite != null) {
            form(ctx, 403, "This form was posted from another site (" + crossSite + "): refused.", true);
            return;
        }
        Cookie formCookie = ctx.request().getCookie(Sessions.SIGN_IN_COOKIE);
        if (!sessions.signInMatches(formCookie == null ? null : formCookie.getValue(), ctx.request().getFormAttribute("csrf"))) {
            form(ctx, 403, "This sign-in form is not one this collector gave out (or it is from before a restart): "
                    + "sign in again with the form below.", true);
            return;
        }
        String token = ctx.request().getFormAttribute("token");
        if (token == null || token.isBlank()) {
            form(ctx, 400, "Give a read token.", true);
            return;
        }
        String presented = token.trim();
        worker.executeBlocking(() -> tokens.authenticate(presented), false).onComplete(r -> {
            Optional<TokenStore.TokenInfo> info = r.succeeded() ? r.result() : Optional.empty();
            if (info.isEmpty() || !info.get().kind().allows(TokenStore.Kind.READ)) {
                form(ctx, 401, info.isPresent()
                        ? "That is an agent token: the status page takes a read, operator or admin token (qatwatch collector token add NAME --read)."
                        : "That is not an active read token. Issue one on the collector with: qatwatch collector token add NAME --read",
                        true);
                return;
            }
            Sessions.Started started = sessions.start(info.get().name(), presented, clock.instant());
            ctx.response().addCookie(cookie(started.cookie(), sessions.lifetime().toSeconds()));
            ctx.response().addCookie(Cookie.cookie(Sessions.SIGN_IN_COOKIE, "").setPath("/login").setMaxAge(0));
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
        if (CrossSite.refusal(ctx.request()) != null || !Sessions.csrfMatches(session.get(), ReadAccess.csrfOf(ctx))) {
            form(ctx, 403, "Signing out needs the form of the status page itself: refused.", true);
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

    static HttpServerResponse html(HttpServerResponse response, int status) {
        return response.setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8")
                .putHeader("Cache-Control", "no-store").putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Frame-Options", "DENY").putHeader("Referrer-Policy", "same-origin");
    }
}
