package io.qatwatch.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.qatwatch.protocol.ReportSchema.Bool;
import io.qatwatch.protocol.ReportSchema.Decimal;
import io.qatwatch.protocol.ReportSchema.Field;
import io.qatwatch.protocol.ReportSchema.Int;
import io.qatwatch.protocol.ReportSchema.ListOf;
import io.qatwatch.protocol.ReportSchema.MapOf;
import io.qatwatch.protocol.ReportSchema.NotBefore;
import io.qatwatch.protocol.ReportSchema.Obj;
import io.qatwatch.protocol.ReportSchema.Text;
import io.qatwatch.protocol.ReportSchema.Time;
import io.qatwatch.protocol.ReportSchema.Type;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a report against {@link ReportSchema}, the wire format's one table of rules, and returns the first
 * violation by its JSON path. It reads the JSON itself, token by token, so that it sees what data binding would
 * hide: a number where a string belongs, an instant written as a number, a string in a field the records do not
 * have. Pure: the clock is passed in.
 */
public final class ReportValidator {

    /** Names that become parts of URLs and keys (instance names): no separators, no spaces, no leading dot. */
    public static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_$#.\\-]{0,63}");
    public static final int MAX_NAME_CHARS = ReportSchema.NAME_CHARS;
    public static final int MAX_TEXT_CHARS = ReportSchema.TEXT_CHARS;
    public static final int MAX_INSTANCES = ReportSchema.MAX_INSTANCES;
    public static final int MAX_BACKUPS_PER_INSTANCE = ReportSchema.MAX_BACKUPS_PER_INSTANCE;
    public static final int MAX_DATABASES = ReportSchema.MAX_DATABASES;
    public static final int MAX_LIST_ITEMS = ReportSchema.MAX_LIST_ITEMS;
    /** Clock skew tolerated for times in the future. */
    public static final Duration MAX_FUTURE = Duration.ofDays(1);
    /** Earliest plausible time: msdb history older than this is a corrupt row. */
    public static final Instant EARLIEST = Instant.parse("1990-01-01T00:00:00Z");

    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");
    /**
     * Jackson's own string limit sits above the schema's so that an over-long string is reported by this validator,
     * with its path, and not by the parser as a body error.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            // duplicate names are found by the walk itself: a schema field by its seen flag, others by a set made only
            // for objects that have them (Jackson's detection kept a hash set per object, 1 in 8 of the check's time)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(4 * ReportSchema.MAX_STRING_BYTES)
                    .maxNameLength(4 * ReportSchema.MAX_STRING_BYTES)
                    .maxNestingDepth(64)
                    .build())
            .build();

    private ReportValidator() {
    }

    /** One broken rule: the JSON path of the field and what is wrong with it. */
    public record Violation(String field, String error) {
    }

    public static Optional<Violation> validate(AgentReport report, Instant now) {
        try {
            check(report, now);
            return Optional.empty();
        } catch (ReportFormatException e) {
            return Optional.of(new Violation(e.field(), e.getMessage()));
        }
    }

    /** As {@link #validate(AgentReport, Instant)}, on a report's bytes as they go on the wire. */
    public static Optional<Violation> validate(byte[] json, Instant now) {
        try {
            check(json, now);
            return Optional.empty();
        } catch (ReportFormatException e) {
            return Optional.of(new Violation(e.field(), e.getMessage()));
        }
    }

    /** As {@link #validate}, raising the first violation; checks the report as it would go on the wire. */
    public static void check(AgentReport report, Instant now) {
        if (report == null) {
            throw new ReportFormatException("$", "empty body: expected a JSON report object");
        }
        check(ReportJson.toBytes(report), now);
    }

    /**
     * Checks a report's bytes as they arrived: well-formed UTF-8, JSON, and every rule of {@link ReportSchema};
     * raises the first violation.
     */
    public static void check(byte[] json, Instant now) {
        Utf8.requireWellFormed(json);
        try (JsonParser parser = JSON.createParser(json)) {
            JsonToken first = parser.nextToken();
            if (first == null || first == JsonToken.VALUE_NULL) {
                throw new ReportFormatException("$", "empty body: expected a JSON report object");
            }
            Walk walk = new Walk(parser, now);
            if (first != JsonToken.START_OBJECT) {
                throw walk.violation("expected the report as a JSON object, got " + Walk.describe(first));
            }
            walk.object(ReportSchema.REPORT);
            if (parser.nextToken() != null) {
                throw new ReportFormatException("$", "malformed JSON: more after the report's closing brace");
            }
        } catch (JsonProcessingException e) {
            String message = e.getOriginalMessage() == null ? "invalid JSON" : e.getOriginalMessage();
            int nl = message.indexOf('\n');
            throw new ReportFormatException("$", "malformed JSON: " + (nl < 0 ? message : message.substring(0, nl)));
        } catch (IOException e) {
            throw new ReportFormatException("$", "unreadable body: " + e.getMessage());
        }
    }

    /** One pass over the tokens, with the path to the current value for the error message. */
    private static final class Walk {
        private final JsonParser p;
        private final Instant now;
        private final List<Object> path = new ArrayList<>();

        Walk(JsonParser p, Instant now) {
            this.p = p;
            this.now = now;
        }

        void object(Obj obj) throws IOException {
            List<Field> fields = obj.fields();
            boolean[] seen = new boolean[fields.size()];
            Instant[] times = obj.order().isEmpty() ? null : new Instant[fields.size()];
            Set<String> others = null;
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                int i = indexOf(fields, name);
                if (i < 0) {
                    if (others == null) {
                        others = new HashSet<>();
                    }
                    if (!others.add(name)) {
                        throw duplicate(name);
                    }
                } else if (seen[i]) {
                    throw duplicate(name);
                }
                path.add(name);
                anyString(name);
                p.nextToken();
                if (i < 0) {
                    anyValue();
                } else {
                    seen[i] = true;
                    Field f = fields.get(i);
                    if (p.currentToken() == JsonToken.VALUE_NULL) {
                        if (f.required()) {
                            throw violation("is required (" + expected(f.type()) + ")");
                        }
                    } else {
                        Instant value = value(f.type());
                        if (times != null) {
                            times[i] = value;
                        }
                    }
                }
                path.remove(path.size() - 1);
            }
            if (t != JsonToken.END_OBJECT) {
                throw violation("malformed object");
            }
            for (int i = 0; i < fields.size(); i++) {
                if (!seen[i] && fields.get(i).required()) {
                    path.add(fields.get(i).name());
                    throw violation("is required (" + expected(fields.get(i).type()) + ")");
                }
            }
            for (NotBefore order : obj.order()) {
                Instant later = times[indexOf(fields, order.later())];
                Instant earlier = times[indexOf(fields, order.earlier())];
                if (later != null && earlier != null && later.isBefore(earlier)) {
                    path.add(order.later());
                    throw violation(order.violation());
                }
            }
        }

        private static int indexOf(List<Field> fields, String name) {
            for (int i = 0; i < fields.size(); i++) {
                if (fields.get(i).name().equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        /** Checks the current (non-null) value; returns it when it is an instant, for the object's order rules. */
        Instant value(Type type) throws IOException {
            JsonToken t = p.currentToken();
            if (type instanceof Obj obj) {
                if (t != JsonToken.START_OBJECT) {
                    throw violation("expected an object, got " + describe(t));
                }
                object(obj);
            } else if (type instanceof ListOf list) {
                list(list, t);
            } else if (type instanceof MapOf map) {
                map(map, t);
            } else if (type instanceof Text text) {
                text(text, t);
            } else if (type instanceof Int integer) {
                integer(integer, t);
            } else if (type instanceof Decimal decimal) {
                if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
                    throw violation("expected a number, got " + describe(t));
                }
                double v = p.getDoubleValue();
                if (!(v >= decimal.min() && v <= decimal.max())) {
                    throw violation("must be between " + plain(decimal.min()) + " and " + plain(decimal.max()) + " (was " + v + ")");
                }
            } else if (type instanceof Bool) {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                    throw violation("expected true or false, got " + describe(t));
                }
            } else if (type instanceof Time time) {
                return time(time, t);
            }
            return null;
        }

        private void list(ListOf list, JsonToken t) throws IOException {
            if (t != JsonToken.START_ARRAY) {
                throw violation("expected a list, got " + describe(t));
            }
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (i == list.maxItems()) {
                    throw violation("has more than " + list.maxItems() + " items; at most " + list.maxItems() + " are accepted");
                }
                path.add(i);
                if (p.currentToken() == JsonToken.VALUE_NULL) {
                    throw violation("is required (" + expected(list.item()) + "; a list holds no nulls)");
                }
                value(list.item());
                path.remove(path.size() - 1);
                i++;
            }
        }

        private void map(MapOf rule, JsonToken t) throws IOException {
            if (t != JsonToken.START_OBJECT) {
                throw violation("expected an object of names to strings, got " + describe(t));
            }
            int n = 0;
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (!names.add(name)) {
                    throw duplicate(name);
                }
                if (++n > rule.maxEntries()) {
                    throw violation("has more than " + rule.maxEntries() + " entries; at most " + rule.maxEntries()
                            + " are accepted");
                }
                path.add(name);
                anyString(name);
                if (name.length() > rule.key().maxChars() || !rule.key().pattern().matcher(name).matches()) {
                    throw violation("is not a valid name: " + rule.key().patternRule());
                }
                p.nextToken();
                if (p.currentToken() == JsonToken.VALUE_NULL) {
                    throw violation("is required (" + expected(rule.value()) + ")");
                }
                text(rule.value(), p.currentToken());
                path.remove(path.size() - 1);
            }
        }

        private void text(Text rule, JsonToken t) throws IOException {
            if (t != JsonToken.VALUE_STRING) {
                throw violation("expected " + expected(rule) + ", got " + describe(t));
            }
            String s = p.getText();
            anyString(s);
            if (s.length() > rule.maxChars()) {
                throw violation("is " + s.length() + " characters long; at most " + rule.maxChars());
            }
            if (rule.nonBlank() && s.isBlank()) {
                throw violation("must not be blank");
            }
            if (!rule.values().isEmpty() && !rule.values().contains(s)) {
                throw violation("must be one of " + String.join(", ", rule.values()) + " (was '" + shortened(s) + "')");
            }
            if (rule.pattern() != null && !rule.pattern().matcher(s).matches()) {
                throw violation("must be " + rule.patternRule());
            }
        }

        private void integer(Int rule, JsonToken t) throws IOException {
            if (t != JsonToken.VALUE_NUMBER_INT) {
                throw violation("expected an integer, got " + describe(t));
            }
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw violation("is out of range (" + shortened(p.getText()) + "); at most " + rule.max());
            }
            long v = p.getLongValue();
            if (v < rule.min() || v > rule.max()) {
                if (rule.violation() != null) {
                    throw violation(String.format(rule.violation(), v));
                }
                throw violation(rule.min() == 0 && v < 0 ? "must not be negative (was " + v + ")"
                        : "must be from " + rule.min() + " to " + rule.max() + " (was " + v + ")");
            }
        }

        private Instant time(Time rule, JsonToken t) throws IOException {
            if (t != JsonToken.VALUE_STRING) {
                throw violation("expected " + expected(rule) + ", got " + describe(t));
            }
            String s = p.getText();
            anyString(s);
            Instant value;
            try {
                value = instant(s);
            } catch (DateTimeParseException e) {
                throw violation("expected " + expected(rule) + " (was '" + shortened(s) + "')");
            }
            if (rule.observed()) {
                if (value.isAfter(now.plus(MAX_FUTURE))) {
                    throw violation("is in the future (" + value + "); check the agent host's clock");
                }
                if (value.isBefore(EARLIEST)) {
                    throw violation("is before " + EARLIEST + " (" + value + ")");
                }
            }
            return value;
        }

        /**
         * {@code s} as an instant, in the one spelling the schema allows ({@link #INSTANT}). The common shapes
         * (whole seconds, or 1 to 9 fraction digits, fields in range) are read digit by digit; anything else goes to
         * {@link Instant#parse}, which decides (a leap second, an invalid date): a quarter of the check's time went
         * there for a handful of times per report.
         */
        static Instant instant(String s) {
            int n = s.length();
            if (n >= 20 && s.charAt(4) == '-' && s.charAt(7) == '-' && s.charAt(10) == 'T' && s.charAt(13) == ':'
                    && s.charAt(16) == ':' && s.charAt(n - 1) == 'Z' && (n == 20 || s.charAt(19) == '.' && n >= 22 && n <= 30)) {
                int year = digits(s, 0, 4);
                int month = digits(s, 5, 7);
                int day = digits(s, 8, 10);
                int hour = digits(s, 11, 13);
                int minute = digits(s, 14, 16);
                int second = digits(s, 17, 19);
                int fraction = n == 20 ? 0 : digits(s, 20, n - 1);
                if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour <= 23
                        && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && fraction >= 0) {
                    try {
                        long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
                        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second,
                                n == 20 ? 0 : (long) fraction * POWERS[30 - n]);
                    } catch (java.time.DateTimeException noSuchDay) {
                        // February 30th and the like: Instant.parse below words the error
                    }
                }
            }
            if (!INSTANT.matcher(s).matches()) {
                throw new DateTimeParseException("not an instant", s, 0);
            }
            return Instant.parse(s);
        }

        /** Nanoseconds per unit of the last fraction digit, by 9 minus the number of fraction digits. */
        private static final long[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

        /** The decimal number in {@code s[from, to)}, or -1 when a character is not an ASCII digit. */
        private static int digits(String s, int from, int to) {
            int v = 0;
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                v = v * 10 + (c - '0');
            }
            return v;
        }

        /** A value of a field the schema does not list: any JSON, but its strings obey the rules for every string. */
        private void anyValue() throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.START_OBJECT) {
                Set<String> names = new HashSet<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    if (!names.add(name)) {
                        throw duplicate(name);
                    }
                    path.add(name);
                    anyString(name);
                    p.nextToken();
                    anyValue();
                    path.remove(path.size() - 1);
                }
            } else if (t == JsonToken.START_ARRAY) {
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    path.add(i++);
                    anyValue();
                    path.remove(path.size() - 1);
                }
            } else if (t == JsonToken.VALUE_STRING) {
                anyString(p.getText());
            }
        }

        /**
         * The rules for every string: bounded, no control characters (what reaches logs, chat and HTML stays clean),
         * no lone surrogates.
         */
        private void anyString(String s) {
            // a char is at most 3 UTF-8 bytes (a surrogate pair is 4 for 2 chars): only long strings need counting
            if (s.length() > ReportSchema.MAX_STRING_BYTES / 3) {
                int bytes = s.getBytes(StandardCharsets.UTF_8).length;
                if (bytes > ReportSchema.MAX_STRING_BYTES) {
                    throw violation("is " + bytes + " bytes long; no string in a report may be longer than "
                            + ReportSchema.MAX_STRING_BYTES + " bytes (64 KiB)");
                }
            }
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (ReportSchema.isControl(c)) {
                    throw violation(String.format("contains control character U+%04X at %d", (int) c, i));
                }
                if (Character.isSurrogate(c)) {
                    // an escaped lone surrogate (backslash-u D800) is well-formed JSON but no character: stored, it would
                    // silently become '?'
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        i++;
                    } else {
                        throw violation(String.format("contains a lone surrogate U+%04X at %d (an unpaired \\u escape "
                                + "is not a character; escape a character beyond U+FFFF as its pair, or send it as UTF-8)",
                                (int) c, i));
                    }
                }
            }
        }

        /** As Jackson's strict duplicate detection said it, at the object holding the name twice. */
        ReportFormatException duplicate(String name) {
            ReportFormatException at = violation("x");
            return new ReportFormatException("$", "malformed JSON: Duplicate field '" + name + "'"
                    + (at.field().equals("$") ? "" : " in " + at.field()));
        }

        ReportFormatException violation(String message) {
            StringBuilder at = new StringBuilder();
            for (Object segment : path) {
                if (segment instanceof Integer index) {
                    at.append('[').append(index).append(']');
                } else {
                    if (!at.isEmpty()) {
                        at.append('.');
                    }
                    at.append(segment);
                }
            }
            return new ReportFormatException(at.isEmpty() ? "$" : at.toString(), message);
        }

        static String describe(JsonToken t) {
            if (t == null) {
                return "the end of the body";
            }
            return switch (t) {
                case START_OBJECT -> "an object";
                case START_ARRAY -> "a list";
                case VALUE_STRING -> "a string";
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
                case VALUE_TRUE, VALUE_FALSE -> "true or false";
                case VALUE_NULL -> "null";
                default -> t.asString() == null ? t.name() : t.asString();
            };
        }

        static String expected(Type type) {
            if (type instanceof Obj) {
                return "an object";
            }
            if (type instanceof ListOf) {
                return "a list";
            }
            if (type instanceof MapOf) {
                return "an object of names to strings";
            }
            if (type instanceof Text text) {
                return text.values().isEmpty() ? "a string" : "one of " + String.join(", ", text.values());
            }
            if (type instanceof Int) {
                return "an integer";
            }
            if (type instanceof Decimal) {
                return "a number";
            }
            if (type instanceof Bool) {
                return "true or false";
            }
            return "a UTC ISO-8601 time such as 2026-01-02T03:04:05Z";
        }

        private static String shortened(String s) {
            return s.length() <= 64 ? s : s.substring(0, 64) + "…";
        }

        private static String plain(double d) {
            return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
        }
    }
}
