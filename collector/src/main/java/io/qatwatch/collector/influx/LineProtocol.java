package io.qatwatch.collector.influx;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds one InfluxDB line-protocol point: measurement, tags (sorted, empty values left out), typed fields
 * and a nanosecond timestamp. Escaping follows the line-protocol rules that InfluxDB 1.x, 2.x, 3.x and
 * QuestDB share.
 */
public final class LineProtocol {

    private final String measurement;
    private final Map<String, String> tags = new TreeMap<>();
    private final Map<String, String> fields = new TreeMap<>();

    private LineProtocol(String measurement) {
        this.measurement = measurement;
    }

    /** Starts a point of {@code measurement}. */
    public static LineProtocol point(String measurement) {
        return new LineProtocol(measurement);
    }

    /** Adds a tag; a null or blank value is left out (unknown is never written as an empty string). */
    public LineProtocol tag(String key, String value) {
        if (value != null && !value.isBlank()) {
            tags.put(key, value);
        }
        return this;
    }

    /** An integer field ({@code 12i}); null is left out. */
    public LineProtocol intField(String key, Long value) {
        if (value != null) {
            fields.put(key, value + "i");
        }
        return this;
    }

    public LineProtocol intField(String key, long value) {
        return intField(key, Long.valueOf(value));
    }

    /** A float field; null, NaN and infinities are left out (line protocol has no spelling for them). */
    public LineProtocol floatField(String key, Double value) {
        if (value != null && Double.isFinite(value)) {
            String text = Double.toString(value);
            fields.put(key, text.contains("E") ? java.math.BigDecimal.valueOf(value).toPlainString() : text);
        }
        return this;
    }

    public LineProtocol boolField(String key, Boolean value) {
        if (value != null) {
            fields.put(key, value.toString());
        }
        return this;
    }

    /** A string field; null is left out. */
    public LineProtocol stringField(String key, String value) {
        if (value != null) {
            fields.put(key, '"' + value.replace("\\", "\\\\").replace("\"", "\\\"").replace('\n', ' ')
                    .replace('\r', ' ') + '"');
        }
        return this;
    }

    /** The line, or null when no field was set (a point without fields is not valid line protocol). */
    public String at(Instant time) {
        if (fields.isEmpty()) {
            return null;
        }
        StringBuilder line = new StringBuilder(128).append(escapeName(measurement));
        tags.forEach((k, v) -> line.append(',').append(escapeName(k)).append('=').append(escapeTagValue(v)));
        char separator = ' ';
        for (Map.Entry<String, String> field : fields.entrySet()) {
            line.append(separator).append(escapeName(field.getKey())).append('=').append(field.getValue());
            separator = ',';
        }
        return line.append(' ').append(nanos(time)).toString();
    }

    static long nanos(Instant time) {
        return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
    }

    private static String escapeName(String name) {
        return name.replace(",", "\\,").replace(" ", "\\ ").replace("=", "\\=");
    }

    /**
     * Commas, equals signs and spaces are escaped. A backslash becomes {@code /}: servers disagree on how
     * {@code \\} in a tag value unescapes, and a trailing one would swallow the separator after it.
     * Control characters (refused at ingest anyway) become spaces.
     */
    static String escapeTagValue(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case ',', '=', ' ' -> out.append('\\').append(c);
                case '\\' -> out.append('/');
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append("\\ ");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
