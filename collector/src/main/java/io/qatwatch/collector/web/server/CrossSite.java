package io.qatwatch.collector.web.server;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.util.Locale;

/**
 * Decides whether a form post came from a page of this server, as a browser says it: {@code Sec-Fetch-Site} when it
 * sends one (every current browser does), else its {@code Origin}. {@code Origin: null} (what a page that asks for
 * no referrer sends) is never this server. A request with neither is not a browser's: the form's CSRF token decides.
 */
final class CrossSite {

    private CrossSite() {
    }

    /** Null when {@code request} may be a post of this server's own form; else why not, for the refusal. */
    static String refusal(HttpServerRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return "same-origin".equalsIgnoreCase(site.trim()) ? null : "the browser says it came from a " + site.trim() + " page";
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return null;
        }
        return sameOrigin(origin, request) ? null : "its Origin is " + origin;
    }

    /** {@code origin} names the host and port the request was sent to. */
    private static boolean sameOrigin(String origin, HttpServerRequest request) {
        // the authority the request was sent to: Host in HTTP/1.1, :authority in HTTP/2
        HostAndPort authority = request.authority();
        try {
            URI uri = URI.create(origin);
            if (authority == null || uri.getHost() == null) {
                return false;
            }
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            int requested = authority.port() != -1 ? authority.port() : request.isSSL() ? 443 : 80;
            return uri.getHost().toLowerCase(Locale.ROOT).equals(authority.host().toLowerCase(Locale.ROOT)) && port == requested;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
