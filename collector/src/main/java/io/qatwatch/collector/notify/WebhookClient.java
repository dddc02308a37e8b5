package io.qatwatch.collector.notify;

import io.qatwatch.collector.dispatch.Delivery;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * POSTs a JSON payload to a webhook and says how it went: 2xx delivered; 429 and 5xx retryable with the
 * server's Retry-After; other 4xx not retryable; timeouts and connection errors retryable. The URL is a
 * secret and never appears in an error.
 */
public final class WebhookClient {

    private final WebClient client;
    private final String url;
    private final Duration timeout;
    private final String bearerToken;

    public WebhookClient(WebClient client, String url, Duration timeout, String bearerToken) {
        this.client = client;
        this.url = url;
        this.timeout = timeout;
        this.bearerToken = bearerToken;
    }

    /** Posts {@code body}; never a failed future. */
    public Future<Delivery> post(String channel, JsonObject body, Instant now) {
        return post(channel, body, now, r -> judge(channel, r, now));
    }

    /**
     * Posts {@code body} and lets {@code answer} read the response (an API that answers the message's id, or says
     * "not ok" with 200); timeouts and connection errors are retryable failures. Never a failed future.
     */
    public Future<Delivery> post(String channel, JsonObject body, Instant now,
            java.util.function.Function<HttpResponse<Buffer>, Delivery> answer) {
        var request = client.postAbs(url).timeout(timeout.toMillis());
        if (bearerToken != null) {
            request.bearerTokenAuthentication(bearerToken);
        }
        return request.sendJsonObject(body)
                .map(answer)
                .otherwise(e -> Delivery.failed(true, null, channel + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + redact(e.getMessage()))));
    }

    /** Webhook URLs carry their token in the path or query: keep both out of messages. */
    private String redact(String message) {
        String out = message.replace(url, "<webhook url>");
        java.net.URI u = java.net.URI.create(url);
        String pathAndQuery = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
        if (pathAndQuery.length() > 1) {
            out = out.replace(pathAndQuery, "<webhook path>");
        }
        return out;
    }

    /** 2xx delivered; 408, 429 and 5xx retryable (with Retry-After); other statuses not. */
    public static Delivery judge(String channel, HttpResponse<Buffer> r, Instant now) {
        int s = r.statusCode();
        if (s >= 200 && s < 300) {
            return Delivery.ok();
        }
        boolean retry = s == 429 || s >= 500 || s == 408;
        String body = r.bodyAsString() == null ? "" : r.bodyAsString();
        return Delivery.failed(retry, retryAfter(r.headers(), now),
                channel + ": HTTP " + s + (body.isBlank() ? "" : " " + body.substring(0, Math.min(200, body.length()))));
    }

    /** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
    static Duration retryAfter(MultiMap headers, Instant now) {
        String v = headers.get("Retry-After");
        if (v == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            try {
                Instant at = ZonedDateTime.parse(v.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
            } catch (DateTimeParseException ex) {
                return null;
            }
        }
    }
}
