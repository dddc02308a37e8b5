package io.qatwatch.collector.influx;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * {@code POST /write} of InfluxDB 1.x (database, retention policy, user/password), for servers older than 1.8
 * that have no {@code /api/v2/write}. Credentials go in the Authorization header, never in the URL.
 */
public final class InfluxV1Writer implements InfluxWriter {

    private final URI writeUri;
    private final String database;
    private final String authorization;
    private final Duration timeout;
    private final HttpClient http;

    public InfluxV1Writer(String url, String database, String retentionPolicy, String user, char[] password,
            Duration timeout) {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        String query = "db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&precision=ns"
                + (retentionPolicy == null || retentionPolicy.isBlank() ? ""
                : "&rp=" + URLEncoder.encode(retentionPolicy, StandardCharsets.UTF_8));
        this.writeUri = URI.create(base + "/write?" + query);
        this.database = database;
        this.authorization = user == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + (password == null ? "" : new String(password))).getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public void write(List<String> lines) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(writeUri).timeout(timeout)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", lines), StandardCharsets.UTF_8));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status == 204 || status == 200) {
            return;
        }
        String body = response.body() == null ? "" : response.body().strip();
        if (body.length() > 300) {
            body = body.substring(0, 300) + "…";
        }
        String message = "HTTP " + status + " from " + describe() + ": " + body;
        if (status == 400 || status == 413 || status == 422) {
            throw new RejectedException(message);
        }
        throw new IOException(message);
    }

    @Override
    public String describe() {
        return writeUri.getScheme() + "://" + writeUri.getAuthority() + " (v1, database " + database + ")";
    }
}
