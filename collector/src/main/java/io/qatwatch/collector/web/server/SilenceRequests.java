package io.qatwatch.collector.web.server;

import io.qatwatch.collector.web.SilencesApi;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Parses and checks a {@code POST /api/v1/silences} body; every refusal names its field. */
final class SilenceRequests {

    static final Duration LONGEST = Duration.ofDays(90);

    private SilenceRequests() {
    }

    /** A refused request: what is wrong, and with which field. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        private final String field;

        BadRequest(String field, String message) {
            super(message);
            this.field = field;
        }

        String field() {
            return field;
        }
    }

    /**
     * {@code {"rule", "host", "instance", "database", "group", "tag", "comment", "endsAt" | "minutes"}}: at least one matcher,
     * a comment saying why, and an expiry in the future, at most 90 days ahead.
     */
    static SilencesApi.Request parse(Buffer body, Instant now) throws BadRequest {
        JsonObject json;
        try {
            json = body == null || body.length() == 0 ? null : body.toJsonObject();
        } catch (DecodeException | ClassCastException e) {
            throw new BadRequest("$", "body is not a JSON object");
        }
        if (json == null) {
            throw new BadRequest("$", "empty body: send {\"rule\", \"host\", \"instance\", \"database\", \"comment\", \"endsAt\"}");
        }
        String rule = text(json, "rule", 64);
        String host = text(json, "host", 256);
        String instance = text(json, "instance", 256);
        String database = text(json, "database", 256);
        String group = text(json, "group", 128);
        String tag = text(json, "tag", 200);
        if (tag != null && !tag.matches("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}([=:][^,]{1,128})?")) {
            throw new BadRequest("tag", "tag must be key=value (the value may hold '*' and '?') or a bare key, e.g. env=prod");
        }
        if (rule == null && host == null && instance == null && database == null && group == null && tag == null) {
            throw new BadRequest("rule", "give at least one matcher (rule, host, instance, database, group, tag); '*' matches any");
        }
        String comment = text(json, "comment", 512);
        if (comment == null || comment.isBlank()) {
            throw new BadRequest("comment", "say why the alerts are silenced (shown beside them)");
        }
        Instant endsAt;
        if (json.containsKey("minutes")) {
            Object minutes = json.getValue("minutes");
            if (!(minutes instanceof Number n) || n.longValue() < 1) {
                throw new BadRequest("minutes", "must be a whole number of minutes, at least 1");
            }
            endsAt = now.plus(Duration.ofMinutes(n.longValue()));
        } else {
            String at = text(json, "endsAt", 64);
            if (at == null) {
                throw new BadRequest("endsAt", "give endsAt (UTC ISO-8601, e.g. 2026-12-01T07:00:00Z) or minutes");
            }
            try {
                endsAt = Instant.parse(at);
            } catch (DateTimeParseException e) {
                throw new BadRequest("endsAt", "not a UTC ISO-8601 time: " + at);
            }
        }
        if (!endsAt.isAfter(now)) {
            throw new BadRequest("endsAt", "is not in the future");
        }
        if (endsAt.isAfter(now.plus(LONGEST))) {
            throw new BadRequest("endsAt", "is more than 90 days ahead; silences must expire");
        }
        return new SilencesApi.Request(rule, host, instance, database, comment, endsAt, group,
                tag == null ? null : tag.replaceFirst(":", "="));
    }

    private static String text(JsonObject json, String field, int max) throws BadRequest {
        Object v = json.getValue(field);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new BadRequest(field, "must be a string");
        }
        if (s.length() > max) {
            throw new BadRequest(field, "is longer than " + max + " characters");
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw new BadRequest(field, "contains a control character");
            }
        }
        return s.isBlank() ? null : s;
    }
}
