package io.qatwatch.agent.ship;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Posts reports to the collector's {@code POST /api/v1/reports} (DESIGN.md Contract 2) with the agent's
 * bearer token, over HTTPS with the configured CA file or the system trust store.
 */
public final class CollectorClient implements AutoCloseable {

    /** Where the collector takes reports, relative to its base URL. */
    public static final String REPORTS_PATH = "/api/v1/reports";

    private final HttpClient http;
    private final String reportsUri;
    private final String authorization;
    private final Duration requestTimeout;

    /** The collector's answer: status, {@code Retry-After}, body. */
    public record Answer(int status, String retryAfter, String body) {
    }

    /**
     * @param baseUrl the collector, e.g. {@code https://collector.example.org:8470}
     * @param token   the agent's bearer token; kept only in the Authorization header, never logged
     * @param caFile  PEM file with the CA(s) to trust, or null for the system trust store
     */
    public CollectorClient(Vertx vertx, URI baseUrl, String token, Path caFile, Duration connectTimeout, Duration requestTimeout) {
        HttpClientOptions options = new HttpClientOptions()
                .setConnectTimeout((int) connectTimeout.toMillis())
                .setIdleTimeout((int) Math.max(1, requestTimeout.toSeconds()))
                .setKeepAlive(true);
        if ("https".equalsIgnoreCase(baseUrl.getScheme())) {
            options.setSsl(true).setVerifyHost(true);
            if (caFile != null) {
                options.setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString()));
            }
        }
        // No pool cleaner: it would wake the event loop every second; the idle timeout above closes the connection.
        this.http = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(1).setCleanerPeriod(0));
        String base = baseUrl.toString();
        this.reportsUri = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + REPORTS_PATH;
        this.authorization = "Bearer " + token;
        this.requestTimeout = requestTimeout;
    }

    /** Sends one report body; {@code gzipped} says whether it is already gzip-compressed. Fails only when no answer came. */
    public Future<Answer> post(byte[] body, boolean gzipped) {
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(reportsUri)
                .setTimeout(requestTimeout.toMillis())
                .putHeader(HttpHeaders.AUTHORIZATION, authorization)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.ACCEPT, "application/json");
        if (gzipped) {
            request.putHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        return http.request(request)
                .compose(req -> req.send(Buffer.buffer(body)))
                .compose(resp -> resp.body().map(b -> new Answer(resp.statusCode(), resp.getHeader("Retry-After"), b.toString())));
    }

    public String reportsUri() {
        return reportsUri;
    }

    @Override
    public void close() {
        http.close();
    }

    @Override
    public String toString() {
        return "CollectorClient[" + reportsUri + "]";
    }
}
