package io.qatwatch.collector.web.server;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Status page sign-ins: a browser that gave a read token to the sign-in form gets a session, named by a random id in
 * an {@code HttpOnly} cookie, that ends when it expires or signs out. Sessions live in this process only (a restart
 * signs everyone out) and are looked up by the id's SHA-256, so the map never holds a usable cookie. The read token
 * is kept to check, on every request, that it has not been revoked since.
 */
final class Sessions {

    /** The cookie's name. */
    static final String COOKIE = "qatwatch_session";
    /** The sign-in form's cookie: its value, keyed with this process's secret, is the form's CSRF token. */
    static final String SIGN_IN_COOKIE = "qatwatch_signin";
    /** More sign-ins than this push out the oldest: a bound on memory whoever posts the form. */
    static final int MAX_SESSIONS = 10_000;

    /** One signed-in browser: who (the read token's name), its token, the CSRF token of its forms, and its end. */
    record Session(String reader, String readToken, String csrf, Instant expiresAt) {
    }

    /** A new session: the cookie value (given to the browser only) and the session it names. */
    record Started(String cookie, Session session) {
    }

    private final Duration lifetime;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> byHash = new ConcurrentHashMap<>();
    private final byte[] signInKey = new byte[32];

    Sessions(Duration lifetime) {
        this.lifetime = lifetime;
        random.nextBytes(signInKey);
    }

    /** A fresh sign-in form: the cookie value the browser keeps, and the form's CSRF token that goes with it. */
    SignInForm signInForm() {
        String cookie = randomToken();
        return new SignInForm(cookie, signInToken(cookie));
    }

    /** The browser's sign-in cookie and the form's hidden field. */
    record SignInForm(String cookie, String csrf) {
    }

    /**
     * Whether {@code presented} is the CSRF token of the sign-in form that set {@code cookie}: another site can
     * neither read the cookie nor compute the token from it (login CSRF signs a victim into the attacker's session).
     */
    boolean signInMatches(String cookie, String presented) {
        return cookie != null && presented != null && MessageDigest.isEqual(signInToken(cookie)
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII), presented.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private String signInToken(String cookie) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(signInKey, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    mac.doFinal(cookie.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 missing from the JDK", e);
        }
    }

    Duration lifetime() {
        return lifetime;
    }

    Started start(String reader, String readToken, Instant now) {
        if (byHash.size() >= MAX_SESSIONS) {
            byHash.entrySet().stream().min(Comparator.comparing(e -> e.getValue().expiresAt()))
                    .ifPresent(oldest -> byHash.remove(oldest.getKey()));
        }
        String cookie = randomToken();
        Session session = new Session(reader, readToken, randomToken(), now.plus(lifetime));
        byHash.put(hash(cookie), session);
        return new Started(cookie, session);
    }

    /** The session the cookie names, when it has not expired; an expired one is forgotten. */
    Optional<Session> find(String cookie, Instant now) {
        if (cookie == null || cookie.isEmpty()) {
            return Optional.empty();
        }
        String key = hash(cookie);
        Session s = byHash.get(key);
        if (s == null) {
            return Optional.empty();
        }
        if (!now.isBefore(s.expiresAt())) {
            byHash.remove(key);
            return Optional.empty();
        }
        return Optional.of(s);
    }

    void end(String cookie) {
        if (cookie != null) {
            byHash.remove(hash(cookie));
        }
    }

    /** Whether {@code presented} is the session's CSRF token, compared in constant time. */
    static boolean csrfMatches(Session session, String presented) {
        return presented != null && MessageDigest.isEqual(session.csrf().getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                presented.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private String randomToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String hash(String cookie) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(cookie.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
