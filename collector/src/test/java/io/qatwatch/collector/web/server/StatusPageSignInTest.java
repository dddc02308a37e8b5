package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.MovableClock;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.SelfSignedCertificate;
import io.qatwatch.collector.web.StatusPageConfig;
import io.qatwatch.collector.web.TlsConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page opened from a browser that is not on loopback (here: {@code statusPage.openOnLoopback: false}),
 * over real HTTP with the JDK's client, following no redirect and keeping cookies by hand as a browser would.
 */
class StatusPageSignInTest {

    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @TempDir
    Path data;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-30T09:00:00Z"));
    private final HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private RunningCollector running;
    private String base;

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
    }

    private void start(CollectorConfig config) throws Exception {
        CollectorConfig closed = config.withStatusPage(new StatusPageConfig("http://127.0.0.1:8470/", null, 60, false));
        running = RunningCollector.withAlertStage(closed, data, clock);
        base = (config.tls().enabled() ? "https" : "http") + "://127.0.0.1:" + running.port();
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (cookie != null) {
            r.header("Cookie", cookie);
        }
        return browser.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postForm(String path, String cookie, String origin, String... fields) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            body.append(body.isEmpty() ? "" : "&").append(fields[i]).append('=').append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookie != null) {
            r.header("Cookie", cookie);
        }
        if (origin != null) {
            r.header("Origin", origin);
        }
        return browser.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> silence(String cookie, String csrf, String bearer) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + "/api/v1/silences"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"host\":\"sql01\",\"comment\":\"migration\",\"minutes\":60}"));
        if (cookie != null) {
            r.header("Cookie", cookie);
        }
        if (csrf != null) {
            r.header("X-CSRF-Token", csrf);
        }
        if (bearer != null) {
            r.header("Authorization", "Bearer " + bearer);
        }
        return browser.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The session cookie a response sets, as the browser would send it back ({@code name=value}). */
    private static String sessionCookie(HttpResponse<String> response) {
        List<String> all = response.headers().allValues("Set-Cookie");
        String set = all.stream().filter(c -> c.startsWith("qatwatch_session=")).findFirst()
                .orElseGet(() -> all.stream().findFirst().orElseThrow(() -> new AssertionError("no Set-Cookie")));
        return set.substring(0, set.indexOf(';'));
    }

    /** Opens the sign-in form as a browser does: its cookie ({@code name=value}) and its CSRF token. */
    private String[] signInForm() throws Exception {
        HttpResponse<String> form = get("/login", null);
        assertThat(form.statusCode()).isEqualTo(200);
        return new String[] {sessionCookie(form), csrfOf(form.body())};
    }

    /** Posts the sign-in form with {@code token}, as the browser that opened it. */
    private HttpResponse<String> postSignIn(String origin, String token) throws Exception {
        String[] form = signInForm();
        return postForm("/login", form[0], origin, "csrf", form[1], "token", token);
    }

    private String signIn(String token) throws Exception {
        HttpResponse<String> signedIn = postSignIn(base, token);
        assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(303);
        assertThat(signedIn.headers().firstValue("Location")).hasValue("/");
        return sessionCookie(signedIn);
    }

    @Test
    void signInSeeThePageSignOutAndTheCookieIsDeadAfterwards() throws Exception {
        start(CollectorConfig.defaults());
        String read = running.token("grafana", TokenStore.Kind.READ);

        HttpResponse<String> anonymous = get("/", null);
        assertThat(anonymous.statusCode()).isEqualTo(303);
        assertThat(anonymous.headers().firstValue("Location")).hasValue("/login");
        HttpResponse<String> form = get("/login", null);
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("<form method=\"post\" action=\"/login\">", "name=\"token\" type=\"password\"",
                        "name=\"csrf\"")
                .doesNotContain("<script");
        assertThat(form.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("frame-ancestors 'none'", "form-action 'self'"));

        HttpResponse<String> signedIn = postSignIn(base, read);
        assertThat(signedIn.statusCode()).isEqualTo(303);
        String setCookie = signedIn.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("qatwatch_session="))
                .findFirst().orElseThrow();
        assertThat(setCookie).startsWith("qatwatch_session=").containsIgnoringCase("HttpOnly")
                .contains("SameSite=Strict", "Path=/", "Max-Age=3600").doesNotContainIgnoringCase("Secure");
        String cookie = sessionCookie(signedIn);

        HttpResponse<String> page = get("/", cookie);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("signed in as grafana", "action=\"/logout\"");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(get("/api/v1/fleet", cookie).statusCode()).as("the API reads with the cookie too").isEqualTo(200);
        String csrf = csrfOf(page.body());

        HttpResponse<String> forged = postForm("/logout", cookie, base);
        assertThat(forged.statusCode()).as("sign-out without the form's CSRF token").isEqualTo(403);
        assertThat(get("/", cookie).statusCode()).as("still signed in").isEqualTo(200);

        HttpResponse<String> out = postForm("/logout", cookie, base, "csrf", csrf);
        assertThat(out.statusCode()).isEqualTo(303);
        assertThat(out.headers().firstValue("Location")).hasValue("/login?signedout=1");
        assertThat(out.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("qatwatch_session=").contains("Max-Age=0"));
        HttpResponse<String> after = get("/", cookie);
        assertThat(after.statusCode()).isEqualTo(303);
        assertThat(after.headers().firstValue("Location")).hasValue("/login?expired=1");
        assertThat(get("/login?expired=1", null).body()).contains("Your session expired or ended: sign in again.");
        assertThat(get("/api/v1/fleet", cookie).statusCode()).isEqualTo(401);
    }

    @Test
    void aWrongTokenOrAnAgentTokenIsRefusedWithTheFormAgain() throws Exception {
        start(CollectorConfig.defaults());
        String agent = running.token("sql01", TokenStore.Kind.AGENT);
        HttpResponse<String> wrong = postSignIn(base, "qw_000000000000_" + "x".repeat(43));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("That is not an active read token", "token add NAME --read");
        assertThat(wrong.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("qatwatch_session="));
        HttpResponse<String> agentToken = postSignIn(base, agent);
        assertThat(agentToken.statusCode()).isEqualTo(401);
        assertThat(agentToken.body()).contains("That is an agent token");
    }

    @Test
    void anExpiredSessionSendsTheBrowserBackToTheSignInPage() throws Exception {
        start(CollectorConfig.defaults());
        String cookie = signIn(running.token("grafana", TokenStore.Kind.READ));
        assertThat(get("/", cookie).statusCode()).isEqualTo(200);
        clock.now.set(clock.now.get().plus(Duration.ofMinutes(59)));
        assertThat(get("/", cookie).statusCode()).isEqualTo(200);
        clock.now.set(clock.now.get().plus(Duration.ofMinutes(2)));
        HttpResponse<String> expired = get("/", cookie);
        assertThat(expired.statusCode()).isEqualTo(303);
        assertThat(expired.headers().firstValue("Location")).hasValue("/login?expired=1");
    }

    @Test
    void requestsThatChangeStateWithTheCookieNeedTheCsrfTokenBearerTokensDoNot() throws Exception {
        start(CollectorConfig.defaults());
        String reader = running.token("grafana", TokenStore.Kind.READ);
        String readCookie = signIn(reader);
        HttpResponse<String> byReader = silence(readCookie, csrfOf(get("/", readCookie).body()), null);
        assertThat(byReader.statusCode()).as("a read session may look, not silence").isEqualTo(403);
        assertThat(byReader.body()).contains("an operator or admin token");
        String read = running.token("oncall", TokenStore.Kind.OPERATOR);
        String cookie = signIn(read);
        String csrf = csrfOf(get("/", cookie).body());

        HttpResponse<String> withoutCsrf = silence(cookie, null, null);
        assertThat(withoutCsrf.statusCode()).isEqualTo(403);
        assertThat(withoutCsrf.body()).contains("CSRF token", "X-CSRF-Token");
        assertThat(silence(cookie, "not-the-token", null).statusCode()).isEqualTo(403);
        HttpResponse<String> withCsrf = silence(cookie, csrf, null);
        assertThat(withCsrf.statusCode()).as(withCsrf.body()).isEqualTo(201);
        assertThat(silence(null, null, read).statusCode()).as("a Bearer token needs no CSRF token").isEqualTo(201);
        assertThat(silence(null, null, null).statusCode()).isEqualTo(401);

        HttpResponse<String> crossSite = postSignIn("https://evil.example", read);
        assertThat(crossSite.statusCode()).as("a sign-in form posted from another site").isEqualTo(403);
        assertThat(crossSite.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("qatwatch_session="));
        HttpResponse<String> noReferrer = postSignIn("null", read);
        assertThat(noReferrer.statusCode()).as("Origin: null is what a hostile page asking for no referrer sends").isEqualTo(403);
        HttpResponse<String> withoutForm = postForm("/login", null, base, "token", read);
        assertThat(withoutForm.statusCode()).as("a sign-in without the form's cookie and CSRF token").isEqualTo(403);
        assertThat(withoutForm.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("qatwatch_session="));
    }

    @Test
    void overTlsTheCookieIsSecure() throws Exception {
        SelfSignedCertificate pem = SelfSignedCertificate.in(data);
        Path cert = pem.cert();
        start(CollectorConfig.defaults().withTls(new TlsConfig(cert, pem.key())));

        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (var in = java.nio.file.Files.newInputStream(cert)) {
            trust.setCertificateEntry("collector", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(tls).followRedirects(HttpClient.Redirect.NEVER).build();

        String read = running.token("grafana", TokenStore.Kind.READ);
        HttpResponse<String> form = https.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> signedIn = https.send(HttpRequest.newBuilder(URI.create(base + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", sessionCookie(form))
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + csrfOf(form.body()) + "&token=" + read)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).isEqualTo(303);
        assertThat(signedIn.headers().allValues("Set-Cookie")).filteredOn(c -> c.startsWith("qatwatch_session=")).singleElement().satisfies(c ->
                assertThat(List.of(c.toLowerCase(java.util.Locale.ROOT).split(";\\s*"))).contains("secure", "httponly", "samesite=strict"));
    }

    private static String csrfOf(String page) {
        Matcher m = CSRF.matcher(page);
        assertThat(m.find()).as("the page has a sign-out form with its CSRF token").isTrue();
        return m.group(1);
    }
}
