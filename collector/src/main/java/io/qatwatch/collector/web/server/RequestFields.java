package io.qatwatch.collector.web.server;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The fields of a JSON request body that people send (silences, acknowledgements, notes); each refusal names its field. */
final class RequestFields {

    private RequestFields() {
    }

    /** A refused request: what is wrong, and with which field ({@code $} for the body as a whole). */
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

    /** The body as a JSON object; an empty body is {@code {}} when {@code emptyMessage} is null, else refused with it. */
    static JsonObject object(Buffer body, String emptyMessage) throws BadRequest {
        if (body == null || body.length() == 0) {
            if (emptyMessage == null) {
                return new JsonObject();
            }
            throw new BadRequest("$", emptyMessage);
        }
        try {
            return body.toJsonObject();
        } catch (DecodeException | ClassCastException e) {
            throw new BadRequest("$", "body is not a JSON object");
        }
    }

    /** The most characters (Unicode code points) a note or an acknowledgement's note holds. */
    static final int MAX_NOTE = 2000;

    /**
     * A note (a note's {@code text}, an acknowledgement's {@code note}), as docs/collector.md states: CR LF and lone CR
     * become LF; then at most {@value #MAX_NOTE} code points; LF is the only control character (none of U+0000–U+001F,
     * U+007F–U+009F otherwise), and neither U+2028 nor U+2029 (line breaks that chat formats and scripts treat
     * differently from LF), nor a lone surrogate. Blank is null; the ends are stripped.
     */
    static String note(JsonObject json, String field) throws BadRequest {
        Object v = json.getValue(field);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String raw)) {
            throw new BadRequest(field, "must be a string");
        }
        String s = raw.replace("\r\n", "\n").replace('\r', '\n');
        int points = s.codePointCount(0, s.length());
        if (points > MAX_NOTE) {
            throw new BadRequest(field, "is " + points + " characters long; a note holds at most " + MAX_NOTE);
        }
        int at = 1;
        for (int i = 0; i < s.length(); at++) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isISOControl(c) && c != '\n') {
                throw new BadRequest(field, String.format(java.util.Locale.ROOT,
                        "contains the control character U+%04X at character %d; only line feeds (U+000A) may break a note", c, at));
            }
            if (c == 0x2028 || c == 0x2029) {
                throw new BadRequest(field, String.format(java.util.Locale.ROOT,
                        "contains U+%04X at character %d; break a note's lines with line feeds (U+000A)", c, at));
            }
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                throw new BadRequest(field, "contains a lone UTF-16 surrogate at character " + at);
            }
        }
        return s.isBlank() ? null : s.strip();
    }

    /**
     * A string field of at most {@code max} characters without control characters; null when absent or blank.
     * {@code multiline}: a free text, whose newlines are kept and whose ends are stripped.
     */
    static String text(JsonObject json, String field, int max, boolean multiline) throws BadRequest {
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
            char c = s.charAt(i);
            if (Character.isISOControl(c) && !(multiline && c == '\n')) {
                throw new BadRequest(field, "contains a control character");
            }
        }
        if (s.isBlank()) {
            return null;
        }
        return multiline ? s.strip() : s;
    }

    /** {@code now} plus the body's {@code minutes} (a whole number, at least 1); null when the body has none. */
    static Instant minutesFrom(JsonObject json, Instant now) throws BadRequest {
        if (!json.containsKey("minutes")) {
            return null;
        }
        if (!(json.getValue("minutes") instanceof Number n) || n.longValue() < 1) {
            throw new BadRequest("minutes", "must be a whole number of minutes, at least 1");
        }
        return now.plus(Duration.ofMinutes(n.longValue()));
    }

    /** {@code value} as a UTC ISO-8601 instant, refused under {@code field}. */
    static Instant instant(String field, String value) throws BadRequest {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new BadRequest(field, "not a UTC ISO-8601 time: " + value);
        }
    }
}
