package io.qatwatch.tds;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * What one simulated SQL Server answers: responders keyed by a marker that appears in the batch text (the
 * agent's query file name, e.g. {@code backup-history.sql}, which each query carries in its header), plus
 * the product version sent at login and, optionally, the one login it accepts.
 *
 * <p>Fixture file format (JSON):
 * <pre>
 * { "scenario": "sql2019", "productVersion": "15.0.4375.4",
 *   "login": { "user": "qatwatch", "password": "secret" },
 *   "queries": {
 *     "server-properties.sql": { "columns": ["product_version nvarchar(128)", ...], "rows": [["15.0.4375.4", ...]] },
 *     "accelerator-status.sql": { "error": { "number": 208, "severity": 16, "message": "Invalid object name ..." } },
 *     "database-encryption.sql": { "errors": [ { "number": 300, "severity": 14, "message": "... permission was denied ..." },
 *                                              { "number": 297, "severity": 16, "message": "The user does not have ..." } ] },
 *     "running-backups.sql": { "delayMillis": 3000, "columns": [...], "rows": [] },
 *     "restore-history.sql": { "polls": [ { "columns": [...], "rows": [] }, { "columns": [...], "rows": [[...]] } ] } } }
 * </pre>
 * {@code polls}: one answer per batch in turn, the last repeated: a server as successive polls see it.
 * Values: numbers, strings, booleans and null; datetime as local ISO text ({@code 2026-11-30T00:30:02.123}),
 * uniqueidentifier as text, varbinary as {@code 0x...} hex.
 */
public final class Scenario {

    private static final Pattern SELECT_ONE = Pattern.compile("\\s*select\\s+1\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final String name;
    private final Map<String, TdsResponder> responders = new LinkedHashMap<>();
    private String productVersion = "16.0.4135.4";
    private String acceptedUser;
    private String acceptedPassword;

    private Scenario(String name) {
        this.name = name;
    }

    /** An empty scenario: it answers {@code SELECT 1} and nothing else until responders are added. */
    public static Scenario named(String name) {
        return new Scenario(name);
    }

    /** Loads a fixture file from the classpath, e.g. {@code fromResource("/sqlserver/scenarios/sql2019.json")}. */
    public static Scenario fromResource(String resource) {
        try (InputStream in = Scenario.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture on the classpath at " + resource);
            }
            return fromJson(JSON.readTree(in), resource);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fixture " + resource, e);
        }
    }

    /** Loads a fixture file from disk. */
    public static Scenario fromFile(Path file) {
        try {
            return fromJson(JSON.readTree(Files.readAllBytes(file)), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fixture " + file, e);
        }
    }

    private static Scenario fromJson(JsonNode root, String source) {
        Scenario s = named(root.path("scenario").asText(source));
        if (root.hasNonNull("productVersion")) {
            s.productVersion(root.get("productVersion").asText());
        }
        JsonNode login = root.path("login");
        if (login.isObject()) {
            s.acceptOnly(login.path("user").asText(), login.path("password").asText());
        }
        Iterator<Map.Entry<String, JsonNode>> queries = root.path("queries").fields();
        while (queries.hasNext()) {
            Map.Entry<String, JsonNode> q = queries.next();
            try {
                if (q.getValue().has("polls")) {
                    s.answer(q.getKey(), polls(q.getValue().get("polls")));
                } else {
                    s.answer(q.getKey(), parseResponse(q.getValue()));
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(source + ": queries." + q.getKey() + ": " + e.getMessage(), e);
            }
        }
        return s;
    }

    /** Answers the first batch with the first response, the next with the next, and every later one with the last. */
    private static TdsResponder polls(JsonNode polls) {
        List<TdsResponse> answers = new ArrayList<>();
        polls.forEach(p -> answers.add(parseResponse(p)));
        if (answers.isEmpty()) {
            throw new IllegalArgumentException("polls is empty");
        }
        AtomicInteger asked = new AtomicInteger();
        return sql -> answers.get(Math.min(asked.getAndIncrement(), answers.size() - 1));
    }

    private static TdsResponse parseResponse(JsonNode node) {
        TdsResponse response;
        if (node.has("error")) {
            response = serverError(node.get("error"));
        } else if (node.has("errors")) {
            List<TdsResponse.ServerError> errors = new ArrayList<>();
            node.get("errors").forEach(e -> errors.add(serverError(e)));
            response = new TdsResponse.ServerErrors(errors);
        } else {
            List<Column> columns = new ArrayList<>();
            node.path("columns").forEach(c -> columns.add(Column.parse(c.asText())));
            List<List<Object>> rows = new ArrayList<>();
            for (JsonNode r : node.path("rows")) {
                if (r.size() != columns.size()) {
                    throw new IllegalArgumentException("row " + r + " has " + r.size() + " values for " + columns.size() + " columns");
                }
                List<Object> row = new ArrayList<>();
                r.forEach(v -> row.add(v.isNull() ? null : v.isBoolean() ? v.booleanValue() : v.isNumber() ? v.numberValue() : v.asText()));
                rows.add(row);
            }
            response = new TdsResponse.Rows(columns, rows);
        }
        if (node.has("delayMillis")) {
            response = new TdsResponse.Delayed(Duration.ofMillis(node.get("delayMillis").asLong()), response);
        }
        return response;
    }

    private static TdsResponse.ServerError serverError(JsonNode e) {
        return new TdsResponse.ServerError(e.path("number").asInt(), e.path("state").asInt(1),
                e.path("severity").asInt(16), e.path("message").asText());
    }

    /** The version reported in PRELOGIN and LOGINACK, e.g. {@code 15.0.4375.4}. */
    public Scenario productVersion(String version) {
        this.productVersion = version;
        return this;
    }

    /** Rejects every login except this user with this password (Msg 18456), as a real server would. */
    public Scenario acceptOnly(String user, String password) {
        this.acceptedUser = user;
        this.acceptedPassword = password;
        return this;
    }

    /** Answers every batch whose text contains {@code marker} with {@code responder}; the longest matching marker wins. */
    public Scenario answer(String marker, TdsResponder responder) {
        responders.put(marker, responder);
        return this;
    }

    /** Answers every batch whose text contains {@code marker} with a fixed response. */
    public Scenario answer(String marker, TdsResponse response) {
        return answer(marker, sql -> response);
    }

    public String name() {
        return name;
    }

    public String productVersion() {
        return productVersion;
    }

    /** Whether this user and password may log in. */
    boolean accepts(String user, String password) {
        return acceptedUser == null || (acceptedUser.equals(user) && acceptedPassword.equals(password));
    }

    /** The marker that answers this batch: the longest one found in its text; empty when none is. */
    Optional<String> markerOf(String sql) {
        return responders.keySet().stream().filter(sql::contains).max(Comparator.comparingInt(String::length));
    }

    /** The markers this scenario answers, in the order they were added. */
    public Set<String> markers() {
        return Collections.unmodifiableSet(responders.keySet());
    }

    /** The login this scenario accepts, or null when it accepts any. */
    public String acceptedUser() {
        return acceptedUser;
    }

    /** The password of the login this scenario accepts, or null when it accepts any. */
    public String acceptedPassword() {
        return acceptedPassword;
    }

    /** The answer to one batch: the responder of the longest marker found in the text, {@code SELECT 1}, or Msg 208. */
    TdsResponse respond(String sql) {
        Optional<String> marker = markerOf(sql);
        if (marker.isPresent()) {
            return responders.get(marker.get()).respond(sql);
        }
        if (SELECT_ONE.matcher(sql).matches()) {
            return TdsResponse.rows(List.of(Column.col("", "int")), List.of(List.of(1)));
        }
        String first = sql.strip().lines().findFirst().orElse("").toLowerCase(Locale.ROOT);
        return new TdsResponse.ServerError(208, 1, 16, "Invalid object name: scenario '" + name
                + "' has no answer for this batch (" + first + "); markers: " + responders.keySet());
    }
}
